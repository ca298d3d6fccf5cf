import { useEffect } from 'react';
import { Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { isPlatformUser, type DeliveryNotice } from '@kefu/protocol';
import type { AgentSocket } from '../../../lib/socket';
import { windowApi } from '../api';
import { useDeliveries } from '../deliveries';
import { ChannelTag } from './ChannelTag';

/**
 * Above the composer of a messaging-platform chat: the channel, until when the platform lets the agent
 * answer and how many messages are left, what kinds can be sent, and that nothing can be recalled.
 * Follows the socket's `delivery` events (a failure shows on its message, see DeliveryMark).
 */
export function ChannelBar({
  agentserviceid,
  userid,
  socket,
}: {
  agentserviceid: string;
  userid: string;
  socket: AgentSocket | null;
}) {
  const { t } = useTranslation();
  const platform = isPlatformUser(userid);
  const note = useDeliveries((s) => s.note);
  const w = useQuery({
    queryKey: ['channel-window', agentserviceid],
    queryFn: ({ signal }) => windowApi(agentserviceid, signal),
    enabled: platform,
  });
  useEffect(() => {
    for (const d of w.data?.deliveries ?? []) note(d);
  }, [w.data, note]);
  useEffect(() => {
    if (!platform || !socket) return;
    const on = (n: DeliveryNotice) => {
      note(n);
      if (n.agentserviceid === agentserviceid) void w.refetch();
    };
    socket.on('delivery', on);
    return () => {
      socket.off('delivery', on);
    };
  }, [platform, socket, agentserviceid, note, w]);
  if (!platform || !w.data) return null;
  const d = w.data;
  const open = d.closes !== null && d.closes > Date.now();
  return (
    <Space
      size={12}
      wrap
      data-testid="channel-bar"
      style={{ padding: '4px 12px', fontSize: 12, borderTop: '1px solid rgba(5,5,5,0.06)' }}
    >
      <ChannelTag channel={d.channel} testId="channel-bar-tag" />
      {d.capabilities.window && (
        <Typography.Text type={open ? 'secondary' : 'danger'} data-testid="channel-bar-window">
          {d.closes === null
            ? t('channel.bar.noWindow')
            : open
              ? t('channel.bar.window', { time: dayjs(d.closes).format('MM-DD HH:mm') })
              : t('channel.bar.windowClosed')}
        </Typography.Text>
      )}
      {d.remaining !== null && (
        <Typography.Text
          type={d.remaining > 0 ? 'secondary' : 'danger'}
          data-testid="channel-bar-quota"
          data-remaining={d.remaining}
        >
          {t('channel.bar.quota', { n: d.remaining })}
        </Typography.Text>
      )}
      <Typography.Text type="secondary">
        {t('channel.bar.kinds', { kinds: d.capabilities.out.map((k) => t(`channel.kind.${k}`)).join(' / ') })}
      </Typography.Text>
      {!d.capabilities.recall && (
        <Typography.Text type="secondary">{t('channel.bar.noRecall')}</Typography.Text>
      )}
    </Space>
  );
}
