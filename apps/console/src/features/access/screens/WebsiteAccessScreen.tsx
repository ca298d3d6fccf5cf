import { useState } from 'react';
import { Button, Card, Dropdown, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { CodeOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto } from '@kefu/protocol';
import { accessApi } from '../api';
import { ACCESS_LIST_KEY } from '../components/AccessPicker';
import { AccessForm, type AccessFormState } from '../components/AccessForm';
import { EmbedCode } from '../components/EmbedCode';
import { useCan } from '../components/useCan';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { notify } from '../../../lib/notify';
import { formatTime } from '../../../lib/time';

/** Per-access settings screens, with the code each needs. */
const SETTINGS = [
  { path: '/setup/accessCode', code: 'A09_A01_A01', title: 'menu.accessCode' },
  { path: '/setup/robot', code: 'A09_A01_A01', title: 'menu.accessRobot' },
  { path: '/setup/consulting', code: 'A09_A04_A01', title: 'menu.consulting' },
  { path: '/setup/invite', code: 'A09_A04_A02', title: 'menu.invite' },
  { path: '/setup/dialogue', code: 'A09_A04_A03', title: 'menu.dialogueWindow' },
  { path: '/setup/information', code: 'A09_A04_A04', title: 'menu.information' },
  { path: '/setup/faq', code: 'A09_A04_A05', title: 'menu.faq' },
] as const;

/** /setup/websiteAccess: the website access points, their embed code and links to their settings. */
export default function WebsiteAccessScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const can = useCan();
  const list = useQuery({ queryKey: ACCESS_LIST_KEY, queryFn: ({ signal }) => accessApi.list(signal) });
  const [form, setForm] = useState<AccessFormState | null>(null);
  const [codeOf, setCodeOf] = useState<AccessPointDto | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ACCESS_LIST_KEY });
  const settings = SETTINGS.filter((s) => can(s.code));

  const columns: ColumnsType<AccessPointDto> = [
    {
      title: t('access.name'),
      dataIndex: 'name',
      render: (v: string) => <span data-testid={`access-row-${v}`}>{v}</span>,
    },
    { title: t('access.domain'), dataIndex: 'domain', render: (v: string) => v || '—' },
    { title: t('access.organ'), dataIndex: 'organname', render: (v: string) => v || '—' },
    {
      title: t('access.appid'),
      dataIndex: 'id',
      render: (v: string) => (
        <Typography.Text code copyable={{ text: v }}>
          {v.slice(0, 12)}
        </Typography.Text>
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
      key: 'actions',
      width: 300,
      render: (_, ap) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            icon={<CodeOutlined />}
            data-testid={`access-code-${ap.name}`}
            onClick={() => setCodeOf(ap)}
          >
            {t('access.code')}
          </Button>
          {settings.length > 0 && (
            <Dropdown
              menu={{
                items: settings.map((s) => ({ key: s.path, label: t(s.title) })),
                onClick: ({ key }) => void navigate(`${key}?appid=${encodeURIComponent(ap.id)}`),
              }}
            >
              <Button
                type="link"
                size="small"
                icon={<SettingOutlined />}
                data-testid={`access-settings-${ap.name}`}
              >
                {t('access.settings')}
              </Button>
            </Dropdown>
          )}
          <EditLink onClick={() => setForm({ mode: 'edit', ap })} />
          <DeleteLink
            name={ap.name}
            testId={`access-delete-${ap.name}`}
            onDelete={() => accessApi.remove(ap.id)}
            onDone={() => void refresh()}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card
      data-testid="access-screen"
      title={t('access.list')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          data-testid="access-create"
          onClick={() => setForm({ mode: 'create' })}
        >
          {t('access.new')}
        </Button>
      }
    >
      <Table<AccessPointDto>
        data-testid="access-table"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('access.empty') }}
        scroll={{ x: 900 }}
      />
      <AccessForm
        state={form}
        onClose={() => setForm(null)}
        onSaved={(ap) => {
          const created = form?.mode === 'create';
          setForm(null);
          notify.success(t('common.done'));
          void refresh();
          if (created) setCodeOf(ap);
        }}
      />
      <EmbedCode ap={codeOf} onClose={() => setCodeOf(null)} />
    </Card>
  );
}
