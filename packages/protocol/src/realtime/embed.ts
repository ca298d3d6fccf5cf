/**
 * postMessage protocol between the embed loader (on the company's page) and the chat iframe
 * (served by kefu under /visitor/*). Every message carries `kefu: EMBED_TAG`; each side accepts a
 * message only from the expected window and origin (see `isEmbedMessage`).
 */
export const EMBED_TAG = 'kefu-embed-1';

/** Chat iframe → host page. */
export type ChatToHost =
  | { kefu: typeof EMBED_TAG; type: 'ready' }
  /** The visitor pressed the window's close/minimise button. */
  | { kefu: typeof EMBED_TAG; type: 'close' }
  /** Messages the visitor has not seen yet (shown as a badge on the consult button). */
  | { kefu: typeof EMBED_TAG; type: 'unread'; count: number };

/** Host page → chat iframe. */
export type HostToChat =
  /** The window became visible: the chat may mark messages read. */
  | { kefu: typeof EMBED_TAG; type: 'open' }
  | { kefu: typeof EMBED_TAG; type: 'hide' }
  /** The page the visitor is looking at (for the agent's context). */
  | { kefu: typeof EMBED_TAG; type: 'page'; url: string; title: string };

export type EmbedMessage = ChatToHost | HostToChat;

const TYPES: Record<EmbedMessage['type'], true> = {
  ready: true,
  close: true,
  unread: true,
  open: true,
  hide: true,
  page: true,
};

/** True when `data` has the embed shape (tag, known type, field types). Origin is checked separately. */
export function isEmbedMessage(data: unknown): data is EmbedMessage {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  if (d.kefu !== EMBED_TAG || typeof d.type !== 'string' || !(d.type in TYPES)) return false;
  if (d.type === 'unread') return typeof d.count === 'number' && d.count >= 0;
  if (d.type === 'page') return typeof d.url === 'string' && typeof d.title === 'string';
  return true;
}

/** A page-view report sent by the loader (`POST /im/pageview`, sendBeacon, text/plain JSON). */
export interface PageViewReport {
  appid: string;
  /** The loader's own visitor trace id (kept in the host page's localStorage). */
  traceid: string;
  url: string;
  title: string;
  referrer: string;
  /** A heartbeat of the same page (refreshes "last seen", no new page view). */
  hb?: 1;
  /** The page is being left (pagehide): the visitor is not online until its next report. */
  leave?: 1;
}
