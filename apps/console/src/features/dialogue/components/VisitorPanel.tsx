import { Fragment, type ReactNode } from 'react';
import { Empty, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { talkApi } from '../api';
import type { ChatEntry } from '../model/chatList';
import { safeHref } from '../../../lib/urls';
import { ConversationRecord } from './ConversationRecord';
import { PageTrail } from './PageTrail';
import { BusinessSystems } from '../../business/components/BusinessSystems';

const join = (...parts: (string | undefined | null)[]) => parts.filter((p) => p && p.trim()).join(' ');

/** Visitor facts of the chat entry's agentservice (channel, browser, OS, region, source, name, mobile). */
export function VisitorPanel({ chat }: { chat: ChatEntry | undefined }) {
  const { t } = useTranslation();
  const data = useQuery({
    queryKey: ['dialogue', 'data', chat?.id],
    queryFn: ({ signal }) => talkApi.data(chat?.id ?? '', signal),
    enabled: !!chat,
    staleTime: 60_000,
  });
  if (!chat) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dialogue.noSelection')} />;
  const a = chat.agentservice;
  const v = data.data?.visitor;
  const s = data.data?.agentService;
  const os = s?.osname || v?.os || '';
  // The page of the website the visitor is on (never the widget's own iframe page).
  const source = s?.url || v?.url || '';
  const href = safeHref(source);
  const dash = (x: string) => x || '—';
  const rows: { key: string; label: string; children: ReactNode }[] = [
    {
      key: 'username',
      label: t('dialogue.info.username'),
      children: dash(a.username || chat.username),
    },
    { key: 'mobile', label: t('dialogue.info.mobile'), children: dash(a.mobile || v?.phone || '') },
    {
      key: 'channel',
      label: t('dialogue.info.channel'),
      children: a.channel ? t(`channel.name.${a.channel}`, { defaultValue: a.channel }) : dash(a.channel),
    },
    {
      key: 'browser',
      label: t('dialogue.info.browser'),
      children: dash(a.browser || v?.browser || ''),
    },
    { key: 'os', label: t('dialogue.info.os'), children: dash(os) },
    {
      key: 'region',
      label: t('dialogue.info.region'),
      children: dash(join(a.country, a.province, a.city) || v?.region || ''),
    },
    {
      key: 'source',
      label: t('dialogue.info.source'),
      // The visitor's browser reports this URL: a link only when it is http(s), otherwise plain text.
      children: href ? (
        <Typography.Link
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          title={source}
          style={{ wordBreak: 'break-all' }}
        >
          {s?.title || source}
        </Typography.Link>
      ) : (
        dash(source)
      ),
    },
    { key: 'ip', label: t('dialogue.info.ip'), children: dash(v?.ip || '') },
  ];
  return (
    <div data-testid="visitor-panel">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('dialogue.visitorInfo')}
      </Typography.Title>
      <dl
        style={{
          display: 'grid',
          gridTemplateColumns: 'max-content minmax(0, 1fr)',
          columnGap: 12,
          rowGap: 8,
          margin: 0,
        }}
      >
        {rows.map((r) => (
          <Fragment key={r.key}>
            <dt style={{ color: '#8c8c8c' }}>{r.label}</dt>
            <dd style={{ margin: 0, wordBreak: 'break-all' }} data-testid={`visitor-${r.key}`}>
              {r.children}
            </dd>
          </Fragment>
        ))}
      </dl>
      <PageTrail pages={data.data?.trail} />
      <ConversationRecord chatId={chat.id} agentserviceid={chat.agentserviceid} data={data.data} />
      <BusinessSystems agentserviceid={chat.agentserviceid} />
    </div>
  );
}
