import { useEffect } from 'react';
import { Button, Card, Checkbox, Form, Input, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENTS,
  type WebhookConfig,
  type WebhookDeliveryDto,
  type WebhookStatus,
} from '@kefu/protocol';
import { keyApi } from '../api';
import { DataTable } from '../../../components/DataTable';
import { ConfirmLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { formatTime } from '../../../lib/time';
import { showFieldErrors } from '../../access/components/fieldErrors';

const STATUS_COLORS: Record<WebhookStatus, string> = { pending: 'gold', success: 'green', failed: 'red' };

/** Webhook settings (URL, events, on/off), a test event, and the delivery log with "send again". */
export function WebhookCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm<WebhookConfig>();
  const { saving, run } = useSaving();
  const cfg = useQuery({ queryKey: ['webhook-config'], queryFn: ({ signal }) => keyApi.webhook(signal) });
  useEffect(() => {
    if (cfg.data) form.setFieldsValue(cfg.data);
  }, [cfg.data, form]);
  const list = useList<object, WebhookDeliveryDto>(
    'webhook-deliveries',
    (q, signal) => keyApi.deliveries(q, signal),
    {},
  );
  const save = (v: WebhookConfig) =>
    run(async () => {
      try {
        await keyApi.saveWebhook(v);
        notify.success(t('common.done'));
        void cfg.refetch();
      } catch (e) {
        showFieldErrors(form, e);
      }
    });
  const eventLabel = (e: string) => t(`key.event.${e}`);
  const columns: ColumnsType<WebhookDeliveryDto> = [
    { title: t('rec.time'), dataIndex: 'createtime', width: 180, render: (v: number) => formatTime(v) },
    { title: t('key.delivery.event'), dataIndex: 'event', render: eventLabel },
    {
      title: t('key.delivery.status'),
      dataIndex: 'status',
      width: 110,
      render: (s: WebhookStatus) => (
        <Tag color={STATUS_COLORS[s]} data-testid={`delivery-status-${s}`}>
          {t(`key.delivery.status.${s}`)}
        </Tag>
      ),
    },
    { title: t('key.delivery.attempts'), dataIndex: 'attempts', width: 100 },
    {
      title: t('key.delivery.result'),
      render: (_: unknown, d) => (d.lastcode ? `HTTP ${d.lastcode}` : d.lasterror || '—'),
    },
    {
      title: t('key.delivery.next'),
      dataIndex: 'nextattempt',
      width: 180,
      render: (v: number | null) => (v ? formatTime(v) : '—'),
    },
    {
      title: t('common.actions'),
      width: 110,
      render: (_: unknown, d) =>
        d.status === 'failed' ? (
          <ConfirmLink
            label={t('key.delivery.retry')}
            confirmText={t('key.delivery.retry')}
            onConfirm={() => keyApi.retry(d.id)}
            onDone={() => void list.refresh()}
            testId={`delivery-retry-${d.id}`}
          />
        ) : null,
    },
  ];
  return (
    <Card title={t('key.webhook')} data-testid="key-webhook">
      <Typography.Paragraph type="secondary">{t('key.webhookDesc')}</Typography.Paragraph>
      <Form<WebhookConfig> form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item name="enabled" label={t('key.webhookEnabled')} valuePropName="checked">
          <Switch data-testid="webhook-enabled" />
        </Form.Item>
        <Form.Item name="url" label={t('key.webhookUrl')}>
          <Input placeholder="https://crm.example.com/kefu/webhook" data-testid="webhook-url" />
        </Form.Item>
        <Form.Item name="events" label={t('key.webhookEvents')}>
          <Checkbox.Group options={WEBHOOK_EVENTS.map((e) => ({ value: e, label: t(`key.event.${e}`) }))} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="webhook-save">
            {t('common.save')}
          </Button>
          <Button
            data-testid="webhook-test"
            onClick={() =>
              void keyApi.test().then(() => {
                notify.success(t('key.tested'));
                setTimeout(() => void list.refresh(), 1_000);
              })
            }
          >
            {t('key.test')}
          </Button>
        </Space>
      </Form>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('key.deliveries')}
      </Typography.Title>
      <DataTable list={list} rowKey="id" columns={columns} testId="webhook-deliveries" />
    </Card>
  );
}
