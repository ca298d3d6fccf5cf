import { useEffect } from 'react';
import { Button, Col, Form, Input, InputNumber, Row, Select, Spin, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { QualitySettingsDto } from '@kefu/protocol';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { qualityApi } from '../api';

type Fields = Omit<QualitySettingsDto, 'greetings' | 'closings'> & { greetings: string; closings: string };

const NUMBERS = [
  ['appealDays', 365],
  ['remindHours', 720],
  ['firstResponseSec', 86_400],
  ['silenceSec', 86_400],
  ['longWaitSec', 86_400],
] as const;

/** The appeal window and the thresholds and phrases of the automatic rules. */
export function SettingsForm() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<Fields>();
  const { saving, run } = useSaving();
  const settings = useQuery({
    queryKey: ['quality', 'settings'],
    queryFn: ({ signal }) => qualityApi.settings(signal),
  });
  useEffect(() => {
    const s = settings.data;
    if (s) form.setFieldsValue({ ...s, greetings: s.greetings.join('\n'), closings: s.closings.join('\n') });
  }, [settings.data, form]);
  if (!settings.data) return <Spin />;
  const lines = (v: string | undefined) =>
    (v ?? '')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  const save = (v: Fields) =>
    run(async () => {
      try {
        await qualityApi.saveSettings({ ...v, greetings: lines(v.greetings), closings: lines(v.closings) });
      } catch (e) {
        showFieldErrors(form, e);
        throw e;
      }
      notify.success(t('common.done'));
      await qc.invalidateQueries({ queryKey: ['quality', 'settings'] });
    });
  return (
    <Form<Fields> form={form} layout="vertical" onFinish={(v) => void save(v)} data-testid="qc-settings">
      <Row gutter={24}>
        {NUMBERS.map(([name, max]) => (
          <Col key={name} xs={24} md={8} xl={4}>
            <Form.Item name={name} label={t(`qc.set.${name}`)} tooltip={t(`qc.set.${name}.hint`)}>
              <InputNumber
                min={0}
                max={max}
                precision={0}
                style={{ width: '100%' }}
                data-testid={`qc-set-${name}`}
              />
            </Form.Item>
          </Col>
        ))}
        <Col xs={24} md={8} xl={4}>
          <Form.Item name="lowSatisfaction" label={t('qc.set.lowSatisfaction')}>
            <Select
              options={[0, 1, 2, 3, 4, 5].map((n) => ({
                value: n,
                label: n ? t(`history.satis.${n}`) : t('qc.set.off'),
              }))}
            />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="greetings" label={t('qc.set.greetings')} extra={t('qc.set.phrasesHint')}>
            <Input.TextArea rows={4} data-testid="qc-set-greetings" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="closings" label={t('qc.set.closings')} extra={t('qc.set.phrasesHint')}>
            <Input.TextArea rows={4} data-testid="qc-set-closings" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="aiSuggest"
        label={t('qc.set.aiSuggest')}
        extra={t('qc.set.aiSuggest.hint')}
        valuePropName="checked"
      >
        <Switch data-testid="qc-set-aiSuggest" />
      </Form.Item>
      <Typography.Paragraph type="secondary">{t('qc.set.desc')}</Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="qc-settings-save">
        {t('common.save')}
      </Button>
    </Form>
  );
}
