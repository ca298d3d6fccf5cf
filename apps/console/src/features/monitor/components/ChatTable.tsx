import { Button, Segmented, Space, Tag, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { MonitorChatDto, MonitorService } from '@kefu/protocol';
import { LiveTable } from '../../../components/LiveTable';
import { ConfirmLink } from '../../../components/RowActions';
import { formatDuration } from '../../dialogue/components/useNow';
import { lastmsgSummary, type MediaLabels } from '../../dialogue/model/messages';
import { monitorApi } from '../api';
import { queueWait } from '../model';

/** Status of a chat as the monitor names it: queued, with a human, with the robot. */
export function ChatStatus({ c }: { c: MonitorChatDto }) {
  const { t } = useTranslation();
  if (c.status === 'end') return <Tag>{t('monitor.status.end')}</Tag>;
  if (c.status === 'inqueue') return <Tag color="orange">{t('monitor.status.inqueue')}</Tag>;
  if (c.ai) return <Tag color="purple">{t('monitor.status.ai')}</Tag>;
  return <Tag color="blue">{t('monitor.status.inservice')}</Tag>;
}

/** The live chat list of a tab, longest waiting first; overdue rows stand out; a click opens the chat. */
export function ChatTable(props: {
  rows: MonitorChatDto[];
  now: number;
  height: number;
  service: MonitorService | undefined;
  onService: (s: MonitorService | undefined) => void;
  onOpen: (c: MonitorChatDto) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const labels: MediaLabels = {
    image: t('dialogue.media.image'),
    file: t('dialogue.media.file'),
    voice: t('dialogue.media.voice'),
    video: t('dialogue.media.video'),
    emoticon: t('dialogue.media.emoticon'),
  };
  const columns: ColumnsType<MonitorChatDto> = [
    {
      title: t('monitor.col.visitor'),
      key: 'visitor',
      width: 180,
      render: (_, c) => (
        <Typography.Text strong ellipsis data-testid={`monitor-chat-name-${c.userid}`}>
          {c.agentservice.username || c.username}
        </Typography.Text>
      ),
    },
    {
      title: t('monitor.col.group'),
      key: 'group',
      width: 130,
      render: (_, c) =>
        c.organname || <Typography.Text type="secondary">{t('monitor.noGroup')}</Typography.Text>,
    },
    {
      title: t('monitor.col.agent'),
      key: 'agent',
      width: 130,
      render: (_, c) => c.agentname || t('monitor.noAgent'),
    },
    { title: t('monitor.col.status'), key: 'status', width: 100, render: (_, c) => <ChatStatus c={c} /> },
    {
      title: t('monitor.col.wait'),
      key: 'wait',
      width: 150,
      render: (_, c) => {
        if (c.status === 'inqueue')
          return <span title={t('monitor.col.queueWait')}>{formatDuration(queueWait(c, props.now))}</span>;
        if (!c.waitreply) return <Typography.Text type="secondary">—</Typography.Text>;
        return (
          <span
            data-testid={c.timeout ? 'monitor-chat-timeout' : undefined}
            style={{
              color: c.timeout ? token.colorError : undefined,
              fontWeight: c.timeout ? 600 : undefined,
            }}
          >
            {formatDuration(c.waitreply)}
          </span>
        );
      },
    },
    {
      title: t('monitor.col.lastmsg'),
      key: 'lastmsg',
      width: 260,
      render: (_, c) => (
        <Typography.Text type="secondary" ellipsis>
          {lastmsgSummary(c.lastmsg, labels)}
        </Typography.Text>
      ),
    },
    {
      title: t('monitor.col.actions'),
      key: 'actions',
      width: 150,
      render: (_, c) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button
            type="link"
            size="small"
            data-testid={`monitor-view-${c.userid}`}
            onClick={() => props.onOpen(c)}
          >
            {t('monitor.view')}
          </Button>
          {c.ai === 1 && c.status === 'inservice' && (
            <ConfirmLink
              label={t('monitor.action.toHuman')}
              testId={`monitor-to-human-${c.userid}`}
              confirmText={t('monitor.action.toHumanConfirm', {
                name: c.agentservice.username || c.username,
              })}
              onConfirm={() => monitorApi.aiChange({ agentserviceid: c.agentserviceid, ai: false })}
            />
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <Segmented<string>
        data-testid="monitor-service-filter"
        style={{ marginBottom: 12 }}
        value={props.service ?? 'all'}
        onChange={(v) => props.onService(v === 'all' ? undefined : (v as MonitorService))}
        options={[
          { value: 'all', label: t('monitor.filter.all') },
          { value: 'service', label: t('monitor.filter.service') },
          { value: 'ai', label: t('monitor.filter.ai') },
        ]}
      />
      <LiveTable<MonitorChatDto>
        testId={props.testId}
        rows={props.rows}
        rowKey="agentserviceid"
        height={props.height}
        columns={columns}
        emptyText={t('monitor.empty')}
        onRow={(c) => ({
          onClick: () => props.onOpen(c),
          'data-testid': `monitor-chat-${c.userid}`,
          style: { cursor: 'pointer', background: c.timeout ? token.colorErrorBg : undefined },
        })}
      />
    </>
  );
}
