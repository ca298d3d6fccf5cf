import { CHANNEL_CAPABILITIES } from '@kefu/protocol';
import { sameSignature, wechatSignature } from '../crypto/wechat-crypto.js';
import { jsonText } from '../wire.js';
import { tokenKey, type TokenSource } from '../tokens.js';
import { checkErrcode, platformFetch, platformJson, type ErrorTable } from '../platform-http.js';
import {
  requireText,
  withToken,
  type AdapterContext,
  type AppRow,
  type ChannelAdapter,
  type Received,
} from './adapter.js';
import { openPush, tokenOf } from './wechat-common.js';
import { mpReceived } from './wechat-mp.js';

/**
 * `bcp`, read as Baidu smart-program customer service (百度智能小程序客服消息; the spec names the channel
 * without saying what it is, see docs/api.md). Its pushes are WeChat-shaped: a plain signature over
 * (token, timestamp, nonce), verification by echoing `echoStr`, `Encrypt` bodies with the app key as
 * receiver, an answer of `success` within 2 s. Replies: message/custom/send with a client-credentials token.
 */
const BAIDU_ERRORS: ErrorTable = {
  token: [110, 111],
  transient: [-1, 2, 18],
  permanent: { 90001: 'channel_quota_exhausted', 90002: 'channel_config', 30022: 'channel_user_blocked' },
};

export function bcpTokenSource(ctx: AdapterContext, app: AppRow): TokenSource {
  return {
    key: tokenKey('baidu', app.platform_appid, app.secret),
    fetch: async () => {
      const q = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: app.platform_appid,
        client_secret: app.secret,
        scope: 'smartapp_snsapi_base',
      });
      return tokenOf(
        await platformJson(await platformFetch(`${ctx.bases.baidu}/oauth/2.0/token?${q.toString()}`)),
      );
    },
  };
}

const verified = (app: AppRow, q: Record<string, string>) =>
  sameSignature(q.signature, wechatSignature(app.token, q.timestamp ?? '', q.nonce ?? ''));

export const bcp: ChannelAdapter = {
  channel: 'bcp',
  caps: CHANNEL_CAPABILITIES.bcp,

  handshake(app, q) {
    const echo = q.echoStr ?? q.echostr;
    return echo && verified(app, q) ? echo : null;
  },

  receive(app, req): Received {
    // Baidu verifies the URL with a POST carrying echoStr.
    const echo = req.query.echoStr ?? req.query.echostr;
    if (echo)
      return verified(app, req.query)
        ? { ok: true, body: echo, items: [] }
        : { ok: false, status: 403, reason: 'bad signature' };
    const encrypted = req.raw.toString('utf8').includes('Encrypt');
    const opened = encrypted
      ? openPush(
          app,
          {
            ...req.query,
            encrypt_type: 'aes',
            msg_signature: req.query.msg_signature ?? req.query.signature ?? '',
          },
          req.raw,
          {
            receiveId: app.platform_appid,
          },
        )
      : openPush(app, req.query, req.raw, { receiveId: app.platform_appid });
    if (!opened.ok) return opened;
    return mpReceived(opened.text);
  },

  async send(ctx, to, item) {
    requireText(item);
    const o = await withToken(ctx, bcpTokenSource(ctx, to.app), async (t) => {
      const res = await platformJson(
        await platformFetch(
          `${ctx.bases.baidu}/rest/2.0/smartapp/message/custom/send?access_token=${encodeURIComponent(t)}`,
          {
            json: { user_type: 2, open_id: to.user.extuserid, msg_type: 'text', content: item.text },
            timeoutMs: 10_000,
          },
        ),
      );
      checkErrcode(res, BAIDU_ERRORS, 'errno', 'msg');
      checkErrcode(res, BAIDU_ERRORS, 'error_code', 'error_msg');
      return res;
    });
    return jsonText(o, 'msgid');
  },
};
