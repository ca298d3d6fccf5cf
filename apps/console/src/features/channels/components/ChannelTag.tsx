import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { isPlatformChannel } from '@kefu/protocol';

const COLORS: Record<string, string> = {
  wechat: 'green',
  weixin: 'green',
  weapp: 'cyan',
  douyin: 'magenta',
  bcp: 'blue',
};

/** The channel badge of a chat from a messaging platform (website chats have none). */
export function ChannelTag({ channel, testId }: { channel: string | undefined; testId?: string }) {
  const { t } = useTranslation();
  if (!channel || !isPlatformChannel(channel)) return null;
  return (
    <Tag
      color={COLORS[channel]}
      data-testid={testId ?? 'channel-tag'}
      data-channel={channel}
      style={{ marginInlineEnd: 0 }}
    >
      {t(`channel.name.${channel}`)}
    </Tag>
  );
}
