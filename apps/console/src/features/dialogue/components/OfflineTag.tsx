import { Tag, Tooltip } from 'antd';
import { DisconnectOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { formatDuration, useNow } from './useNow';

/** Compact tags beside a chat's name: the name (ellipsis) gives way, not the tag. */
export const COMPACT_TAG = {
  marginInlineEnd: 0,
  flexShrink: 0,
  fontSize: 11,
  lineHeight: '18px',
  paddingInline: 4,
} as const;

/** "Visitor offline · 3m": the visitor's chat window is closed, since `since` (time in the tooltip). */
export function OfflineTag({ since, testid }: { since: number | null | undefined; testid: string }) {
  const { t } = useTranslation();
  const now = useNow();
  const away = since ? formatDuration(Math.max(0, now - since)) : '';
  return (
    <Tooltip
      title={since ? t('dialogue.offlineSince', { time: dayjs(since).format('HH:mm:ss') }) : undefined}
    >
      <Tag icon={<DisconnectOutlined />} color="default" data-testid={testid} style={COMPACT_TAG}>
        {away ? t('dialogue.offlineFor', { time: away }) : t('dialogue.offline')}
      </Tag>
    </Tooltip>
  );
}
