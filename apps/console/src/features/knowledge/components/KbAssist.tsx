import { useState } from 'react';
import { Button, Space, Tooltip, Typography } from 'antd';
import { BulbOutlined, DownOutlined, UpOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { richTextPlain } from '@kefu/protocol';
import { kbApi } from '../api';

/**
 * Agent assist above the composer: knowledge items for the visitor's latest message; "insert" puts the
 * answer (as a plain chat line, addresses kept) into the draft. Asked again when the visitor writes.
 */
export function KbAssist(props: {
  agentserviceid: string;
  lastVisitorLine: string | null;
  onPick: (text: string) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const q = useQuery({
    queryKey: ['kbAssist', props.agentserviceid, props.lastVisitorLine],
    queryFn: ({ signal }) => kbApi.suggest(props.agentserviceid, signal),
    enabled: !!props.lastVisitorLine,
    staleTime: 60_000,
  });
  const list = q.data?.list ?? [];
  if (!props.lastVisitorLine || !q.data) return null;
  return (
    <div data-testid="kb-assist" style={{ borderTop: '1px solid rgba(5,5,5,0.06)', padding: '4px 12px' }}>
      <Space size={6} style={{ cursor: 'pointer' }} onClick={() => setOpen(!open)}>
        <BulbOutlined />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('assist.title')} {list.length ? `(${list.length})` : ''}
        </Typography.Text>
        {open ? <UpOutlined style={{ fontSize: 10 }} /> : <DownOutlined style={{ fontSize: 10 }} />}
      </Space>
      {open &&
        (list.length === 0 ? (
          <Typography.Text
            type="secondary"
            style={{ fontSize: 12, display: 'block' }}
            data-testid="kb-assist-none"
          >
            {t('assist.none')}
          </Typography.Text>
        ) : (
          list.map((s) => {
            const text = richTextPlain(s.answer, { urls: true });
            return (
              <div
                key={s.id}
                style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '2px 0' }}
                data-testid="kb-assist-item"
              >
                <Tooltip title={text}>
                  <Typography.Text ellipsis style={{ flex: 1, minWidth: 0, fontSize: 13 }}>
                    <b>{s.question}</b> — {text}
                  </Typography.Text>
                </Tooltip>
                <Button
                  size="small"
                  onClick={() => props.onPick(text)}
                  data-testid={`kb-assist-insert-${s.question}`}
                >
                  {t('assist.insert')}
                </Button>
              </div>
            );
          })
        ))}
    </div>
  );
}
