import { Button, Card, Input, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Page } from '@kefu/protocol';
import type { User } from '../api';
import { pager, type PageState } from '../../../lib/table';
import { formatTime } from '../../../lib/time';

/** Right side of /setup/section: the users of the selected department. */
export function UserTable(props: {
  title: string;
  data: Page<User> | undefined;
  loading: boolean;
  page: PageState;
  onPage: (p: PageState) => void;
  onSearch: (q: string) => void;
  onCreate: () => void;
  onEdit: (u: User) => void;
  onDelete: (u: User) => void;
}) {
  const { t } = useTranslation();
  const columns: ColumnsType<User> = [
    { title: t('user.username'), dataIndex: 'username', width: 140, ellipsis: true },
    { title: t('user.uname'), dataIndex: 'uname', width: 120, ellipsis: true },
    {
      title: t('user.usertype'),
      dataIndex: 'usertype',
      width: 110,
      render: (v: string) =>
        v === '0' ? <Tag color="gold">{t('user.usertype.0')}</Tag> : <Tag>{t('user.usertype.1')}</Tag>,
    },
    { title: t('user.organ'), dataIndex: 'organname', width: 140, ellipsis: true },
    {
      title: t('user.roles'),
      dataIndex: 'roles',
      render: (roles: User['roles']) => (roles ?? []).map((r) => <Tag key={r.id}>{r.name}</Tag>),
    },
    { title: t('user.mobile'), dataIndex: 'mobile', width: 130 },
    { title: t('user.maxusers'), dataIndex: 'maxusers', width: 100 },
    {
      title: t('user.lastlogin'),
      dataIndex: 'lastlogin',
      width: 170,
      render: (v: User['lastlogin']) => formatTime(v),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      width: 140,
      render: (_, u) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            data-testid={`user-edit-${u.username}`}
            onClick={() => props.onEdit(u)}
          >
            {t('common.edit')}
          </Button>
          <Button
            type="link"
            size="small"
            danger
            data-testid={`user-delete-${u.username}`}
            onClick={() => props.onDelete(u)}
          >
            {t('common.delete')}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Card
      size="small"
      title={props.title}
      style={{ flex: 1, minWidth: 0 }}
      extra={
        <Space>
          <Input.Search
            allowClear
            size="small"
            placeholder={t('section.searchUser')}
            data-testid="user-search"
            onSearch={props.onSearch}
            style={{ width: 200 }}
          />
          <Button
            type="primary"
            size="small"
            icon={<PlusOutlined />}
            data-testid="user-create"
            onClick={props.onCreate}
          >
            {t('user.new')}
          </Button>
        </Space>
      }
    >
      <Table<User>
        data-testid="user-table"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={props.data?.list ?? []}
        loading={props.loading}
        scroll={{ x: 1150 }}
        pagination={pager(props.page, props.data?.total ?? 0, props.onPage, (total) =>
          t('common.total', { total }),
        )}
      />
    </Card>
  );
}
