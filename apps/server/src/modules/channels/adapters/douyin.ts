import { CHANNEL_CAPABILITIES } from '@kefu/protocol';
import { douyinSignature, sameSignature } from '../crypto/wechat-crypto.js';
import { jsonText, parseJsonObject } from '../wire.js';
import type { TokenSource } from '../tokens.js';
import { PlatformError, platformFetch, platformJson, type ErrorTable } from '../platform-http.js';
import {
  readable,
  requireText,
  withToken,
  type AdapterContext,
  type AppRow,
  type ChannelAdapter,
  type InboundItem,
  type Received,
} from './adapter.js';

/** Douyin open-platform codes: token refused, worth a retry, or final. */
export const DOUYIN_ERRORS: ErrorTable = {
  token: [2190002, 2190008, 10008],
  transient: [2100004, 2100005, -1],
  permanent: {
    10010: 'channel_config',
    2190004: 'channel_config',
    28003017: 'channel_window_closed',
    28003018: 'channel_quota_exhausted',
  },
};

const header = (h: PushHeaders, name: string): string => {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};
type PushHeaders = Record<string, string | string[] | undefined>;

/** `content` is an object in some event families and a JSON string in others. */
function contentOf(o: Record<string, unknown>): Record<string, unknown> {
  const c = o.content;
  if (typeof c === 'string') return c ? parseJsonObject(c) : {};
  return c && typeof c === 'object' ? (c as Record<string, unknown>) : {};
}

const PLACEHOLDER: Record<string, string> = { image: '[图片]', video: '[视频]', emoji: '[表情]' };

/** A Douyin event in our terms; `msgId` is the Msg-Id header (the dedupe key). */
export function douyinItem(o: Record<string, unknown>, clientKey: string, msgId: string): InboundItem | null {
  const event = jsonText(o, 'event');
  const c = contentOf(o);
  const base = {
    key: msgId || jsonText(c, 'server_message_id') || `${jsonText(o, 'log_id')}`,
    user: jsonText(o, 'from_user_id'),
    account: jsonText(o, 'to_user_id'),
    time: Number(jsonText(c, 'create_time')) || 0,
    convid: jsonText(c, 'conversation_short_id'),
    msgid: jsonText(c, 'server_message_id'),
  };
  if (event === 'im_send_msg') {
    // What the business sent (through us: source is our client_key; or from the Douyin app): not the user's.
    return {
      ...base,
      user: jsonText(o, 'to_user_id'),
      account: jsonText(o, 'from_user_id'),
      kind: 'echo',
      msgtype: 'text',
      text: jsonText(c, 'source') === clientKey ? 'own' : 'app',
    };
  }
  if (event === 'im_receive_msg') {
    const type = jsonText(c, 'message_type');
    const text = type === 'text' ? jsonText(c, 'text') : (PLACEHOLDER[type] ?? `[${type || 'other'}]`);
    // Douyin hands over no media URLs: media arrive as a placeholder text.
    return { ...base, kind: 'message', msgtype: 'text', text };
  }
  if (!event) return null;
  return { ...base, kind: 'event', msgtype: 'text', text: '', event };
}

/**
 * The business account's user token (OAuth): stored in channel_token by the OAuth callback, refreshed
 * with the refresh token when it runs out (10010: the refresh token expired too, the admin must authorise again).
 */
export function douyinTokenSource(ctx: DouyinContext, app: AppRow): TokenSource {
  const key = `douyin:${app.platform_appid}`;
  return {
    key,
    fetch: async () => {
      const stored = await ctx.loadToken(key);
      if (!stored)
        throw new PlatformError('permanent', 'no token', 'Douyin account not authorised', 'channel_config');
      const usable = stored.expires - ctx.now() > 300_000 && ctx.tokens.refused(key) !== stored.token;
      if (usable) return { token: stored.token, expiresIn: (stored.expires - ctx.now()) / 1000 };
      const o = await douyinCall(`${ctx.bases.douyin}/oauth/refresh_token/`, {
        form: { client_key: app.platform_appid, grant_type: 'refresh_token', refresh_token: stored.refresh },
      });
      const fresh = tokenFrom(o, ctx.now());
      await ctx.saveToken(key, fresh);
      return { token: fresh.token, expiresIn: (fresh.expires - ctx.now()) / 1000 };
    },
  };
}

export interface StoredToken {
  token: string;
  expires: number;
  refresh: string;
  refreshExpires: number | null;
  openId?: string;
}

export function tokenFrom(o: Record<string, unknown>, now: number): StoredToken {
  const d = (o.data ?? {}) as Record<string, unknown>;
  const token = jsonText(d, 'access_token');
  if (!token)
    throw new PlatformError('permanent', 'no token', JSON.stringify(o).slice(0, 200), 'channel_config');
  return {
    token,
    expires: now + Number(d.expires_in ?? 0) * 1000,
    refresh: jsonText(d, 'refresh_token'),
    refreshExpires: d.refresh_expires_in ? now + Number(d.refresh_expires_in) * 1000 : null,
    openId: jsonText(d, 'open_id'),
  };
}

/** A Douyin call: the result is in `data.error_code` (or `extra.error_code`). */
export async function douyinCall(
  url: string,
  init: Parameters<typeof platformFetch>[1] = {},
): Promise<Record<string, unknown>> {
  const o = await platformJson(await platformFetch(url, init));
  const d = (o.data ?? {}) as Record<string, unknown>;
  const extra = (o.extra ?? {}) as Record<string, unknown>;
  const code = Number(d.error_code ?? extra.error_code ?? o.err_no ?? 0);
  if (!code) return o;
  const detail = `${code} ${jsonText(d, 'description') || jsonText(extra, 'description') || jsonText(o, 'err_msg')}`;
  if (DOUYIN_ERRORS.token.includes(code)) throw new PlatformError('token', String(code), detail);
  if (DOUYIN_ERRORS.transient.includes(code)) throw new PlatformError('transient', String(code), detail);
  throw new PlatformError(
    'permanent',
    String(code),
    detail,
    DOUYIN_ERRORS.permanent[code] ?? 'channel_send_failed',
  );
}

export type DouyinContext = AdapterContext & {
  loadToken(key: string): Promise<StoredToken | null>;
  saveToken(key: string, t: StoredToken): Promise<void>;
};

export const douyin: ChannelAdapter = {
  channel: 'douyin',
  caps: CHANNEL_CAPABILITIES.douyin,

  // Douyin verifies by a POST event (verify_webhook), not a GET.
  handshake: () => null,

  receive(app, req): Received {
    if (!sameSignature(header(req.headers, 'x-douyin-signature'), douyinSignature(app.secret, req.raw)))
      return { ok: false, status: 403, reason: 'bad X-Douyin-Signature' };
    return readable(() => {
      const o = parseJsonObject(req.raw.toString('utf8'));
      if (jsonText(o, 'event') === 'verify_webhook') {
        const challenge = contentOf(o).challenge;
        return { ok: true, body: JSON.stringify({ challenge }), contentType: 'application/json', items: [] };
      }
      const item = douyinItem(o, app.platform_appid, header(req.headers, 'msg-id'));
      return { ok: true, body: '', items: item ? [item] : [] };
    });
  },

  async send(ctx, to, item) {
    requireText(item);
    const dctx = ctx as DouyinContext;
    const o = await withToken(dctx, douyinTokenSource(dctx, to.app), (t) =>
      douyinCall(`${ctx.bases.douyin}/im/send/msg/?open_id=${encodeURIComponent(to.account.extid)}`, {
        headers: { 'access-token': t },
        json: {
          msg_id: to.user.lastmsgid,
          conversation_id: to.user.convid,
          to_user_id: to.user.extuserid,
          content: { msg_type: 1, text: { text: item.text } },
          scene: 'im_reply_msg',
        },
      }),
    );
    return jsonText((o.data ?? {}) as Record<string, unknown>, 'msg_id');
  },
};
