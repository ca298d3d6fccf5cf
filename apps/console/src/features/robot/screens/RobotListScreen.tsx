import { useState } from 'react';
import { Button, Card, Form, Input, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ApiOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ROBOT_LIMITS, type RobotDto } from '@kefu/protocol';
import { robotApi } from '../api';
import { AiServiceModal } from '../components/AiServiceModal';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink } from '../../../components/RowActions';
import { rules } from '../../../lib/formRules';

/** /setup/customerRobot (A09_A05_A01): the robots, their websites and switches; the AI service settings. */
export default function RobotListScreen() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const robots = useQuery({ queryKey: ['robots'], queryFn: ({ signal }) => robotApi.list(signal) });
  const sites = useQuery({ queryKey: ['robotSites'], queryFn: ({ signal }) => robotApi.sites(signal) });
  const [creating, setCreating] = useState(false);
  const [ai, setAi] = useState(false);
  const siteName = new Map((sites.data ?? []).map((s) => [s.id, s.name]));
  const refresh = () => void qc.invalidateQueries({ queryKey: ['robots'] });
  const open = (id: string) => void navigate(`/setup/setupRobot?id=${id}`);

  const columns: ColumnsType<RobotDto> = [
    {
      title: t('robot.name'),
      dataIndex: 'name',
      render: (v: string, row) => (
        <Typography.Link onClick={() => open(row.id)} data-testid={`robot-row-${v}`}>
          {v}
        </Typography.Link>
      ),
    },
    {
      title: t('robot.sites'),
      dataIndex: 'appids',
      render: (ids: string[]) => (
        <Space size={[4, 4]} wrap>
          {ids.map((id) => (
            <Tag key={id}>{siteName.get(id) ?? id}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('robot.thresholds'),
      width: 170,
      render: (_: unknown, row) => `${row.answerThreshold} / ${row.suggestThreshold}`,
    },
    {
      title: t('robot.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean, row) => (
        <Switch
          size="small"
          checked={v}
          data-testid={`robot-enabled-${row.name}`}
          onChange={async (on) => {
            await robotApi.update(row.id, { enabled: on });
            refresh();
          }}
        />
      ),
    },
    {
      title: t('common.actions'),
      width: 140,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => open(row.id)}
            data-testid={`robot-settings-${row.name}`}
          >
            {t('robot.settings')}
          </Button>
          <DeleteLink
            name={row.name}
            onDelete={() => robotApi.remove(row.id)}
            onDone={refresh}
            testId={`robot-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" data-testid="robots-screen">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Text type="secondary">{t('robot.desc')}</Typography.Text>
        <Space>
          <Button icon={<ApiOutlined />} onClick={() => setAi(true)} data-testid="ai-service-open">
            {t('robot.ai')}
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="robot-new"
          >
            {t('robot.new')}
          </Button>
        </Space>
      </Space>
      <Table<RobotDto>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={robots.data ?? []}
        loading={robots.isFetching}
        pagination={false}
        locale={{ emptyText: t('robot.none') }}
        data-testid="robots-table"
      />
      <FormModal<{ name: string }>
        open={creating}
        title={t('robot.new')}
        testId="robot-create"
        onCancel={() => setCreating(false)}
        onSubmit={async (v) => {
          const made = await robotApi.save({ name: v.name });
          setCreating(false);
          refresh();
          open(made.id);
        }}
      >
        <Form.Item name="name" label={t('robot.name')} rules={[r.required]}>
          <Input maxLength={ROBOT_LIMITS.name} data-testid="robot-create-name" />
        </Form.Item>
      </FormModal>
      <AiServiceModal open={ai} onClose={() => setAi(false)} />
    </Card>
  );
}
