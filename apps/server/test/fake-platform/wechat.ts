import { buildXml } from '../../src/modules/channels/wire.js';
import { type FakeRequest, type FakeServer, fakeId } from './server.js';
import { deliver, encryptedPush, handshakeUrl, plainPush, type Delivery, type PushTarget } from './push.js';

interface FakeApp {
  appid: string;
  secret: string;
  ghid: string;
  push: PushTarget | null;
  /** per openid: last user message and sends since */
  users: Map<string, { lastIn: number; sent: number }>;
}

export interface MpSent {
  appid: string;
  touser: string;
  msgtype: string;
  body: Record<string, unknown>;
  /** Wall-clock arrival (ms), for the bench's outbound latency. */
  at: number;
}

const err = (errcode: number, errmsg: string) => ({ json: { errcode, errmsg } });

/**
 * Official-account / mini-program API (`/wechat/cgi-bin/…`): stable_token and token, custom/send with
 * the 48 h window and 5 messages after each user message (45015, 45047), media. `userSays` pushes a
 * message as the platform does: XML or JSON, plaintext or safe mode.
 */
export class FakeWechat {
  readonly apps = new Map<string, FakeApp>();
  private tokens = new Map<string, { appid: string; expires: number }>();
  tokenFetches = 0;
  readonly sent: MpSent[] = [];
  readonly media = new Map<string, { data: Buffer; filename: string }>();

  constructor(private readonly fake: FakeServer) {
    const r = (p: string, h: (q: FakeRequest) => ReturnType<Parameters<FakeServer['route']>[2]>) =>
      fake.route('wechat', p, h);
    const token = (appid: string, secret: string) => {
      this.tokenFetches++;
      const a = this.apps.get(appid);
      if (!a || a.secret !== secret) return err(40125, 'invalid appsecret');
      const t = fakeId('mptok');
      this.tokens.set(t, { appid, expires: this.fake.now() + 7200_000 });
      return { json: { access_token: t, expires_in: 7200 } };
    };
    r('/cgi-bin/stable_token', (q) => token(String(q.json?.appid ?? ''), String(q.json?.secret ?? '')));
    r('/cgi-bin/token', (q) => token(q.query.appid ?? '', q.query.secret ?? ''));
    const authed =
      (h: (q: FakeRequest, app: FakeApp) => ReturnType<Parameters<FakeServer['route']>[2]>) =>
      (q: FakeRequest) => {
        const t = this.tokens.get(q.query.access_token ?? '');
        if (!t) return err(40001, 'invalid credential');
        if (t.expires <= this.fake.now()) return err(42001, 'access_token expired');
        return h(q, this.apps.get(t.appid)!);
      };
    r(
      '/cgi-bin/message/custom/send',
      authed((q, app) => {
        const b = q.json ?? {};
        const u = app.users.get(String(b.touser ?? ''));
        if (!u) return err(40003, 'invalid openid');
        if (this.fake.now() > u.lastIn + 48 * 3_600_000) return err(45015, 'response out of time limit');
        if (u.sent >= 5) return err(45047, 'out of response count limit');
        const type = String(b.msgtype ?? '');
        const body = (b[type] ?? {}) as Record<string, unknown>;
        if (type !== 'text' && !this.media.has(String(body.media_id ?? '')))
          return err(40007, 'invalid media_id');
        u.sent++;
        this.sent.push({ appid: app.appid, touser: String(b.touser), msgtype: type, body, at: Date.now() });
        return { json: { errcode: 0, errmsg: 'ok' } };
      }),
    );
    r(
      '/cgi-bin/media/upload',
      authed(async (q) => {
        const form = await new Request('http://fake/', {
          method: 'POST',
          headers: { 'content-type': String(q.headers['content-type'] ?? '') },
          body: new Uint8Array(q.raw),
        }).formData();
        const f = form.get('media');
        if (!(f instanceof File) || !f.name)
          return err(40005, 'multipart field media with a filename required');
        const id = fakeId('mpmedia');
        this.media.set(id, { data: Buffer.from(await f.arrayBuffer()), filename: f.name });
        return { json: { type: q.query.type, media_id: id, created_at: Math.floor(this.fake.now() / 1000) } };
      }),
    );
    r(
      '/cgi-bin/media/get',
      authed((q) => {
        const m = this.media.get(q.query.media_id ?? '');
        if (!m) return err(40007, 'invalid media_id');
        return { status: 200, body: m.data, type: 'image/png' };
      }),
    );
  }

  addApp(): { appid: string; secret: string; ghid: string } {
    const a: FakeApp = {
      appid: fakeId('wx').slice(0, 18),
      secret: fakeId('s'),
      ghid: fakeId('gh_').slice(0, 15),
      push: null,
      users: new Map(),
    };
    this.apps.set(a.appid, a);
    return a;
  }

  target(appid: string, t: PushTarget): void {
    this.apps.get(appid)!.push = t;
  }

  /**
   * A user's message or event pushed to the app. MsgId is 64-bit (as numbers in JSON); `mode` safe:
   * AES envelope with msg_signature; plain: the body as is with the plain signature.
   */
  async userSays(
    appid: string,
    openid: string,
    msg: { text?: string; image?: { data: Buffer; filename: string }; event?: string; eventKey?: string },
    opts: { mode?: 'safe' | 'plain'; format?: 'xml' | 'json'; duplicates?: number; tamper?: boolean } = {},
  ): Promise<{ msgid: string; delivery: Delivery }> {
    const { msgid, request: p } = this.buildPush(appid, openid, msg, opts);
    const delivery = await deliver(
      p.url,
      { method: 'POST', body: p.body, headers: p.headers },
      { duplicates: opts.duplicates },
    );
    return { msgid, delivery };
  }

  /** The push userSays sends, built now (the user's window opens now) to be sent later (the bench). */
  buildPush(
    appid: string,
    openid: string,
    msg: { text?: string; image?: { data: Buffer; filename: string }; event?: string; eventKey?: string },
    opts: { mode?: 'safe' | 'plain'; format?: 'xml' | 'json'; tamper?: boolean } = {},
  ): { msgid: string; request: { url: string; body: string; headers: Record<string, string> } } {
    const app = this.apps.get(appid)!;
    if (!app.push) throw new Error('no push target');
    const now = Math.floor(this.fake.now() / 1000);
    const msgid = `${BigInt(`0x${fakeId('').slice(0, 15)}`) + 5_000_000_000_000_000_000n}`;
    const fields: Record<string, string | number> = {
      ToUserName: app.ghid,
      FromUserName: openid,
      CreateTime: now,
    };
    if (msg.event) {
      fields.MsgType = 'event';
      fields.Event = msg.event;
      if (msg.eventKey) fields.EventKey = msg.eventKey;
    } else if (msg.image) {
      const id = fakeId('mpmedia');
      this.media.set(id, msg.image);
      Object.assign(fields, {
        MsgType: 'image',
        PicUrl: 'http://example.invalid/p.png',
        MediaId: id,
        MsgId: msgid,
      });
    } else Object.assign(fields, { MsgType: 'text', Content: msg.text ?? '', MsgId: msgid });
    let u = app.users.get(openid);
    if (!u) app.users.set(openid, (u = { lastIn: 0, sent: 0 }));
    if (!msg.event) {
      u.lastIn = this.fake.now();
      u.sent = 0;
    } else if (this.fake.now() > u.lastIn + 48 * 3_600_000 || u.sent >= 5) {
      // A follow or a menu click: 3 messages may follow.
      u.lastIn = this.fake.now();
      u.sent = 2;
    }
    const json = opts.format === 'json';
    // JSON pushes carry MsgId as a bare 64-bit number, which JSON.parse would round.
    const inner = json ? JSON.stringify(fields).replace(/"MsgId":"(\d+)"/, '"MsgId":$1') : buildXml(fields);
    const p =
      opts.mode === 'plain'
        ? plainPush(app.push, inner, { nowSec: now, json })
        : encryptedPush(app.push, inner, {
            nowSec: now,
            format: opts.format,
            toUser: app.ghid,
            extraQuery: { encrypt_type: 'aes', openid },
          });
    if (opts.tamper)
      p.url = p.url.replace(/signature=([0-9a-f])/g, (_, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    return { msgid: msg.event ? '' : msgid, request: p };
  }

  async handshake(appid: string, echo: string): Promise<{ status: number; body: string }> {
    const app = this.apps.get(appid)!;
    const res = await fetch(
      handshakeUrl(app.push!, echo, { encrypted: false, nowSec: Math.floor(this.fake.now() / 1000) }),
    );
    return { status: res.status, body: await res.text() };
  }
}
