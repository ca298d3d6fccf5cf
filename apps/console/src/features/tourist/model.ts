import type { OnlineVisitorDto } from '@kefu/protocol';

/** The online list refreshes itself this often. */
export const TOURIST_REFRESH_MS = 15_000;

/** "1h 02m", "3m 05s", "12s" — compact, language-neutral. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${h}h ${pad(m)}m`;
  if (m > 0) return `${m}m ${pad(sec)}s`;
  return `${sec}s`;
}

/** Only http(s) URLs become links (page URLs are reported by visitors' browsers). */
export { safeHref } from '../../lib/urls';

/** Path and query of a URL for a compact cell ("/pricing?plan=pro"); the raw text when unparsable. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

export type ChatTag = { key: string; color: string; agent?: string };

export function chatTag(v: Pick<OnlineVisitorDto, 'chat' | 'agentname'>): ChatTag {
  if (v.chat === 'inservice')
    return v.agentname
      ? { key: 'tourist.chat.with', color: 'green', agent: v.agentname }
      : { key: 'tourist.chat.inservice', color: 'green' };
  if (v.chat === 'inqueue') return { key: 'tourist.chat.inqueue', color: 'orange' };
  if (v.chat === 'end') return { key: 'tourist.chat.end', color: 'blue' };
  return { key: 'tourist.chat.none', color: 'default' };
}

/** The invite marker shown next to a visitor who is not chatting, if any. */
export function inviteTag(v: Pick<OnlineVisitorDto, 'chat' | 'invitestatus'>): string | null {
  if (v.chat === 'inqueue' || v.chat === 'inservice') return null;
  if (v.invitestatus === 'invite' || v.invitestatus === 'sent') return 'tourist.invited';
  if (v.invitestatus === 'refuse') return 'tourist.refused';
  if (v.invitestatus === 'accept') return 'tourist.accepted';
  return null;
}

/** Invite only online visitors who are not chatting; talk only to one in a chat. */
export const canInvite = (v: Pick<OnlineVisitorDto, 'online' | 'chat'>) =>
  v.online && (v.chat === 'none' || v.chat === 'end');
export const canTalk = (v: Pick<OnlineVisitorDto, 'chat'>) => v.chat === 'inservice';
