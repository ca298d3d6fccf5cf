import { useEffect, useState, type ReactNode } from 'react';
import { Button, Card, Form, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SessionConfigDto, SessionConfigSection } from '@kefu/protocol';
import { sessionConfigApi } from '../api';
import { useSession } from '../../../app/session';
import { notify } from '../../../lib/notify';
import { serverMsg } from '../../../lib/confirm';
import { showFieldErrors } from '../../access/components/fieldErrors';

export const SESSION_CONFIG_KEY = ['sessionConfig'];
/** The settings screens' form layout: labels in a fixed column, wrapped when long. */
export const SETTINGS_FORM_LAYOUT = {
  layout: 'horizontal',
  labelCol: { flex: '240px' },
  labelWrap: true,
  wrapperCol: { flex: 1 },
} as const;

/**
 * One session-config section as an antd form: loads GET /api/sessionConfig, saves only this section's
 * fields, shows the server's message and refreshes the console's copy (transfer prompt, tones…).
 */
export function SessionConfigForm({
  section,
  fields,
  title,
  description,
  testid,
  extra,
  children,
}: {
  section: SessionConfigSection;
  fields: ReadonlyArray<keyof SessionConfigDto>;
  title: string;
  description?: string;
  testid: string;
  /** In the card's header, e.g. the section's texts in other languages. */
  extra?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const setSessionConfig = useSession((s) => s.setSessionConfig);
  const [form] = Form.useForm<Partial<SessionConfigDto>>();
  const [saving, setSaving] = useState(false);
  const data = useQuery({
    queryKey: SESSION_CONFIG_KEY,
    queryFn: ({ signal }) => sessionConfigApi.load(signal),
  });
  useEffect(() => {
    if (data.data) {
      const picked = Object.fromEntries(fields.map((f) => [f, data.data[f]]));
      form.setFieldsValue(picked as Partial<SessionConfigDto>);
    }
  }, [data.data, fields, form]);
  const save = async (v: Partial<SessionConfigDto>) => {
    setSaving(true);
    try {
      const body = Object.fromEntries(fields.filter((f) => v[f] !== undefined).map((f) => [f, v[f]]));
      const r = await sessionConfigApi.save(section, body);
      qc.setQueryData(SESSION_CONFIG_KEY, r.data);
      setSessionConfig(r.data);
      notify.success(serverMsg(r.msg) ?? t('common.done'));
    } catch (e) {
      showFieldErrors(form, e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card title={title} extra={extra} loading={data.isLoading} data-testid={testid} style={{ maxWidth: 880 }}>
      {description && <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>}
      <Form<Partial<SessionConfigDto>> form={form} {...SETTINGS_FORM_LAYOUT} onFinish={(v) => void save(v)}>
        {children}
        <Form.Item label=" " colon={false}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid={`${testid}-save`}>
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

/** Integer seconds (or counts) in [min, max], checked here and again by the server. */
export function rangeRule(t: (k: string, o?: Record<string, unknown>) => string, min: number, max: number) {
  return {
    validator: async (_: unknown, v: unknown) => {
      if (v === undefined || v === null || v === '') throw new Error(t('error.required'));
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(t('sc.range', { min, max }));
    },
  };
}
