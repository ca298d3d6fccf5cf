import { Empty, List, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { optionalApi, type QuickReply } from '../api';

/** Canned replies from GET /api/quickreply; an endpoint that is not there yet is an empty state. */
export function QuickReplies({ onPick }: { onPick: (text: string) => void }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['dialogue', 'quickreply'],
    queryFn: async (): Promise<QuickReply[]> => {
      try {
        const d = await optionalApi.quickReplies();
        return Array.isArray(d) ? d : (d?.list ?? []);
      } catch {
        return [];
      }
    },
    staleTime: 60_000,
  });
  if (q.isLoading) return <Spin size="small" style={{ margin: 24 }} />;
  const list = q.data ?? [];
  if (!list.length)
    return (
      <Empty
        data-testid="quickreply-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('dialogue.quickReplyEmpty')}
        style={{ width: 260 }}
      />
    );
  return (
    <List
      data-testid="quickreply-list"
      size="small"
      style={{ width: 320, maxHeight: 320, overflowY: 'auto' }}
      dataSource={list}
      renderItem={(r) => (
        <List.Item style={{ cursor: 'pointer' }} onClick={() => onPick(r.content)}>
          <div>
            {r.title && <Typography.Text strong>{r.title}</Typography.Text>}
            <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>
              {r.content}
            </Typography.Paragraph>
          </div>
        </List.Item>
      )}
    />
  );
}
