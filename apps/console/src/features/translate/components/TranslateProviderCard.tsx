import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TRANSLATE_PROVIDERS, TRANSLATE_TIMEOUT_MS } from '@kefu/protocol';
import { translateApi, type TranslateConfigFields } from '../api';
import { notify } from '../../../lib/notify';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { SETTINGS_FORM_LAYOUT } from '../../sessionConfig/screens/SessionConfigForm';

const KEY = ['translateConfig'];
const PLACEHOLDER = {
  none: '',
  libre: 'http://127.0.0.1:5000',
  openai: 'https://api.openai.com/v1',
} as const;

/** /setup/other: the provider that translates visitor messages when the msgtranslate flag is on. */
export function TranslateProviderCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<TranslateConfigFields>();
  const [saving, setSaving] = useState(false);
  const cfg = useQuery({ queryKey: KEY, queryFn: ({ signal }) => translateApi.config(signal) });
  const provider = Form.useWatch('provider', form) ?? 'none';
  useEffect(() => {
    if (cfg.data) form.setFieldsValue({ ...cfg.data, key: '' });
  }, [cfg.data, form]);
  const save = async (v: TranslateConfigFields) => {
    setSaving(true);
    try {
      // An empty key field keeps the stored key (it is never shown).
      qc.setQueryData(KEY, await translateApi.saveConfig({ ...v, key: v.key || undefined }));
      notify.success(t('common.done'));
    } catch (e) {
      showFieldErrors(form, e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card
      title={t('tr.title')}
      loading={cfg.isLoading}
      data-testid="translate-provider"
      style={{ maxWidth: 880, marginTop: 16 }}
    >
      <Typography.Paragraph type="secondary">{t('tr.hint')}</Typography.Paragraph>
      <Form<TranslateConfigFields> form={form} {...SETTINGS_FORM_LAYOUT} onFinish={(v) => void save(v)}>
        <Form.Item name="provider" label={t('tr.provider')}>
          <Select
            style={{ width: 280 }}
            data-testid="tr-provider"
            options={TRANSLATE_PROVIDERS.map((p) => ({ value: p, label: t(`tr.provider.${p}`) }))}
          />
        </Form.Item>
        {provider !== 'none' && (
          <>
            <Form.Item
              name="url"
              label={t('tr.url')}
              extra={t(`tr.url.${provider}`)}
              rules={[{ required: true }]}
            >
              <Input placeholder={PLACEHOLDER[provider]} data-testid="tr-url" />
            </Form.Item>
            <Form.Item name="key" label={t('tr.key')} extra={cfg.data?.hasKey ? t('tr.keyKept') : undefined}>
              <Input.Password autoComplete="new-password" data-testid="tr-key" />
            </Form.Item>
            {provider === 'openai' && (
              <Form.Item name="model" label={t('tr.model')} rules={[{ required: true }]}>
                <Input style={{ width: 280 }} placeholder="gpt-4o-mini" data-testid="tr-model" />
              </Form.Item>
            )}
            <Form.Item name="timeoutMs" label={t('tr.timeout')} extra={t('tr.timeoutHint')}>
              <InputNumber
                min={TRANSLATE_TIMEOUT_MS.min}
                max={TRANSLATE_TIMEOUT_MS.max}
                step={1000}
                precision={0}
                addonAfter="ms"
                data-testid="tr-timeout"
              />
            </Form.Item>
          </>
        )}
        <Form.Item label=" " colon={false}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="tr-save">
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
