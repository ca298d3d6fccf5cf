import { Button, Spin, Tooltip, Typography, theme } from 'antd';
import { ExclamationCircleFilled, FileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { CLIENT_TEXTS, formatFileSize, isPlatformUser, maskPii } from '@kefu/protocol';
import { mediaUrl } from '../api';
import type { ChatMessage } from '../model/messages';
import { WhisperLine } from '../../monitor/components/WhisperLine';
import { usePiiRules } from '../../sensitive/api';
import { DeliveryMark } from '../../channels/components/DeliveryMark';
import { RichText } from '../../../components/RichText';
import { Translation, TranslationText } from '../../translate/components/Translation';

interface Props {
  m: ChatMessage;
  mayWithdraw: boolean;
  onImage: (attachmentid: string) => void;
  onWithdraw: (m: ChatMessage) => void;
  onRetry: (m: ChatMessage) => void;
  /** Show the line's translation under it (useTranslates). */
  translate?: boolean;
}

function Body({ m, onImage }: { m: ChatMessage; onImage: (id: string) => void }) {
  const { t } = useTranslation();
  const pii = usePiiRules();
  if (m.withdrawn) return <i style={{ opacity: 0.7 }}>{t('dialogue.withdrawnMsg')}</i>;
  // The robot's lines of a chat it handed over: its answers' rich text.
  if (m.type === 'robot') return <RichText text={m.message} testId="message-robot" />;
  const id = m.attachmentid;
  switch (m.msgtype) {
    case 'image':
      return id ? (
        <img
          src={mediaUrl('image', id)}
          alt={CLIENT_TEXTS.imageLoadFailed}
          data-testid="message-image"
          onClick={() => onImage(id)}
          style={{ maxWidth: 220, maxHeight: 220, borderRadius: 4, cursor: 'zoom-in', display: 'block' }}
        />
      ) : null;
    case 'voice':
      return id ? (
        <audio controls preload="none" src={mediaUrl('voice', id)} style={{ maxWidth: 260 }} />
      ) : null;
    case 'video':
      return id ? (
        <video controls preload="metadata" src={mediaUrl('video', id)} style={{ maxWidth: 280 }} />
      ) : null;
    case 'file':
      return id ? (
        <a
          href={mediaUrl('file', id)}
          download={m.filename ?? undefined}
          data-testid="message-file"
          // The bubble's own colour: a link-blue name on the agent's blue bubble would not show.
          style={{ color: 'inherit', textDecoration: 'underline' }}
        >
          <FileOutlined /> {m.filename || m.message || t('dialogue.media.file')}
          {m.filesize ? <span style={{ opacity: 0.7 }}> ({formatFileSize(m.filesize)})</span> : null}
        </a>
      ) : null;
    case 'emoticon':
      return <span style={{ fontSize: 28, lineHeight: 1.2 }}>{m.message}</span>;
    default:
      return (
        <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{maskPii(m.message, pii)}</span>
      );
  }
}

/** One line of the conversation: visitor left, agent right, system centred. */
export function MessageItem({ m, mayWithdraw, onImage, onWithdraw, onRetry, translate }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (m.whisper) return <WhisperLine m={m} />;
  if (m.calltype === 'system' || m.type === 'system' || m.msgtype === 'tips') {
    return (
      <div data-testid="message-system" style={{ textAlign: 'center', margin: '8px 0' }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {m.message}
        </Typography.Text>
      </div>
    );
  }
  const out = m.calltype === 'out';
  const platform = isPlatformUser(m.usession);
  const media = m.msgtype === 'image' && !m.withdrawn;
  const bubble = media
    ? { bg: 'transparent', fg: token.colorText }
    : m.withdrawn
      ? { bg: token.colorFillTertiary, fg: token.colorTextSecondary }
      : m.type === 'robot'
        ? { bg: token.colorInfoBg, fg: token.colorText }
        : out
          ? { bg: token.colorPrimary, fg: token.colorTextLightSolid }
          : { bg: token.colorFillSecondary, fg: token.colorText };
  return (
    <div
      data-testid={`message-${out ? 'out' : 'in'}`}
      data-seq={m.seq}
      data-pending={m.pending ?? ''}
      style={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: out ? 'flex-end' : 'flex-start',
        margin: '10px 0',
      }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12, marginBottom: 2 }}>
        {m.username} · {dayjs(m.createtime).format('HH:mm:ss')}
      </Typography.Text>
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 6,
          flexDirection: out ? 'row-reverse' : 'row',
          maxWidth: '78%',
        }}
      >
        <div
          data-testid="message-body"
          style={{
            padding: media ? 0 : '8px 12px',
            borderRadius: 8,
            background: bubble.bg,
            color: bubble.fg,
            border: media ? `1px solid ${token.colorBorderSecondary}` : undefined,
            overflow: 'hidden',
            minWidth: 0,
          }}
        >
          <Body m={m} onImage={onImage} />
        </div>
        {m.pending === 'sending' && <Spin size="small" data-testid="message-sending" />}
        {m.pending === 'failed' && (
          <Tooltip title={t('dialogue.resend')}>
            <Button
              type="text"
              size="small"
              danger
              data-testid="message-retry"
              aria-label={t('dialogue.resend')}
              icon={<ExclamationCircleFilled />}
              onClick={() => onRetry(m)}
            />
          </Tooltip>
        )}
      </div>
      {translate ? (
        <Translation m={m} />
      ) : m.translatemsg && !m.withdrawn ? (
        <TranslationText text={m.translatemsg} />
      ) : null}
      {out && !m.pending && !m.withdrawn && (
        <div style={{ fontSize: 12, display: 'flex', gap: 8 }}>
          {/* A platform tells no read receipts: its line shows the delivery instead. */}
          {platform ? (
            <DeliveryMark id={m.id} />
          ) : (
            <span
              data-testid="message-read"
              style={{ color: m.readstatus ? token.colorTextSecondary : token.colorPrimary }}
            >
              {m.readstatus ? t('dialogue.read') : t('dialogue.unread')}
            </span>
          )}
          {mayWithdraw &&
            (platform ? (
              <Tooltip title={t('channel.withdrawDisabled')}>
                <span
                  data-testid="message-withdraw-disabled"
                  style={{ color: token.colorTextDisabled, cursor: 'not-allowed' }}
                >
                  {t('dialogue.withdraw')}
                </span>
              </Tooltip>
            ) : (
              <a data-testid="message-withdraw" onClick={() => onWithdraw(m)}>
                {t('dialogue.withdraw')}
              </a>
            ))}
        </div>
      )}
    </div>
  );
}
