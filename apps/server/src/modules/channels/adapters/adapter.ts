import type { Selectable } from 'kysely';
import type { ChannelCapabilities, MsgType, PlatformChannel } from '@kefu/protocol';
import type {
  ChannelAccountTable,
  ChannelAppTable,
  ChannelUserTable,
} from '../../../platform/db/schema-messaging.js';
import type { TokenCache } from '../tokens.js';

export type AppRow = Selectable<ChannelAppTable>;
export type AccountRow = Selectable<ChannelAccountTable>;
export type UserRow = Selectable<ChannelUserTable>;

import type { ApiBases } from '../api-bases.js';

export type { ApiBases };

/** What adapters work with. */
export interface AdapterContext {
  tokens: TokenCache;
  bases: ApiBases;
  now(): number;
}

/** A received message or event in our terms, whatever the platform's shape. */
export interface InboundItem {
  /** Unique per app: the platform's message id, or user + time for events without one. */
  key: string;
  /** The account written to (open_kfid, gh_ id, Douyin business open_id; '' = the app's only account). */
  account: string;
  /** The user (external_userid, openid, open_id). */
  user: string;
  unionid?: string;
  time: number;
  /** customer message, platform event, or our own send echoed back (ignored). */
  kind: 'message' | 'event' | 'echo';
  msgtype: MsgType;
  text: string;
  /** Platform media to fetch (media_id, or a URL). */
  media?: { id?: string; url?: string; filename?: string };
  event?: string;
  eventKey?: string;
  /** Douyin: what a reply must name. */
  convid?: string;
  msgid?: string;
}

/** The answer to a push, and what it brought. */
export type Received =
  | { ok: false; status: number; reason: string }
  | {
      ok: true;
      /** Sent back as is (WeChat: '' or 'success'; Douyin: the challenge JSON). */
      body: string;
      contentType?: string;
      items: InboundItem[];
      /** WeChat KF: the push only says "pull" (sync_msg with this token for this account). */
      pull?: { scope: string; token: string };
    };

export interface PushRequest {
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

/** One thing to send: a text, or a stored file. */
export interface OutboundItem {
  msgtype: MsgType;
  text: string;
  file?: { path: string; filename: string; mime: string };
}

export interface SendTarget {
  app: AppRow;
  account: AccountRow;
  user: UserRow;
}

/** One platform, behind one interface. */
export interface ChannelAdapter {
  channel: PlatformChannel;
  caps: ChannelCapabilities;
  /** GET verification: the exact body to answer, or null (refused, never echoed). */
  handshake(app: AppRow, query: Record<string, string>): string | null;
  /** A POST push: signature checked before anything is parsed, then decrypted and read. */
  receive(app: AppRow, req: PushRequest): Received;
  /** Sends one item; `msgid` is our idempotency key. Returns the platform's message id. */
  send(ctx: AdapterContext, to: SendTarget, item: OutboundItem, msgid: string): Promise<string>;
  /** A received file's bytes. */
  download?(ctx: AdapterContext, app: AppRow, media: NonNullable<InboundItem['media']>): Promise<Buffer>;
}

/** Query values as strings (repeated keys: the first). */
export function queryStrings(q: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (q && typeof q === 'object')
    for (const [k, v] of Object.entries(q as Record<string, unknown>)) {
      const s = Array.isArray(v) ? v[0] : v;
      if (typeof s === 'string') out[k] = s;
    }
  return out;
}
