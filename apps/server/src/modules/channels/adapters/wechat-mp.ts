import { readFile } from 'node:fs/promises';
import { CHANNEL_CAPABILITIES, type MsgType } from '@kefu/protocol';
import { sameSignature, wechatSignature } from '../crypto/wechat-crypto.js';
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
  type Received,
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
 * Official accounts (`weixin`) and mini-program customer service (`weapp`): the push carries the message
 * (XML, or JSON for a mini-program set to JSON), plaintext or AES; replies go through
 * message/custom/send with a stable_token.
 */
export function mpTokenSource(ctx: AdapterContext, app: AppRow): TokenSource {
  return {
    key: tokenKey('mp', app.platform_appid, app.secret),
    fetch: async () =>
      tokenOf(
        await wechatCall(`${ctx.bases.wechat}/cgi-bin/stable_token`, {
          json: {
            grant_type: 'client_credential',
            appid: app.platform_appid,
            secret: app.secret,
            force_refresh: false,
          },
        }),
      ),
  };
}

const KINDS: Record<string, MsgType> = {
  text: 'text',
  image: 'image',
  voice: 'voice',
  video: 'video',
  shortvideo: 'video',
};

/** One pushed message or event in our terms. */
export function mpItem(f: Record<string, string>): InboundItem {
  const type = f.MsgType ?? '';
  const time = secs(f.CreateTime ?? '');
  const base = {
    // Messages carry MsgId; events are told apart by user and time (the platform's own advice).
    key: f.MsgId || `${f.FromUserName ?? ''}:${f.CreateTime ?? ''}:${f.Event ?? type}`,
    // An official account or mini-program app has one account.
    account: '',
    user: f.FromUserName ?? '',
    time,
  };
  if (type === 'event')
    return {
      ...base,
      kind: 'event',
      msgtype: 'text',
      text: '',
      event: f.Event ?? '',
      eventKey: f.EventKey ?? f.SessionFrom ?? '',
    };
  const kind = KINDS[type];
  const text =
    type === 'text'
      ? (f.Content ?? '')
      : type === 'voice' && f.Recognition
        ? f.Recognition
        : type === 'location'
          ? `[位置] ${f.Label ?? ''}`.trim()
          : type === 'link'
            ? `[链接] ${f.Title ?? ''} ${f.Url ?? ''}`.trim()
            : type === 'miniprogrampage'
              ? `[小程序] ${f.Title ?? ''} ${f.PagePath ?? ''}`.trim()
              : kind
                ? ''
                : `[${type}]`;
  const item: InboundItem = {
    ...base,
    kind: 'message',
    msgtype: kind && !(type === 'voice' && f.Recognition) ? kind : 'text',
    text,
  };
  if (f.bizmsgmenuid) item.eventKey = f.bizmsgmenuid;
  if (kind && kind !== 'text' && item.msgtype !== 'text') item.media = { id: f.MediaId ?? '', url: f.PicUrl };
  return item;
}

/** A decrypted official-account-shaped body (also Baidu's) as the answer `success` and its item. */
export function mpReceived(text: string): Received {
  return readable(() => {
    const f = readFields(text);
    if (!f.FromUserName || !f.MsgType) return { ok: false, status: 400, reason: 'no FromUserName / MsgType' };
    return { ok: true, body: 'success', items: [mpItem(f)] };
  });
}

function customBody(item: OutboundItem, mediaId: string): Record<string, unknown> {
  if (item.msgtype === 'text') return { msgtype: 'text', text: { content: item.text } };
  const type = MEDIA_TYPE[item.msgtype];
  if (!type || type === 'file')
    throw new PlatformError('permanent', 'unsupported', item.msgtype, 'channel_unsupported');
  return {
    msgtype: type,
    [type]:
      type === 'video' ? { media_id: mediaId, title: item.file?.filename ?? '' } : { media_id: mediaId },
  };
}

export function wechatMp(channel: 'weixin' | 'weapp'): ChannelAdapter {
  return {
    channel,
    caps: CHANNEL_CAPABILITIES[channel],

    // Official accounts and mini-programs send the echostr in plaintext: it is echoed unchanged.
    handshake(app, q) {
      const { signature, timestamp = '', nonce = '', echostr } = q;
      if (!echostr || !sameSignature(signature, wechatSignature(app.token, timestamp, nonce))) return null;
      return echostr;
    },

    receive(app, req): Received {
      const opened = openPush(app, req.query, req.raw, { receiveId: app.platform_appid });
      if (!opened.ok) return opened;
      return mpReceived(opened.text);
    },

    async send(ctx, to, item) {
      const src = mpTokenSource(ctx, to.app);
      let mediaId = '';
      if (item.msgtype !== 'text' && item.file) {
        const file = item.file;
        const data = await readFile(file.path);
        const type = MEDIA_TYPE[item.msgtype] ?? 'image';
        mediaId = await withToken(ctx, src, (t) => uploadMedia(ctx.bases.wechat, t, type, file, data));
      }
      const body = { touser: to.user.extuserid, ...customBody(item, mediaId) };
      const o = await withToken(ctx, src, (t) =>
        wechatCall(`${ctx.bases.wechat}/cgi-bin/message/custom/send?access_token=${encodeURIComponent(t)}`, {
          json: body,
        }),
      );
      return jsonText(o, 'msgid');
    },

    download(ctx, app, media) {
      return withToken(ctx, mpTokenSource(ctx, app), (t) =>
        downloadMedia(ctx.bases.wechat, t, media.id ?? ''),
      );
    },
  };
}
