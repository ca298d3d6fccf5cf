import type { Selectable } from 'kysely';
import type { ChannelCapabilities, MsgType, PlatformChannel } from '@kefu/protocol';
import type {
  ChannelAccountTable,
  ChannelAppTable,
  ChannelUserTable,
} from '../../../platform/db/schema-messaging.js';
import type { TokenCache, TokenSource } from '../tokens.js';
import { WireError } from '../wire.js';
import { PlatformError } from '../platform-http.js';

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
  /** A platform event code to send with (WeChat KF welcome_code: send_msg_on_event). */
  code?: string;
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
  /** A new user's name and unionid (blank when the platform has none), where the platform tells. */
  profile?(ctx: AdapterContext, app: AppRow, extuserid: string): Promise<UserProfile | null>;
}

export interface UserProfile {
  nickname: string;
  unionid: string;
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

/** A push body read by `read`; unreadable or truncated input is answered 400, never thrown. */
export function readable(read: () => Received): Received {
  try {
    return read();
  } catch (err) {
    if (err instanceof WireError) return { ok: false, status: 400, reason: `unreadable: ${err.message}` };
    throw err;
  }
}

/** Channels that send text only refuse anything else for good. */
export function requireText(item: OutboundItem): void {
  if (item.msgtype !== 'text')
    throw new PlatformError('permanent', 'unsupported', item.msgtype, 'channel_unsupported');
}

/** A call with the app's token: on an invalid-token answer, exactly one refresh and one retry. */
export async function withToken<T>(
  ctx: AdapterContext,
  src: TokenSource,
  run: (token: string) => Promise<T>,
): Promise<T> {
  const token = await ctx.tokens.get(src);
  try {
    return await run(token);
  } catch (err) {
    if (!(err instanceof PlatformError) || err.kind !== 'token') throw err;
    await ctx.tokens.invalidate(src.key, token);
    return run(await ctx.tokens.get(src));
  }
}
