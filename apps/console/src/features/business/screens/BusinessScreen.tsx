import { useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Radio, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  BUSINESS_OPENTYPES,
  BUSINESS_PLACEHOLDERS,
  type BusinessEncryptionDto,
  type BusinessSystemDto,
} from '@kefu/protocol';
import { businessApi, type BusinessDraft } from '../api';
import { DataTable } from '../../../components/DataTable';
import { FormModal } from '../../../components/FormModal';
import { ConfirmLink, DeleteLink, EditLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { rules } from '../../../lib/formRules';

/** /setup/business (A09_A06_A03): external systems opened from /dialogue with a signed link. */
export default function BusinessScreen() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const list = useList<object, BusinessSystemDto>(
    'business',
    async (q, signal) => {
      const l = await businessApi.list(signal);
      return { list: l, total: l.length, page: 1, size: Math.max(l.length, q.ps) };
    },
    {},
  );
  const [draft, setDraft] = useState<BusinessSystemDto | 'new' | null>(null);
  const [key, setKey] = useState<BusinessEncryptionDto | null>(null);
  const editing = draft && draft !== 'new' ? draft : null;
  const initial = useMemo<Partial<BusinessDraft>>(
    () =>
      editing
        ? { ...editing }
        : {
            opentype: 'panel',
            enabled: true,
            url: 'https://crm.example.com/customer?visitor={visitorid}',
            ticketurl: '',
          },
    [editing],
  );
  const columns: ColumnsType<BusinessSystemDto> = [
    {
      title: t('biz.name'),
      dataIndex: 'name',
      width: 160,
      render: (v: string) => <span data-testid={`biz-row-${v}`}>{v}</span>,
    },
    { title: t('biz.url'), dataIndex: 'url', ellipsis: true },
    {
      title: t('biz.opentype'),
      dataIndex: 'opentype',
      width: 130,
      render: (v: string) => t(`biz.opentype.${v}`),
    },
    {
      title: t('biz.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean) => (
        <Tag color={v ? 'green' : 'default'}>{v ? t('sec.totp.on') : t('sec.totp.off')}</Tag>
      ),
    },
    {
      title: t('common.actions'),
      width: 220,
      render: (_: unknown, row) => (
        <Space size={0}>
          <EditLink onClick={() => setDraft(row)} testId={`biz-edit-${row.name}`} />
          <Button
            type="link"
            size="small"
            onClick={() => void businessApi.encryption(row.id).then(setKey)}
            data-testid={`biz-key-${row.name}`}
          >
            {t('biz.encryption')}
          </Button>
          <DeleteLink
            name={row.name}
            onDelete={() => businessApi.remove(row.id)}
            onDone={() => void list.refresh()}
            testId={`biz-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('biz.title')}
      data-testid="business-screen"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDraft('new')} data-testid="biz-new">
          {t('biz.new')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('biz.desc')}</Typography.Paragraph>
      <DataTable list={list} rowKey="id" columns={columns} testId="biz-table" emptyText={t('biz.empty')} />
      <FormModal<BusinessDraft>
        open={draft !== null}
        title={editing ? t('biz.edit') : t('biz.new')}
        testId="biz-form"
        width={620}
        initialValues={initial}
        onCancel={() => setDraft(null)}
        onSubmit={async (v) => {
          await businessApi.save({ ...v, id: editing?.id, ticketurl: v.ticketurl?.trim() ?? '' });
          setDraft(null);
          void list.refresh();
        }}
      >
        <Form.Item name="name" label={t('biz.name')} rules={[r.required]}>
          <Input maxLength={50} data-testid="biz-form-name" />
        </Form.Item>
        <Form.Item name="url" label={t('biz.url')} rules={[r.required]} extra={`${t('biz.urlHint')}`}>
          <Input data-testid="biz-form-url" />
        </Form.Item>
        <Form.Item name="ticketurl" label={t('biz.ticketurl')}>
          <Input data-testid="biz-form-ticketurl" />
        </Form.Item>
        <Form.Item name="opentype" label={t('biz.opentype')}>
          <Radio.Group
            options={BUSINESS_OPENTYPES.map((o) => ({ value: o, label: t(`biz.opentype.${o}`) }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('biz.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </FormModal>
      <Modal
        open={key !== null}
        title={t('biz.encryption')}
        onCancel={() => setKey(null)}
        footer={
          key && (
            <Space>
              <ConfirmLink
                label={t('biz.rotate')}
                confirmText={t('key.rotateConfirm')}
                danger
                onConfirm={async () => setKey(await businessApi.encryption(key.id, true))}
                testId="biz-key-rotate"
              />
              <Button type="primary" onClick={() => setKey(null)}>
                {t('common.ok')}
              </Button>
            </Space>
          )
        }
      >
        {key && (
          <>
            <Alert
              type="info"
              showIcon
              message={t('biz.encryptionHint', { mode: key.mode })}
              style={{ marginBottom: 12 }}
            />
            <Typography.Paragraph
              code
              copyable
              data-testid="biz-key-value"
              style={{ wordBreak: 'break-all' }}
            >
              {key.key}
            </Typography.Paragraph>
            <Typography.Text type="secondary">
              {BUSINESS_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}
            </Typography.Text>
          </>
        )}
      </Modal>
    </Card>
  );
}
