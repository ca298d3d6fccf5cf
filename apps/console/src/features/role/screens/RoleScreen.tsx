import { useState } from 'react';
import { Button, Card, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { roleApi, type Role } from '../api';
import { RoleForm, type RoleDraft } from '../components/RoleForm';
import { AuthTree } from '../components/AuthTree';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { notify } from '../../../lib/notify';

/** /setup/role: roles on the left, the selected role's permission tree on the right. */
export default function RoleScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const roles = useQuery({ queryKey: ['roles'], queryFn: ({ signal }) => roleApi.list(signal) });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [draft, setDraft] = useState<RoleDraft | null>(null);
  const list = roles.data ?? [];
  const selected = list.find((r) => r.id === selectedId) ?? null;
  const refresh = () => qc.invalidateQueries({ queryKey: ['roles'] });

  const columns: ColumnsType<Role> = [
    {
      title: t('role.name'),
      dataIndex: 'name',
      render: (v: string) => <span data-testid={`role-row-${v}`}>{v}</span>,
    },
    { title: t('role.usercount'), dataIndex: 'usercount', width: 80 },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 120,
      render: (_, r) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <EditLink testId={`role-edit-${r.name}`} onClick={() => setDraft({ mode: 'edit', role: r })} />
          <DeleteLink
            name={r.name}
            testId={`role-delete-${r.name}`}
            onDelete={() => roleApi.remove(r.id)}
            onDone={() => {
              if (selectedId === r.id) setSelectedId(null);
              void refresh();
            }}
          />
        </Space>
      ),
    },
  ];

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }} data-testid="role-screen">
      <Card
        size="small"
        title={t('role.list')}
        style={{ width: 420, flex: 'none' }}
        extra={
          <Button
            type="primary"
            size="small"
            icon={<PlusOutlined />}
            data-testid="role-create"
            onClick={() => setDraft({ mode: 'create' })}
          >
            {t('role.new')}
          </Button>
        }
      >
        <Table<Role>
          data-testid="role-table"
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={list}
          loading={roles.isFetching}
          pagination={false}
          rowSelection={{
            type: 'radio',
            selectedRowKeys: selectedId ? [selectedId] : [],
            onChange: (keys) => setSelectedId(keys.length ? String(keys[0]) : null),
          }}
          onRow={(r) => ({ onClick: () => setSelectedId(r.id), style: { cursor: 'pointer' } })}
        />
      </Card>
      <AuthTree role={selected} />
      <RoleForm
        draft={draft}
        onClose={() => setDraft(null)}
        onSaved={(r) => {
          setDraft(null);
          notify.success(t('common.done'));
          void refresh().then(() => setSelectedId(r.id));
        }}
      />
    </div>
  );
}
