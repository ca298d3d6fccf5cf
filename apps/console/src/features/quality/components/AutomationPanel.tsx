import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Col,
  DatePicker,
  Form,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  QUALITY_LIMITS,
  QUALITY_PERIODS,
  type QualityAllotFilters,
  type QualityAllotResultDto,
  type QualityPeriod,
} from '@kefu/protocol';
import { datePresets, type Range } from '../../../lib/dates';
import { formatTime } from '../../../lib/time';
import { rules } from '../../../lib/formRules';
import { useSaving } from '../../../lib/saving';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { qualityApi, type AutomationFields } from '../api';
import { InspectorsItem, enumOptions } from './filters';
import { useAgentOptions, useInspectorOptions, useSkillOptions } from './options';

/** The yes/no filters of a rule: a conversation qualifies when it matches any of those ticked. */
const FLAGS = ['lowSatisfaction', 'longWait', 'sensitive', 'transfer', 'aiHandoff'] as const;

interface Fields {
  range?: Range | null;
  share: number;
  percent: boolean;
  period: QualityPeriod;
  flags: Array<(typeof FLAGS)[number]>;
  organs: string[];
  agents: string[];
  inspectors: string[];
}

const toBody = (v: Fields): AutomationFields => {
  const filters: QualityAllotFilters = { organs: v.organs ?? [], agents: v.agents ?? [] };
  for (const f of FLAGS) if (v.flags?.includes(f)) filters[f] = true;
  return {
    begin: v.range?.[0]?.startOf('day').valueOf(),
    end: v.range?.[1]?.endOf('day').valueOf(),
    share: v.share,
    percent: !!v.percent,
    period: v.period,
    filters,
    inspectors: v.inspectors,
    save: true,
  };
};

/** The tenant's automatic assignment rule: a share per agent per period, filters, inspectors in turn. */
export function AutomationPanel() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const qc = useQueryClient();
  const [form] = Form.useForm<Fields>();
  const { saving, run } = useSaving();
  const [result, setResult] = useState<QualityAllotResultDto | null>(null);
  const inspectors = useInspectorOptions();
  const agents = useAgentOptions();
  const skills = useSkillOptions();
  const rule = useQuery({ queryKey: ['quality', 'rule'], queryFn: ({ signal }) => qualityApi.rule(signal) });
  useEffect(() => {
    const d = rule.data;
    if (!d) return;
    form.setFieldsValue({
      share: d.share,
      percent: d.percent,
      period: d.period,
      flags: FLAGS.filter((f) => d.filters[f]),
      organs: d.filters.organs ?? [],
      agents: d.filters.agents ?? [],
      inspectors: d.inspectors,
    });
  }, [rule.data, form]);
  const names = new Map(inspectors.map((o) => [o.value, o.label]));
  const submit = (again: boolean) =>
    run(async () => {
      const v = await form.validateFields();
      try {
        const res = again
          ? await qualityApi.automationAgain(toBody(v))
          : await qualityApi.automation(toBody(v));
        setResult(res);
      } catch (e) {
        showFieldErrors(form, e);
        throw e;
      }
      await qc.invalidateQueries({ queryKey: ['quality', 'rule'] });
      await qc.invalidateQueries({ queryKey: ['quality-notAllot'] });
      await qc.invalidateQueries({ queryKey: ['quality-allot'] });
    });
  return (
    <Form<Fields>
      form={form}
      layout="vertical"
      data-testid="qc-auto"
      initialValues={{
        share: 5,
        percent: false,
        period: 'week',
        flags: [],
        organs: [],
        agents: [],
        inspectors: [],
      }}
    >
      <Typography.Paragraph type="secondary">{t('qc.auto.desc')}</Typography.Paragraph>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          <Form.Item name="range" label={t('qc.auto.range')} extra={t('qc.auto.rangeHint')}>
            <DatePicker.RangePicker presets={datePresets(t)} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item name="period" label={t('qc.auto.period')}>
            <Select options={enumOptions(t, QUALITY_PERIODS, 'qc.period')} data-testid="qc-auto-period" />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item name="share" label={t('qc.auto.share')} rules={[r.required]}>
            <InputNumber
              min={1}
              max={QUALITY_LIMITS.automationMax}
              precision={0}
              style={{ width: '100%' }}
              data-testid="qc-auto-share"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item name="percent" label={t('qc.auto.percent')} valuePropName="checked">
            <Switch data-testid="qc-auto-percent" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="flags" label={t('qc.auto.filters')} extra={t('qc.auto.filtersHint')}>
        <Checkbox.Group options={FLAGS.map((f) => ({ value: f, label: t(`qc.auto.flag.${f}`) }))} />
      </Form.Item>
      <Row gutter={24}>
        {(
          [
            ['organs', skills],
            ['agents', agents],
          ] as const
        ).map(([name, options]) => (
          <Col key={name} xs={24} md={8}>
            <Form.Item name={name} label={t(`qc.auto.${name}`)}>
              <Select
                mode="multiple"
                allowClear
                optionFilterProp="label"
                options={options}
                placeholder={t('qc.all')}
              />
            </Form.Item>
          </Col>
        ))}
        <Col xs={24} md={8}>
          <InspectorsItem testId="qc-auto-inspectors" />
        </Col>
      </Row>
      <Space wrap>
        <Button type="primary" loading={saving} onClick={() => void submit(false)} data-testid="qc-auto-run">
          {t('qc.auto.run')}
        </Button>
        <Button loading={saving} onClick={() => void submit(true)} data-testid="qc-auto-again">
          {t('qc.auto.again')}
        </Button>
        {rule.data && (
          <Typography.Text type="secondary">
            {t('qc.auto.saved', { time: formatTime(rule.data.updatetime) })}
          </Typography.Text>
        )}
      </Space>
      {result && (
        <Alert
          style={{ marginTop: 16 }}
          type={result.allotted ? 'success' : 'info'}
          data-testid="qc-auto-result"
          data-allotted={result.allotted}
          message={t('qc.allot.result', { n: result.allotted, skipped: result.skipped })}
          description={result.perInspector
            .map((p) => `${names.get(p.inspector) ?? p.inspector}: ${p.count}`)
            .join(' · ')}
        />
      )}
    </Form>
  );
}
