import { readFile } from 'node:fs/promises';
import { CHANNEL_CAPABILITIES, type MsgType } from '@kefu/protocol';
import { CryptoError, decryptMessage, sameSignature, wechatSignature } from '../crypto/wechat-crypto.js';
import { jsonText } from '../wire.js';
import { tokenKey, type TokenSource } from '../tokens.js';
import {
  readable,
  withToken,
  type AdapterContext,
  type AppRow,
  type ChannelAdapter,
  type InboundItem,
  type OutboundItem,
  type PushRequest,
  type Received,
  type SendTarget,
} from './adapter.js';
import {
  MEDIA_TYPE,
  downloadMedia,
  openPush,
  readFields,
  secs,
  tokenOf,
  uploadMedia,
  wechatCall,
} from './wechat-common.js';
import { PlatformError } from '../platform-http.js';

/**
 * WeChat customer service (微信客服 through WeCom, `wechat`). Pushes carry no content: they say "pull",
 * and messages come from `kf/sync_msg` page by page (kf-sync.ts keeps the cursor). Replies go through
 * `kf/send_msg` with our id as `msgid` (the platform's idempotency key).
 */
export function kfTokenSource(ctx: AdapterContext, app: AppRow): TokenSource {
  return {
    key: tokenKey('wecom', app.platform_appid, app.secret),
    fetch: async () =>
      tokenOf(
        await wechatCall(
          `${ctx.bases.wecom}/cgi-bin/gettoken?corpid=${encodeURIComponent(app.platform_appid)}&corpsecret=${encodeURIComponent(app.secret)}`,
        ),
      ),
  };
}

/** POST to /cgi-bin/kf/<path> with the corp's token. */
export function kfCall(
  ctx: AdapterContext,
  app: AppRow,
  path: string,
  json?: unknown,
): Promise<Record<string, unknown>> {
  return withToken(ctx, kfTokenSource(ctx, app), (t) =>
    wechatCall(`${ctx.bases.wecom}/cgi-bin/kf/${path}?access_token=${encodeURIComponent(t)}`, {
      ...(json === undefined ? {} : { json }),
    }),
  );
}

const KF_KINDS: Record<string, MsgType> = {
  text: 'text',
  image: 'image',
  voice: 'voice',
  video: 'video',
  file: 'file',
};
const PLACEHOLDER: Record<string, string> = {
  location: '[位置]',
  link: '[链接]',
  business_card: '[名片]',
  miniprogram: '[小程序]',
};

/** One sync_msg item in our terms (origin 3 customer, 5 servicer echo, 4 event). */
export function kfItem(m: Record<string, unknown>): InboundItem {
  const msgtype = jsonText(m, 'msgtype');
  const origin = Number(m.origin ?? 3);
  const base = {
    key: jsonText(m, 'msgid'),
    account: jsonText(m, 'open_kfid'),
    user: jsonText(m, 'external_userid'),
    time: secs(jsonText(m, 'send_time')),
  };
  if (msgtype === 'event') {
    const ev = (m.event ?? {}) as Record<string, unknown>;
    return {
      ...base,
      account: jsonText(ev, 'open_kfid') || base.account,
      user: jsonText(ev, 'external_userid') || base.user,
      kind: 'event',
      msgtype: 'text',
      // msg_send_fail: why (fail_type), for the message it names.
      text: jsonText(ev, 'fail_type'),
      event: jsonText(ev, 'event_type'),
      eventKey:
        jsonText(ev, 'welcome_code') ||
        jsonText(ev, 'fail_msgid') ||
        jsonText(ev, 'msg_code') ||
        jsonText(ev, 'recall_msgid'),
    };
  }
  const body = (m[msgtype] ?? {}) as Record<string, unknown>;
  const kind = KF_KINDS[msgtype];
  const item: InboundItem = {
    ...base,
    kind: origin === 5 ? 'echo' : 'message',
    msgtype: kind ?? 'text',
    text:
      msgtype === 'text'
        ? jsonText(body, 'content')
        : kind
          ? ''
          : msgtype === 'location'
            ? `${PLACEHOLDER.location} ${jsonText(body, 'name')} ${jsonText(body, 'address')}`.trim()
            : msgtype === 'link'
              ? `${PLACEHOLDER.link} ${jsonText(body, 'title')} ${jsonText(body, 'url')}`.trim()
              : (PLACEHOLDER[msgtype] ?? `[${msgtype}]`),
  };
  if (msgtype === 'text' && jsonText(body, 'menu_id')) item.eventKey = jsonText(body, 'menu_id');
  if (kind && kind !== 'text') item.media = { id: jsonText(body, 'media_id') };
  return item;
}

export interface SyncPage {
  next: string;
  more: boolean;
  items: InboundItem[];
}

/** One page of kf/sync_msg. */
export async function syncPage(
  ctx: AdapterContext,
  app: AppRow,
  scope: string,
  token: string,
  cursor: string,
): Promise<SyncPage> {
  const o = await kfCall(ctx, app, 'sync_msg', {
    cursor,
    ...(token ? { token } : {}),
    limit: 1000,
    voice_format: 0,
    open_kfid: scope,
  });
  const list = Array.isArray(o.msg_list) ? (o.msg_list as Record<string, unknown>[]) : [];
  return {
    next: jsonText(o, 'next_cursor') || cursor,
    more: Number(o.has_more) === 1,
    items: list.map(kfItem),
  };
}

function kfBody(item: OutboundItem, mediaId: string): Record<string, unknown> {
  if (item.msgtype === 'text') return { msgtype: 'text', text: { content: item.text } };
  const type = MEDIA_TYPE[item.msgtype];
  if (!type) throw new PlatformError('permanent', 'unsupported', item.msgtype, 'channel_unsupported');
  return { msgtype: type, [type]: { media_id: mediaId } };
}

async function mediaIdFor(ctx: AdapterContext, app: AppRow, item: OutboundItem): Promise<string> {
  if (item.msgtype === 'text' || !item.file) return '';
  const file = item.file;
  const data = await readFile(file.path);
  const type = MEDIA_TYPE[item.msgtype] ?? 'file';
  return withToken(ctx, kfTokenSource(ctx, app), (t) => uploadMedia(ctx.bases.wecom, t, type, file, data));
}

export const wechatKf: ChannelAdapter = {
  channel: 'wechat',
  caps: CHANNEL_CAPABILITIES.wechat,

  handshake(app, q) {
    const { msg_signature, timestamp = '', nonce = '', echostr = '' } = q;
    if (!echostr || !sameSignature(msg_signature, wechatSignature(app.token, timestamp, nonce, echostr)))
      return null;
    try {
      return decryptMessage(app.aeskey, echostr, app.platform_appid).message;
    } catch (err) {
      if (err instanceof CryptoError) return null;
      throw err;
    }
  },

  receive(app, req: PushRequest): Received {
    const opened = openPush(app, req.query, req.raw, {
      alwaysEncrypted: true,
      receiveId: app.platform_appid,
    });
    if (!opened.ok) return opened;
    return readable(() => {
      const f = readFields(opened.text);
      if (f.Event !== 'kf_msg_or_event') return { ok: true, body: '', items: [] };
      return { ok: true, body: '', items: [], pull: { scope: f.OpenKfId ?? '', token: f.Token ?? '' } };
    });
  },

  async send(ctx, to: SendTarget, item, msgid) {
    const mediaId = await mediaIdFor(ctx, to.app, item);
    // A welcome on entering the session: the event's code names the user, within its 20 s.
    if (item.code) {
      const w = await kfCall(ctx, to.app, 'send_msg_on_event', {
        code: item.code,
        msgid,
        ...kfBody(item, mediaId),
      });
      return jsonText(w, 'msgid') || msgid;
    }
    const o = await kfCall(ctx, to.app, 'send_msg', {
      touser: to.user.extuserid,
      open_kfid: to.account.extid,
      msgid,
      ...kfBody(item, mediaId),
    });
    return jsonText(o, 'msgid') || msgid;
  },

  download(ctx, app, media) {
    return withToken(ctx, kfTokenSource(ctx, app), (t) => downloadMedia(ctx.bases.wecom, t, media.id ?? ''));
  },

  // customer/batchget: the WeChat nickname, and the unionid when the corp has a bound official account.
  async profile(ctx, app, extuserid) {
    const o = await kfCall(ctx, app, 'customer/batchget', {
      external_userid_list: [extuserid],
      need_enter_session_context: 0,
    });
    const list = Array.isArray(o.customer_list) ? (o.customer_list as Record<string, unknown>[]) : [];
    const c = list.find((x) => jsonText(x, 'external_userid') === extuserid);
    return c ? { nickname: jsonText(c, 'nickname'), unionid: jsonText(c, 'unionid') } : null;
  },
};
