import { Tag, Typography, theme } from 'antd';
import { EyeInvisibleOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { MessageDto } from '@kefu/protocol';

/** A supervisor's whisper in a transcript: marked as such, only agents ever receive it. */
export function WhisperLine({ m }: { m: MessageDto }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      data-testid="message-whisper"
      style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', margin: '10px 0' }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12, marginBottom: 2 }}>
        <Tag icon={<EyeInvisibleOutlined />} color="gold" style={{ marginInlineEnd: 6 }}>
          {t('monitor.whisperTag')}
        </Tag>
        {m.username} · {dayjs(m.createtime).format('HH:mm:ss')}
      </Typography.Text>
      <div
        data-testid="message-whisper-body"
        style={{
          maxWidth: '78%',
          padding: '8px 12px',
          borderRadius: 8,
          border: `1px dashed ${token.colorWarningBorder}`,
          background: token.colorWarningBg,
          color: token.colorText,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        {m.message}
      </div>
    </div>
  );
}
