import { useState } from 'react';
import { Button, Card, Form, Input, InputNumber, Modal, Segmented, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BlackEntryDto } from '@kefu/protocol';
import { blackApi, type BlackDraft } from '../api';
import { useConfirmAction } from '../../../lib/confirm';
import { notify } from '../../../lib/notify';
import { rules } from '../../../lib/formRules';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { firstPage, pager, type PageState } from '../../../lib/table';
import { formatTime } from '../../../lib/time';
import { RequestError } from '../../../lib/request';

type Kind = 'user' | 'ip';
interface Fields extends BlackDraft {
  value: string;
}

/** /setup/black: blocked visitor ids and IP addresses, with their terms. */
export default function BlackScreen() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const r = rules(i18n.language);
  const confirm = useConfirmAction();
  const [page, setPage] = useState<PageState>(firstPage);
  const [kind, setKind] = useState<Kind | 'all'>('all');
  const [adding, setAdding] = useState<Kind | null>(null);
  const [form] = Form.useForm<Fields>();
  const key = ['black', page, kind];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => blackApi.list({ ...page, kind: kind === 'all' ? undefined : kind }, signal),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['black'] });

  const open = (k: Kind) => {
    form.resetFields();
    form.setFieldsValue({ controltime: 0, description: '' });
    setAdding(k);
  };
  const submit = async (v: Fields) => {
    const d = { controltime: v.controltime ?? 0, description: v.description?.trim() ?? '' };
    try {
      if (adding === 'ip') await blackApi.saveIp(v.value.trim(), d);
      else await blackApi.saveUser(v.value.trim(), d);
      setAdding(null);
      notify.success(t('common.done'));
      void refresh();
    } catch (e) {
      const key = e instanceof RequestError ? (e.fields?.ip ?? e.fields?.userid) : undefined;
      if (key) form.setFields([{ name: 'value', errors: [t(`error.${key}`)] }]);
      showFieldErrors(form, e);
    }
  };

  const columns: ColumnsType<BlackEntryDto> = [
    {
      title: t('black.kind'),
      dataIndex: 'kind',
      width: 90,
      render: (k: Kind) => <Tag color={k === 'ip' ? 'orange' : 'blue'}>{t(`black.kind.${k}`)}</Tag>,
    },
    {
      title: t('black.value'),
      dataIndex: 'value',
      render: (v: string) => <span data-testid={`black-row-${v}`}>{v}</span>,
    },
    { title: t('black.description'), dataIndex: 'description', render: (v: string) => v || '—' },
    {
      title: t('black.endtime'),
      dataIndex: 'endtime',
      width: 200,
      render: (v: number | null, e) =>
        v === null ? (
          t('black.forever')
        ) : (
          <Space size={4}>
            {formatTime(v)}
            {e.expired && <Tag>{t('black.expired')}</Tag>}
          </Space>
        ),
    },
    {
      title: t('user.createtime'),
      dataIndex: 'createtime',
      width: 170,
      render: (v: number) => formatTime(v),
    },
    {
      title: t('common.actions'),
      key: 'a',
      width: 90,
      render: (_, e) => (
        <Button
          type="link"
          size="small"
          danger
          data-testid={`black-delete-${e.value}`}
          onClick={() =>
            confirm(
              t('black.removeConfirm', { name: e.value }),
              () => blackApi.remove(e.id),
              () => void refresh(),
            )
          }
        >
          {t('black.remove')}
        </Button>
      ),
    },
  ];

  return (
    <Card
      data-testid="black-screen"
      title={
        <Space>
          {t('menu.black')}
          <Segmented<Kind | 'all'>
            size="small"
            value={kind}
            onChange={(k) => {
              setKind(k);
              setPage(firstPage);
            }}
            options={[
              { value: 'all', label: t('black.all') },
              { value: 'user', label: t('black.kind.user') },
              { value: 'ip', label: t('black.kind.ip') },
            ]}
          />
        </Space>
      }
      extra={
        <Space>
          <Button data-testid="black-add-user" onClick={() => open('user')}>
            {t('black.addUser')}
          </Button>
          <Button data-testid="black-add-ip" onClick={() => open('ip')}>
            {t('black.addIp')}
          </Button>
          <Button
            danger
            data-testid="black-clean"
            onClick={() =>
              confirm(
                t('black.cleanConfirm'),
                async () => t('black.cleaned', { n: (await blackApi.clean()).removed }),
                () => void refresh(),
              )
            }
          >
            {t('black.clean')}
          </Button>
        </Space>
      }
    >
      <Table<BlackEntryDto>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{ emptyText: t('black.empty') }}
        pagination={pager(page, list.data?.total ?? 0, setPage, (n) => t('common.total', { total: n }))}
        scroll={{ x: 800 }}
      />
      <Modal
        open={adding !== null}
        title={t(adding === 'ip' ? 'black.addIp' : 'black.addUser')}
        onCancel={() => setAdding(null)}
        onOk={() => form.submit()}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'black-submit' }}
        forceRender
      >
        <Form<Fields> form={form} layout="vertical" onFinish={(v) => void submit(v)}>
          <Form.Item
            name="value"
            label={t(adding === 'ip' ? 'black.ip' : 'black.userid')}
            rules={adding === 'ip' ? [r.required, r.ip] : [r.required]}
          >
            <Input data-testid="black-value" maxLength={64} />
          </Form.Item>
          <Form.Item name="controltime" label={t('black.controltime')}>
            <InputNumber data-testid="black-controltime" min={0} max={87600} precision={0} />
          </Form.Item>
          <Form.Item name="description" label={t('black.description')}>
            <Input.TextArea rows={2} maxLength={255} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
