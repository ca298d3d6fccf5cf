import { useState } from 'react';
import { Button, Drawer, Form, Input, Modal, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LeaveMessageDto, LeaveMsgStatus } from '@kefu/protocol';
import { leavemsgApi } from '../api';
import { useCan } from '../../access/components/useCan';
import { useSession } from '../../../app/session';
import { notify } from '../../../lib/notify';
import { firstPage, pager, type PageState } from '../../../lib/table';
import { formatTime } from '../../../lib/time';
import { userDisplayName } from '@kefu/protocol';

const STATUS_COLOR: Record<LeaveMsgStatus, string> = { new: 'red', allocated: 'blue', done: 'green' };
type Tab = 'mine' | 'all';

/** Leave messages: the agent's own (complete them) and, for supervisors, all of them (assign). */
export function LeaveMsgDrawer(props: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const can = useCan();
  const me = useSession((s) => s.info?.user.id);
  const admin = can('A03');
  const [tab, setTab] = useState<Tab>(admin ? 'all' : 'mine');
  const [page, setPage] = useState<PageState>(firstPage);
  const [status, setStatus] = useState<LeaveMsgStatus | undefined>(undefined);
  const [q, setQ] = useState('');
  const [allocating, setAllocating] = useState<LeaveMessageDto | null>(null);
  const [completing, setCompleting] = useState<LeaveMessageDto | null>(null);
  const [agent, setAgent] = useState<string | undefined>(undefined);
  const [note, setNote] = useState('');
  const query = { ...page, status, q: q || undefined };
  const list = useQuery({
    queryKey: ['leavemsg', tab, query],
    queryFn: ({ signal }) =>
      tab === 'all' ? leavemsgApi.list(query, signal) : leavemsgApi.mylist(query, signal),
    enabled: props.open,
  });
  const users = useQuery({
    queryKey: ['userList'],
    queryFn: ({ signal }) => leavemsgApi.users(signal),
    enabled: !!allocating,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['leavemsg'] });

  const allocate = async () => {
    if (!allocating || !agent) return;
    await leavemsgApi.allocate([allocating.id], agent);
    setAllocating(null);
    notify.success(t('common.done'));
    void refresh();
  };
  const complete = async () => {
    if (!completing) return;
    await leavemsgApi.complete(completing.id, note.trim());
    setCompleting(null);
    notify.success(t('common.done'));
    void refresh();
  };

  const columns: ColumnsType<LeaveMessageDto> = [
    {
      title: t('leavemsg.status'),
      dataIndex: 'status',
      width: 90,
      render: (s: LeaveMsgStatus) => <Tag color={STATUS_COLOR[s]}>{t(`leavemsg.status.${s}`)}</Tag>,
    },
    {
      title: t('leavemsg.name'),
      key: 'who',
      width: 160,
      render: (_, m) => (
        <Space direction="vertical" size={0}>
          <span>{m.name || '—'}</span>
          {m.mobile && <Typography.Text type="secondary">{m.mobile}</Typography.Text>}
          {m.email && <Typography.Text type="secondary">{m.email}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('leavemsg.content'),
      dataIndex: 'content',
      render: (v: string, m) => (
        <div>
          <div style={{ whiteSpace: 'pre-wrap' }} data-testid={`leavemsg-row-${m.id}`}>
            {v}
          </div>
          {m.note && <Typography.Text type="secondary">{`${t('leavemsg.note')}: ${m.note}`}</Typography.Text>}
        </div>
      ),
    },
    { title: t('leavemsg.access'), dataIndex: 'accessname', width: 110 },
    { title: t('leavemsg.agent'), dataIndex: 'agentname', width: 100, render: (v: string) => v || '—' },
    { title: t('leavemsg.time'), dataIndex: 'createtime', width: 160, render: (v: number) => formatTime(v) },
    {
      title: t('common.actions'),
      key: 'a',
      width: 130,
      render: (_, m) =>
        m.status === 'done' ? null : (
          <Space size={0}>
            {admin && (
              <Button
                type="link"
                size="small"
                data-testid={`leavemsg-allocate-${m.id}`}
                onClick={() => {
                  setAgent(m.agentno ?? undefined);
                  setAllocating(m);
                }}
              >
                {t('leavemsg.allocate')}
              </Button>
            )}
            {(m.agentno === me || admin) && (
              <Button
                type="link"
                size="small"
                data-testid={`leavemsg-complete-${m.id}`}
                onClick={() => {
                  setNote('');
                  setCompleting(m);
                }}
              >
                {t('leavemsg.complete')}
              </Button>
            )}
          </Space>
        ),
    },
  ];

  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      title={t('leavemsg.title')}
      width={1000}
      data-testid="leavemsg-drawer"
    >
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k as Tab);
          setPage(firstPage);
        }}
        items={[
          ...(admin ? [{ key: 'all', label: t('leavemsg.all') }] : []),
          { key: 'mine', label: t('leavemsg.mine') },
        ]}
        tabBarExtraContent={
          <Space>
            <Select<LeaveMsgStatus>
              allowClear
              size="small"
              style={{ width: 120 }}
              placeholder={t('leavemsg.status')}
              value={status}
              onChange={(s) => {
                setStatus(s);
                setPage(firstPage);
              }}
              options={(['new', 'allocated', 'done'] as const).map((s) => ({
                value: s,
                label: t(`leavemsg.status.${s}`),
              }))}
            />
            <Input.Search
              size="small"
              allowClear
              placeholder={t('leavemsg.search')}
              style={{ width: 200 }}
              onSearch={(v) => {
                setQ(v.trim());
                setPage(firstPage);
              }}
            />
          </Space>
        }
      />
      <Table<LeaveMessageDto>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{ emptyText: t('leavemsg.empty') }}
        pagination={pager(page, list.data?.total ?? 0, setPage, (n) => t('common.total', { total: n }))}
        scroll={{ x: 900 }}
      />
      <Modal
        open={!!allocating}
        title={t('leavemsg.allocate')}
        onCancel={() => setAllocating(null)}
        onOk={() => void allocate()}
        okButtonProps={{ disabled: !agent, 'data-testid': 'leavemsg-allocate-ok' }}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
      >
        <Form layout="vertical">
          <Form.Item label={t('leavemsg.allocateTo')}>
            <Select
              showSearch
              optionFilterProp="label"
              data-testid="leavemsg-agent"
              value={agent}
              onChange={setAgent}
              options={(users.data ?? []).map((u) => ({ value: u.id, label: userDisplayName(u) }))}
            />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={!!completing}
        title={t('leavemsg.completeTitle')}
        onCancel={() => setCompleting(null)}
        onOk={() => void complete()}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'leavemsg-complete-ok' }}
      >
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{completing?.content}</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={500}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder={t('leavemsg.note')}
        />
      </Modal>
    </Drawer>
  );
}
