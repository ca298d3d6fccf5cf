import { WITHDRAW_WINDOW_MS, type MessageDto } from '@kefu/protocol';
import { formatSize, mediaUrl, type Credential } from '../chat/api.js';
import { t } from '../lib/i18n.js';
import type { Outgoing } from '../lib/timeline.js';
import { FileIcon } from './icons.js';
import { RobotContent } from './Robot.js';

const time = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

type Body = Pick<MessageDto, 'msgtype' | 'message' | 'attachmentid' | 'filename' | 'filesize'>;

/** Message content; all text goes through JSX text nodes (escaped), never innerHTML. */
function Content({ m, credential }: { m: Body; credential: Credential }) {
  if (
    (m.msgtype === 'image' || m.msgtype === 'file' || m.msgtype === 'voice' || m.msgtype === 'video') &&
    !m.attachmentid
  )
    return <span class="kf-text">{m.filename ?? ''}</span>;
  if (m.msgtype === 'image' && m.attachmentid) {
    const src = mediaUrl(location.origin, credential, 'image', m.attachmentid);
    return (
      <a href={src} target="_blank" rel="noopener noreferrer">
        <img class="kf-img" src={src} alt={m.filename ?? t('image')} loading="lazy" />
      </a>
    );
  }
  if (m.attachmentid) {
    const href = mediaUrl(location.origin, credential, 'file', m.attachmentid);
    return (
      <a class="kf-file" href={href} download={m.filename ?? ''} rel="noopener noreferrer">
        <FileIcon />
        <span class="kf-file-name">{m.filename ?? t('file')}</span>
        {m.filesize != null && <span class="kf-file-size">{formatSize(m.filesize)}</span>}
      </a>
    );
  }
  return <span class="kf-text">{m.message}</span>;
}

interface MsgProps {
  m: MessageDto;
  credential: Credential;
  readByAgent: boolean;
  now: number;
  /** False once the conversation is over. */
  open: boolean;
  onWithdraw: (id: string) => void;
  /** Asks a robot suggestion's question (while the robot serves the chat). */
  onAsk?: (question: string) => void;
}

export function Bubble({ m, credential, readByAgent, now, open, onWithdraw, onAsk }: MsgProps) {
  const mine = m.calltype === 'in';
  if (m.withdrawn || m.datastatus === 1)
    return (
      <div class="kf-notice" data-testid="withdrawn">
        {mine ? t('withdrawnMine') : t('withdrawn')}
      </div>
    );
  if (m.calltype === 'system' || m.msgtype === 'tips' || m.type === 'system')
    return <div class="kf-notice">{m.message}</div>;
  const canWithdraw = open && mine && now - m.createtime < WITHDRAW_WINDOW_MS;
  return (
    <div
      class={`kf-row ${mine ? 'kf-mine' : 'kf-theirs'}`}
      data-seq={m.seq}
      data-testid={mine ? 'msg-mine' : 'msg-agent'}
    >
      {!mine && <div class="kf-name">{m.username}</div>}
      <div class={`kf-bubble kf-${m.msgtype}`}>
        {m.type === 'robot' ? (
          <RobotContent m={m} onAsk={onAsk} />
        ) : (
          <Content m={m} credential={credential} />
        )}
      </div>
      <div class="kf-meta">
        <span>{time(m.createtime)}</span>
        {mine && (
          <span class={readByAgent ? 'kf-read' : 'kf-unread'}>{readByAgent ? t('read') : t('unread')}</span>
        )}
        {canWithdraw && (
          <button type="button" class="kf-link" onClick={() => onWithdraw(m.id)}>
            {t('withdraw')}
          </button>
        )}
      </div>
    </div>
  );
}

export function PendingBubble({
  o,
  credential,
  onRetry,
}: {
  o: Outgoing;
  credential: Credential;
  onRetry: (id: string) => void;
}) {
  return (
    <div class="kf-row kf-mine" data-testid="msg-pending" data-state={o.state}>
      <div class={`kf-bubble kf-${o.msgtype} kf-pending`}>
        <Content m={o} credential={credential} />
      </div>
      <div class="kf-meta">
        {o.state === 'failed' ? (
          <button type="button" class="kf-link kf-failed" onClick={() => onRetry(o.clientId)}>
            {t('failed')}
          </button>
        ) : (
          <span class="kf-sending">{t('pending')}</span>
        )}
      </div>
    </div>
  );
}
