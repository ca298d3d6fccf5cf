import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loginLogApi, type LoginLog, type LoginLogFilter } from '../api';
import { firstPage, pager, type PageState } from '../../../lib/table';
import { datePresets, type Range } from '../../../lib/dates';
import { formatTime } from '../../../lib/time';

interface Fields {
  username?: string;
  range?: Range | null;
}

const toFilter = (v: Fields): LoginLogFilter => ({
  username: v.username?.trim() || undefined,
  begin: v.range?.[0]?.valueOf(),
  end: v.range?.[1]?.valueOf(),
});

/** /dataAnalysis/loginLog: paged login log with username and date filters, and an xlsx export. */
export default function LoginLogScreen() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const [filter, setFilter] = useState<LoginLogFilter>({});
  const [page, setPage] = useState<PageState>(firstPage);
  const logs = useQuery({
    queryKey: ['loginLogs', filter, page],
    queryFn: ({ signal }) => loginLogApi.page({ ...filter, ...page }, signal),
    placeholderData: keepPreviousData,
  });

  const columns: ColumnsType<LoginLog> = [
    { title: t('loginLog.username'), dataIndex: 'username' },
    { title: t('loginLog.ip'), dataIndex: 'ip' },
    { title: t('loginLog.browser'), dataIndex: 'browser' },
    { title: t('loginLog.os'), dataIndex: 'os' },
    {
      title: t('loginLog.result'),
      dataIndex: 'success',
      render: (v: LoginLog['success']) =>
        v ? (
          <Tag color="success">{t('loginLog.success')}</Tag>
        ) : (
          <Tag color="error">{t('loginLog.failure')}</Tag>
        ),
    },
    {
      title: t('loginLog.reason'),
      dataIndex: 'reason',
      ellipsis: true,
      // The server records an error key (password_wrong…); show its text when it is one.
      render: (v: string | null) => {
        if (!v) return null;
        const text = i18n.exists(`error.${v}`) ? t(`error.${v}`) : v;
        return <Tooltip title={v}>{text}</Tooltip>;
      },
    },
    {
      title: t('loginLog.time'),
      dataIndex: 'createtime',
      render: (v: LoginLog['createtime']) => formatTime(v),
    },
  ];

  return (
    <Card size="small" data-testid="loginlog-screen">
      <Form<Fields>
        form={form}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(v) => {
          setFilter(toFilter(v));
          setPage(firstPage);
        }}
      >
        <Form.Item name="username" label={t('loginLog.username')}>
          <Input allowClear data-testid="loginlog-username" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="range" label={t('loginLog.range')}>
          <DatePicker.RangePicker showTime data-testid="loginlog-range" presets={datePresets(t)} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="loginlog-search">
            {t('common.search')}
          </Button>
          <Button
            data-testid="loginlog-reset"
            onClick={() => {
              form.resetFields();
              setFilter({});
              setPage(firstPage);
            }}
          >
            {t('common.reset')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            data-testid="loginlog-export"
            onClick={() => void loginLogApi.export(toFilter(form.getFieldsValue()))}
          >
            {t('common.export')}
          </Button>
        </Space>
      </Form>
      <Table<LoginLog>
        data-testid="loginlog-table"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={logs.data?.list ?? []}
        loading={logs.isFetching}
        pagination={pager(page, logs.data?.total ?? 0, setPage, (total) => t('common.total', { total }))}
      />
    </Card>
  );
}
