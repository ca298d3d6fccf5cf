import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Switch, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IMR_KINDS, type ImrKind, type ImrRuleDto } from '@kefu/protocol';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink } from '../../../components/RowActions';
import { rules } from '../../../lib/formRules';
import { appApi, kfApi, snsApi } from '../api';

interface Fields {
  kind: ImrKind;
  keyword: string;
  contains: boolean;
  reply: string;
}

/** Whose rules: an official account / mini-program app (its one account), or one WeChat KF account. */
export type ImrOwner =
  { channel: 'weixin' | 'weapp'; appid: string } | { channel: 'wechat'; accountid: string };

/**
 * The auto-replies (imr) of one account: list, add, delete. A KF account's rules are saved and deleted
 * through the official-account calls (/api/wechat/imr/*); its subscribe rule is the welcome on entering.
 */
export function ImrModal(props: { owner: ImrOwner | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const owner = props.owner;
  const channel = owner?.channel ?? 'weixin';
  const api = appApi(channel === 'weapp' ? 'weapp' : 'weixin');
  const key = owner ? (owner.channel === 'wechat' ? owner.accountid : owner.appid) : null;
  const [adding, setAdding] = useState(false);
  const list = useQuery({
    queryKey: ['imr', channel, key],
    queryFn: ({ signal }) =>
      owner!.channel === 'wechat' ? kfApi.rules(owner!.accountid, signal) : api.rules(key!, signal),
    enabled: !!key,
  });
  const account = useQuery({
    queryKey: ['sns', channel],
    queryFn: ({ signal }) => snsApi.list(channel, signal),
    enabled: !!owner && owner.channel !== 'wechat',
  });
  const accountid =
    owner?.channel === 'wechat' ? owner.accountid : (account.data?.find((a) => a.appid === key)?.id ?? '');
  const kindLabel = (k: ImrKind) =>
    t(channel === 'wechat' && k === 'subscribe' ? 'channel.imr.kind.welcome' : `channel.imr.kind.${k}`);
  const id = `imr-${channel}`;
  return (
    <Modal
      open={!!key}
      title={t('channel.imr')}
      footer={null}
      width={760}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t(channel === 'wechat' ? 'channel.imrKfHint' : 'channel.imrHint')}
      </Typography.Paragraph>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => setAdding(true)}
        style={{ marginBottom: 12 }}
        data-testid={`${id}-new`}
      >
        {t('channel.imr.new')}
      </Button>
      <Table<ImrRuleDto>
        size="small"
        rowKey="id"
        data-testid={`${id}-table`}
        pagination={false}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        columns={[
          {
            title: t('channel.imr.kind'),
            dataIndex: 'kind',
            width: 110,
            render: (v: ImrKind) => <Tag>{kindLabel(v)}</Tag>,
          },
          {
            title: t('channel.imr.keyword'),
            dataIndex: 'keyword',
            width: 180,
            render: (v: string, row) => (row.kind === 'subscribe' ? '—' : `${v}${row.contains ? ' *' : ''}`),
          },
          { title: t('channel.imr.reply'), dataIndex: 'reply' },
          {
            title: t('common.actions'),
            width: 90,
            render: (_: unknown, row) => (
              <DeleteLink
                name={row.keyword || kindLabel(row.kind)}
                onDelete={() => api.removeRule(row.id)}
                onDone={() => void list.refetch()}
              />
            ),
          },
        ]}
      />
      <FormModal<Fields>
        open={adding}
        title={t('channel.imr.new')}
        testId={`${id}-form`}
        initialValues={{ kind: 'keyword', contains: false }}
        onCancel={() => setAdding(false)}
        onSubmit={async (v) => {
          await api.saveRule({ ...v, keyword: v.keyword ?? '', accountid });
          setAdding(false);
          void list.refetch();
        }}
      >
        {(form) => (
          <>
            <Form.Item name="kind" label={t('channel.imr.kind')}>
              <Select
                data-testid={`${id}-kind`}
                options={IMR_KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
              />
            </Form.Item>
            <Form.Item noStyle shouldUpdate>
              {() =>
                form.getFieldValue('kind') !== 'subscribe' && (
                  <>
                    <Form.Item name="keyword" label={t('channel.imr.keyword')} rules={[r.required]}>
                      <Input maxLength={64} data-testid={`${id}-keyword`} />
                    </Form.Item>
                    {form.getFieldValue('kind') === 'keyword' && (
                      <Form.Item name="contains" label={t('channel.imr.contains')} valuePropName="checked">
                        <Switch />
                      </Form.Item>
                    )}
                  </>
                )
              }
            </Form.Item>
            <Form.Item name="reply" label={t('channel.imr.reply')} rules={[r.required]}>
              <Input.TextArea rows={3} maxLength={600} showCount data-testid={`${id}-reply`} />
            </Form.Item>
          </>
        )}
      </FormModal>
    </Modal>
  );
}
