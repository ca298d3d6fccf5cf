import { useState, type ReactNode } from 'react';
import { Descriptions, Drawer, Empty, List, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContactConversationDto } from '@kefu/protocol';
import { contactsApi } from '../api';
import { TagChips } from '../../tags/components/TagChips';
import { formatTime } from '../../../lib/time';

/** One conversation of the timeline: when, status, agent, channel, topic and the agent's memo. */
function Conversation({ c }: { c: ContactConversationDto }) {
  const { t } = useTranslation();
  return (
    <List.Item data-testid={`contact-conversation-${c.id}`}>
      <Space direction="vertical" size={2} style={{ width: '100%' }}>
        <Space wrap size={8}>
          <Typography.Text strong>{formatTime(c.createtime)}</Typography.Text>
          <Tag>{t(`card.status.${c.status}`, { defaultValue: c.status })}</Tag>
          <Typography.Text type="secondary">
            {t('card.agent')}: {c.agentusername || '—'} · {t('card.channel')}: {c.channel}
          </Typography.Text>
        </Space>
        <Typography.Text type="secondary">
          {t('card.asks', { n: c.userasks })}
          {c.topicname ? ` · ${t('card.topic')}: ${c.topicname}` : ''}
        </Typography.Text>
        {c.summary && (
          <Typography.Text>
            {t('card.summary')}: {c.summary}
          </Typography.Text>
        )}
      </Space>
    </List.Item>
  );
}

/** The contact's details, the visitors it is linked to, and its conversations (every identity's), newest first. */
export function ContactDrawer({
  id,
  onClose,
  extra,
}: {
  id: string | null;
  onClose: () => void;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const view = useQuery({
    queryKey: ['contact', id, page],
    queryFn: ({ signal }) => contactsApi.view(id!, page, signal),
    enabled: !!id,
  });
  const c = view.data?.contact;
  const tl = view.data?.timeline;
  const dash = (v: string | undefined) => v || '—';
  return (
    <Drawer
      open={!!id}
      onClose={onClose}
      width={560}
      title={c ? `${t('card.detail')} · ${c.name}` : t('card.detail')}
      extra={extra}
      afterOpenChange={(open) => !open && setPage(1)}
    >
      {c && (
        <div data-testid="contact-drawer">
          <Descriptions column={2} size="small" bordered data-testid="contact-details">
            <Descriptions.Item label={t('card.name')}>{c.name}</Descriptions.Item>
            <Descriptions.Item label={t('card.gender')}>
              {t(c.gender ? `card.gender.${c.gender}` : 'card.gender.unknown')}
            </Descriptions.Item>
            <Descriptions.Item label={t('card.phone')}>{dash(c.phone)}</Descriptions.Item>
            <Descriptions.Item label={t('card.birthday')}>{dash(c.birthday)}</Descriptions.Item>
            <Descriptions.Item label={t('card.email')} span={2}>
              {dash(c.email.split(',').join(', '))}
            </Descriptions.Item>
            <Descriptions.Item label={t('card.company')}>{dash(c.company)}</Descriptions.Item>
            <Descriptions.Item label={t('card.region')}>{dash(c.region)}</Descriptions.Item>
            <Descriptions.Item label={t('card.address')} span={2}>
              {dash(c.address)}
            </Descriptions.Item>
            <Descriptions.Item label={t('card.tags')} span={2}>
              {c.tags.length ? <TagChips tags={c.tags} /> : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('card.owner')}>{dash(c.ownername)}</Descriptions.Item>
            <Descriptions.Item label={t('card.updated')}>{formatTime(c.updatetime)}</Descriptions.Item>
            <Descriptions.Item label={t('card.memo')} span={2}>
              <span style={{ whiteSpace: 'pre-wrap' }}>{dash(c.memo)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('card.identities')} span={2}>
              {c.identities.length
                ? c.identities.map((i) => (
                    <Tag key={`${i.channel}:${i.userid}`}>
                      {i.channel}: {i.userid}
                    </Tag>
                  ))
                : t('card.noIdentities')}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            {t('card.timeline')}
          </Typography.Title>
          {tl && tl.total > 0 ? (
            <List
              size="small"
              data-testid="contact-timeline"
              dataSource={tl.list}
              renderItem={(x) => <Conversation c={x} />}
              pagination={
                tl.total > tl.size
                  ? { current: page, pageSize: tl.size, total: tl.total, onChange: setPage }
                  : false
              }
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('card.noTimeline')} />
          )}
        </div>
      )}
    </Drawer>
  );
}
