import { buildXml } from '../../src/modules/channels/wire.js';
import { encryptMessage, wechatSignature } from '../../src/modules/channels/crypto/wechat-crypto.js';
import { type FakeRequest, type FakeServer, fakeId } from './server.js';
import { deliver, type Delivery, type PushTarget } from './push.js';

/**
 * Baidu smart-program customer service (`/baidu/…`, the reading of `bcp`): a client-credentials token,
 * custom/send with 5 messages per 48 h (errno 90001), and pushes: POST verification with echoStr,
 * encrypted bodies signed WeChat-style.
 */
export class FakeBaidu {
  readonly appKey = fakeId('bd').slice(0, 20);
  readonly secret = fakeId('bs');
  push: PushTarget | null = null;
  private tokens = new Set<string>();
  private users = new Map<string, { lastIn: number; sent: number }>();
  readonly sent: Array<Record<string, unknown>> = [];

  constructor(private readonly fake: FakeServer) {
    const r = (p: string, h: (q: FakeRequest) => ReturnType<Parameters<FakeServer['route']>[2]>) =>
      fake.route('baidu', p, h);
    r('/oauth/2.0/token', (q) => {
      if (q.query.client_id !== this.appKey || q.query.client_secret !== this.secret)
        return { json: { error: 'invalid_client' } };
      const t = fakeId('bdt');
      this.tokens.add(t);
      return { json: { access_token: t, expires_in: 2592000 } };
    });
    r('/rest/2.0/smartapp/message/custom/send', (q) => {
      if (!this.tokens.has(q.query.access_token ?? ''))
        return { json: { errno: 111, msg: 'access token invalid' } };
      const b = q.json ?? {};
      const u = this.users.get(String(b.open_id ?? ''));
      if (!u) return { json: { errno: 30022, msg: 'invalid open_id' } };
      if (this.fake.now() > u.lastIn + 48 * 3_600_000 || u.sent >= 5)
        return { json: { errno: 90001, msg: 'over quota' } };
      u.sent++;
      this.sent.push(b);
      return { json: { errno: 0, msg: 'success' } };
    });
  }

  private query(extra: Record<string, string> = {}, enc?: string): string {
    const timestamp = String(Math.floor(this.fake.now() / 1000));
    const nonce = fakeId('').slice(0, 8);
    const q: Record<string, string> = {
      signature: wechatSignature(this.push!.token, timestamp, nonce),
      timestamp,
      nonce,
      ...extra,
    };
    if (enc) q.msg_signature = wechatSignature(this.push!.token, timestamp, nonce, enc);
    return new URLSearchParams(q).toString();
  }

  async verify(echoStr: string): Promise<Delivery> {
    return deliver(`${this.push!.url}?${this.query({ echoStr })}`, { method: 'POST', body: '' });
  }

  async userSays(openId: string, text: string, opts: { tamper?: boolean } = {}): Promise<Delivery> {
    let u = this.users.get(openId);
    if (!u) this.users.set(openId, (u = { lastIn: 0, sent: 0 }));
    u.lastIn = this.fake.now();
    u.sent = 0;
    const inner = buildXml({
      ToUserName: this.appKey,
      FromUserName: openId,
      CreateTime: Math.floor(this.fake.now() / 1000),
      MsgType: 'text',
      Content: text,
      MsgId: fakeId(''),
    });
    const enc = encryptMessage(this.push!.aeskey, inner, this.push!.receiveId);
    let q = this.query({}, enc);
    if (opts.tamper)
      q = q.replace(/msg_signature=([0-9a-f])/, (_, c: string) => `msg_signature=${c === '0' ? '1' : '0'}`);
    return deliver(
      `${this.push!.url}?${q}`,
      {
        method: 'POST',
        body: JSON.stringify({ ToUserName: this.appKey, Encrypt: enc }),
        headers: { 'content-type': 'application/json' },
      },
      { timeoutMs: 2_000 },
    );
  }
}
