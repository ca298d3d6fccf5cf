import { useState } from 'react';
import { Alert, Button, Card, Modal, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CallbackConfigDto, ChannelAppDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { skillList } from '../../section/api';
import { appApi } from '../api';
import { AppForm } from './AppForm';
import { RobotCell } from './RobotCell';
import { robotApi } from '../../robot/api';
import { CallbackFields } from './CallbackFields';
import { ImrModal } from './ImrModal';

/**
 * /setup/officialAccount and /setup/weapp: the connected apps (one account each), their credentials and
 * push settings, the binding to enter in the platform's console, and their auto-replies.
 */
export function AppChannelScreen({ channel }: { channel: 'weixin' | 'weapp' }) {
  const { t } = useTranslation();
  const api = appApi(channel);
  const list = useList(`apps-${channel}`, (q, signal) => api.page(q, signal), {});
  const skills = useQuery({ queryKey: ['skillList'], queryFn: ({ signal }) => skillList(signal) });
  const robots = useQuery({ queryKey: ['robots'], queryFn: ({ signal }) => robotApi.list(signal) });
  const [draft, setDraft] = useState<ChannelAppDto | 'new' | null>(null);
  const [binding, setBinding] = useState<CallbackConfigDto | null>(null);
  const [imr, setImr] = useState<string | null>(null);
  const editing = draft && draft !== 'new' ? draft : null;
  const id = `apps-${channel}`;
  const group = (organ: string | null) => skills.data?.find((s) => s.id === organ)?.name;

  const columns: ColumnsType<ChannelAppDto> = [
    { title: t('channel.accountName'), dataIndex: 'name' },
    {
      title: t('channel.appid'),
      dataIndex: 'platformAppId',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('channel.mode'),
      dataIndex: 'mode',
      width: 120,
      render: (v: string) => t(`channel.mode.${v}`),
    },
    {
      title: t('channel.skillGroup'),
      dataIndex: 'organ',
      render: (v: string | null) =>
        v ? (
          <Tag color="blue">{group(v) ?? v}</Tag>
        ) : (
          <Typography.Text type="secondary">{t('channel.noGroup')}</Typography.Text>
        ),
    },
    {
      title: t('channel.robot'),
      dataIndex: 'robotid',
      render: (v: string | null) => (
        <RobotCell name={v ? (robots.data?.find((r) => r.id === v)?.name ?? v) : ''} />
      ),
    },
    {
      title: t('common.actions'),
      width: 300,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            data-testid={`${id}-binding-${row.name}`}
            onClick={async () => setBinding(await api.scan(row.id))}
          >
            {t('channel.binding')}
          </Button>
          <Button
            type="link"
            size="small"
            data-testid={`${id}-imr-${row.name}`}
            onClick={() => setImr(row.id)}
          >
            {t('channel.imr')}
          </Button>
          <EditLink onClick={() => setDraft(row)} testId={`${id}-edit-${row.name}`} />
          <DeleteLink
            name={row.name}
            onDelete={() => api.remove(row.id)}
            onDone={() => void list.refresh()}
            testId={`${id}-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card
      size="small"
      title={t(`channel.apps.${channel}`)}
      data-testid={`${id}-screen`}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDraft('new')}
          data-testid={`${id}-new`}
        >
          {t(`channel.newApp.${channel}`)}
        </Button>
      }
    >
      <Alert type="info" showIcon message={t('channel.bindingHint')} style={{ marginBottom: 12 }} />
      <DataTable list={list} rowKey="id" columns={columns} testId={`${id}-table`} />
      <AppForm
        open={draft !== null}
        title={editing ? t('channel.editApp') : t(`channel.newApp.${channel}`)}
        editing={editing}
        idLabel={t('channel.appid')}
        withMode
        withFormat={channel === 'weapp'}
        skills={skills.data ?? []}
        robots={robots.data ?? []}
        testId={`${id}-form`}
        onCancel={() => setDraft(null)}
        onSubmit={async (form) => {
          // A cleared robot is sent blank (none); left out, the server would keep the stored one.
          const v = { ...form, robotid: form.robotid ?? '' };
          if (editing) await api.update({ ...v, id: editing.id });
          else await api.save(v);
          setDraft(null);
          void list.refresh();
        }}
      />
      <Modal
        open={binding !== null}
        title={t('channel.binding')}
        footer={null}
        width={720}
        onCancel={() => setBinding(null)}
        destroyOnHidden
      >
        {binding && <CallbackFields cfg={binding} testId={`${id}-binding`} />}
      </Modal>
      <ImrModal owner={imr ? { channel, appid: imr } : null} onClose={() => setImr(null)} />
    </Card>
  );
}
