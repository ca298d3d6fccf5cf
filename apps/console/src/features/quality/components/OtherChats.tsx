import { Empty, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/time';
import { MessageList } from '../../dialogue/components/MessageList';
import { qualityApi } from '../api';

/** The visitor's other conversations (read/multiterm), read-only, for the context of an inspection. */
export function OtherChats({ inspectionid }: { inspectionid: string }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['quality', 'multiterm', inspectionid],
    queryFn: ({ signal }) => qualityApi.multiterm(inspectionid, signal),
  });
  if (q.isLoading) return <Spin />;
  if (!q.data?.length) return <Empty description={t('qc.other.none')} />;
  return (
    <div data-testid="qc-other-chats">
      {q.data.map((c) => (
        <div key={c.agentserviceid} style={{ marginBottom: 12 }}>
          <Typography.Text type="secondary">
            {formatTime(c.createtime)} · {c.agentusername}
          </Typography.Text>
          <div style={{ maxHeight: 240, display: 'flex', flexDirection: 'column' }}>
            <MessageList
              sid={c.agentserviceid}
              messages={c.messages}
              hasMore={false}
              me=""
              readOnly
              onLoadOlder={async () => undefined}
            />
          </div>
        </div>
      ))}
    </div>
  );
}
