import { useState } from 'react';
import { Button, Card, Drawer, Empty, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { HistoryOutlined, MessageOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { OnlineVisitorDto, PageViewDto } from '@kefu/protocol';
import { touristApi } from '../api';
import {
  TOURIST_REFRESH_MS,
  canInvite,
  canTalk,
  chatTag,
  formatDuration,
  inviteTag,
  safeHref,
  shortUrl,
} from '../model';
import { firstPage, pager, type PageState } from '../../../lib/table';
import { formatTime } from '../../../lib/time';
import { notify } from '../../../lib/notify';

type Tab = 'online' | 'history';

function PageCell({ url, title }: { url: string; title: string }) {
  const href = safeHref(url);
  return (
    <div style={{ maxWidth: 320 }}>
      <Typography.Text ellipsis={{ tooltip: title || url }} style={{ display: 'block' }}>
        {title || shortUrl(url)}
      </Typography.Text>
      <Typography.Link
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        type="secondary"
        ellipsis
        style={{ fontSize: 12, display: 'block', maxWidth: 320 }}
      >
        {shortUrl(url)}
      </Typography.Link>
    </div>
  );
}

/** /tourist: visitors on the company's pages now (auto-refresh), their trail, invite, history. */
export default function TouristScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>('online');
  const [page, setPage] = useState<PageState>(firstPage);
  const [hisPage, setHisPage] = useState<PageState>(firstPage);
  const [trail, setTrail] = useState<OnlineVisitorDto | null>(null);

  const online = useQuery({
    queryKey: ['online', 'list', page],
    queryFn: ({ signal }) => touristApi.online(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: tab === 'online' ? TOURIST_REFRESH_MS : false,
    enabled: tab === 'online',
  });
  const history = useQuery({
    queryKey: ['online', 'history', hisPage],
    queryFn: ({ signal }) => touristApi.history(hisPage, signal),
    placeholderData: keepPreviousData,
    enabled: tab === 'history',
  });
  const trace = useQuery({
    queryKey: ['online', 'trace', trail?.traceid],
    queryFn: ({ signal }) => touristApi.trace(trail?.traceid ?? '', signal),
    enabled: !!trail,
  });
  const invite = useMutation({
    mutationFn: (traceid: string) => touristApi.invite(traceid),
    onSuccess: () => {
      notify.success(t('tourist.inviteSent'));
      void qc.invalidateQueries({ queryKey: ['online'] });
    },
  });
  const talk = useMutation({
    mutationFn: (traceid: string) => touristApi.talk(traceid),
    onSuccess: () => void navigate('/dialogue'),
  });

  const columns = (history: boolean): ColumnsType<OnlineVisitorDto> => [
    {
      title: t('tourist.page'),
      key: 'page',
      render: (_, v) => <PageCell url={v.url} title={v.title} />,
    },
    {
      title: t('tourist.source'),
      dataIndex: 'source',
      render: (s: string) => s || <Typography.Text type="secondary">{t('tourist.direct')}</Typography.Text>,
    },
    ...(history ? [] : [{ title: t('tourist.access'), dataIndex: 'appname' }]),
    {
      title: `${t('tourist.browser')} / ${t('tourist.os')}`,
      key: 'ua',
      render: (_, v) => (
        <div style={{ lineHeight: 1.3 }}>
          <div>{v.browser || '-'}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {v.os || '-'}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('tourist.ip'), dataIndex: 'ip' },
    {
      title: t('tourist.duration'),
      key: 'duration',
      render: (_, v) => formatDuration(v.duration),
    },
    { title: t('tourist.pages'), dataIndex: 'pages', align: 'right' },
    ...(history
      ? [
          { title: t('tourist.visits'), dataIndex: 'visits', align: 'right' as const },
          {
            title: t('tourist.lastSeen'),
            dataIndex: 'lasttime',
            render: (v: number, r: OnlineVisitorDto) =>
              r.online ? <Tag color="green">{t('tourist.onlineNow')}</Tag> : formatTime(v),
          },
        ]
      : []),
    {
      title: t('tourist.chat'),
      key: 'chat',
      render: (_, v) => {
        const c = chatTag(v);
        const inv = inviteTag(v);
        return (
          <Space size={4} orientation="vertical">
            <Tag color={c.color}>{t(c.key, { agent: c.agent })}</Tag>
            {inv ? <Tag color="blue">{t(inv)}</Tag> : null}
          </Space>
        );
      },
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, v) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<HistoryOutlined />}
            data-testid="tourist-trail"
            onClick={() => setTrail(v)}
          >
            {t('tourist.trail')}
          </Button>
          {canTalk(v) ? (
            <Button
              type="link"
              size="small"
              icon={<MessageOutlined />}
              data-testid="tourist-talk"
              loading={talk.isPending && talk.variables === v.traceid}
              onClick={() => talk.mutate(v.traceid)}
            >
              {t('tourist.talk')}
            </Button>
          ) : (
            <Button
              type="link"
              size="small"
              icon={<SendOutlined />}
              data-testid="tourist-invite"
              disabled={!canInvite(v)}
              loading={invite.isPending && invite.variables === v.traceid}
              onClick={() => invite.mutate(v.traceid)}
            >
              {t('tourist.invite')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const empty = (key: string) => ({
    emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(key)} />,
  });
  const totalText = (total: number) => t('common.total', { total });

  const trailColumns: ColumnsType<PageViewDto> = [
    {
      title: t('tourist.viewTime'),
      dataIndex: 'createtime',
      width: 170,
      render: (v: number) => formatTime(v),
    },
    { title: t('tourist.page'), key: 'page', render: (_, p) => <PageCell url={p.url} title={p.title} /> },
    {
      title: t('tourist.referrer'),
      dataIndex: 'referrer',
      render: (r: string) =>
        r ? (
          <Typography.Text type="secondary" ellipsis={{ tooltip: r }} style={{ maxWidth: 200 }}>
            {shortUrl(r)}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('tourist.direct')}</Typography.Text>
        ),
    },
  ];
  const tv = trace.data?.visitor;

  return (
    <Card size="small" data-testid="tourist-screen">
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Tab)}
        tabBarExtraContent={
          <Space>
            {tab === 'online' ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('tourist.refreshHint')}
              </Typography.Text>
            ) : null}
            <Tooltip title={t('tourist.refresh')}>
              <Button
                size="small"
                icon={<ReloadOutlined />}
                data-testid="tourist-refresh"
                aria-label={t('tourist.refresh')}
                onClick={() => void (tab === 'online' ? online.refetch() : history.refetch())}
              />
            </Tooltip>
          </Space>
        }
        items={[
          {
            key: 'online',
            label: `${t('tourist.tab.online')}${online.data ? ` (${online.data.total})` : ''}`,
            children: (
              <Table<OnlineVisitorDto>
                data-testid="tourist-online-table"
                rowKey="traceid"
                size="middle"
                scroll={{ x: 'max-content' }}
                columns={columns(false)}
                dataSource={online.data?.list ?? []}
                loading={online.isLoading}
                locale={empty('tourist.emptyOnline')}
                pagination={pager(page, online.data?.total ?? 0, setPage, totalText)}
              />
            ),
          },
          {
            key: 'history',
            label: t('tourist.tab.history'),
            children: (
              <Table<OnlineVisitorDto>
                data-testid="tourist-history-table"
                rowKey="traceid"
                size="middle"
                scroll={{ x: 'max-content' }}
                columns={columns(true)}
                dataSource={history.data?.list ?? []}
                loading={history.isFetching}
                locale={empty('tourist.emptyHistory')}
                pagination={pager(hisPage, history.data?.total ?? 0, setHisPage, totalText)}
              />
            ),
          },
        ]}
      />
      <Drawer
        open={!!trail}
        onClose={() => setTrail(null)}
        width={760}
        title={t('tourist.trail')}
        data-testid="tourist-trail-drawer"
        destroyOnHidden
      >
        {tv ? (
          <Space wrap size={[16, 4]} style={{ marginBottom: 16 }}>
            <Tag color={tv.online ? 'green' : 'default'}>
              {t(tv.online ? 'tourist.onlineNow' : 'tourist.offline')}
            </Tag>
            <span>
              {t('tourist.ip')}: {tv.ip}
            </span>
            <span>
              {t('tourist.browser')}: {tv.browser} / {tv.os}
            </span>
            <span>
              {t('tourist.firstSeen')}: {formatTime(tv.firsttime)}
            </span>
            <span>
              {t('tourist.visits')}: {tv.visits}
            </span>
          </Space>
        ) : null}
        <Table<PageViewDto>
          data-testid="tourist-trail-table"
          rowKey="id"
          size="small"
          columns={trailColumns}
          dataSource={trace.data?.list ?? []}
          loading={trace.isFetching}
          locale={empty('tourist.emptyTrail')}
          pagination={false}
        />
      </Drawer>
    </Card>
  );
}
