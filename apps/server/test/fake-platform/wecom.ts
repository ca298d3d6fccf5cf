import { buildXml } from '../../src/modules/channels/wire.js';
import { type FakeRequest, type FakeServer, fakeId } from './server.js';
import { deliver, encryptedPush, handshakeUrl, type Delivery, type PushTarget } from './push.js';

/** What the fake WeCom knows of one customer and one KF account: session state and the 5-per-48-h quota. */
interface Session {
  state: number;
  lastIn: number;
  sent: number;
}

export interface KfSent {
  msgid: string;
  touser: string;
  open_kfid: string;
  msgtype: string;
  body: Record<string, unknown>;
  at: number;
}

const TTL = 7200;
const err = (errcode: number, errmsg: string) => ({ json: { errcode, errmsg } });

/**
 * WeCom's customer-service API (`/wecom/cgi-bin/…`): tokens with a 7200 s lifetime on the fake clock,
 * KF accounts, an ordered message log read by sync_msg with opaque cursors, send_msg with session states,
 * the quota and msgid idempotency, media. `customerSays` plays a customer and pushes the app.
 */
export class FakeWecom {
  readonly corpid = fakeId('ww');
  readonly secret = fakeId('sec');
  readonly accounts = new Map<string, { name: string; media_id: string }>();
  /** What customer/batchget tells of a customer (default: a name from the id, no unionid). */
  readonly customers = new Map<string, { nickname: string; unionid: string }>();
  readonly welcomeCodes = new Map<string, { kfid: string; user: string; issued: number; used: boolean }>();
  private tokens = new Map<string, number>();
  private current: { token: string; expires: number } | null = null;
  tokenFetches = 0;
  /** Every customer message or event, in order; sync_msg reads it by index. */
  private log: Array<Record<string, unknown>> = [];
  private eventTokens = new Map<string, number>();
  readonly sessions = new Map<string, Session>();
  readonly sent: KfSent[] = [];
  private sentIds = new Set<string>();
  readonly media = new Map<string, { data: Buffer; filename: string; type: string }>();
  /** sync_msg page size (small in tests, to exercise paging) and empty pages to insert with has_more=1. */
  pageSize = 1000;
  emptyPages = 0;
  /** Numeric msgids written as bare JSON numbers (as some pages do), to prove they are read exactly. */
  numericIds = false;
  push: PushTarget | null = null;

  constructor(private readonly fake: FakeServer) {
    const r = (p: string, h: (q: FakeRequest) => ReturnType<Parameters<FakeServer['route']>[2]>) =>
      fake.route('wecom', p, h);
    r('/cgi-bin/gettoken', (q) => {
      this.tokenFetches++;
      if (q.query.corpid !== this.corpid || q.query.corpsecret !== this.secret)
        return err(40013, 'invalid corpid or secret');
      if (!this.current || this.current.expires <= this.fake.now()) {
        this.current = { token: fakeId('tok'), expires: this.fake.now() + TTL * 1000 };
        this.tokens.set(this.current.token, this.current.expires);
      }
      return {
        json: {
          errcode: 0,
          errmsg: 'ok',
          access_token: this.current.token,
          expires_in: Math.round((this.current.expires - this.fake.now()) / 1000),
        },
      };
    });
    const authed =
      (h: (q: FakeRequest) => ReturnType<Parameters<FakeServer['route']>[2]>) => (q: FakeRequest) => {
        const exp = this.tokens.get(q.query.access_token ?? '');
        if (exp === undefined) return err(40014, 'invalid access_token');
        if (exp <= this.fake.now()) return err(42001, 'access_token expired');
        return h(q);
      };
    r(
      '/cgi-bin/kf/sync_msg',
      authed((q) => this.syncMsg(q.json ?? {})),
    );
    r(
      '/cgi-bin/kf/send_msg',
      authed((q) => this.sendMsg(q.json ?? {})),
    );
    r(
      '/cgi-bin/kf/send_msg_on_event',
      authed((q) => this.sendOnEvent(q.json ?? {})),
    );
    r(
      '/cgi-bin/kf/service_state/get',
      authed((q) => {
        const s = this.session(String(q.json?.open_kfid), String(q.json?.external_userid));
        return { json: { errcode: 0, errmsg: 'ok', service_state: s.state, servicer_userid: '' } };
      }),
    );
    r(
      '/cgi-bin/kf/service_state/trans',
      authed((q) => {
        const s = this.session(String(q.json?.open_kfid), String(q.json?.external_userid));
        s.state = Number(q.json?.service_state ?? s.state);
        return { json: { errcode: 0, errmsg: 'ok', msg_code: fakeId('code') } };
      }),
    );
    r(
      '/cgi-bin/kf/account/list',
      authed((q) => {
        const offset = Number(q.json?.offset ?? 0);
        const limit = Number(q.json?.limit ?? 100);
        const all = [...this.accounts].map(([open_kfid, a]) => ({
          open_kfid,
          name: a.name,
          avatar: '',
          manage_privilege: true,
        }));
        return { json: { errcode: 0, errmsg: 'ok', account_list: all.slice(offset, offset + limit) } };
      }),
    );
    r(
      '/cgi-bin/kf/account/add',
      authed((q) => {
        const id = fakeId('wk');
        this.accounts.set(id, { name: String(q.json?.name ?? ''), media_id: String(q.json?.media_id ?? '') });
        return { json: { errcode: 0, errmsg: 'ok', open_kfid: id } };
      }),
    );
    r(
      '/cgi-bin/kf/account/update',
      authed((q) => {
        const a = this.accounts.get(String(q.json?.open_kfid));
        if (!a) return err(95004, 'open_kfid not exist');
        if (q.json?.name) a.name = String(q.json.name);
        return { json: { errcode: 0, errmsg: 'ok' } };
      }),
    );
    r(
      '/cgi-bin/kf/account/del',
      authed((q) => {
        if (!this.accounts.delete(String(q.json?.open_kfid))) return err(95004, 'open_kfid not exist');
        return { json: { errcode: 0, errmsg: 'ok' } };
      }),
    );
    r(
      '/cgi-bin/kf/add_contact_way',
      authed((q) => {
        if (!this.accounts.has(String(q.json?.open_kfid))) return err(95004, 'open_kfid not exist');
        return {
          json: {
            errcode: 0,
            errmsg: 'ok',
            url: `https://work.weixin.qq.com/kfid/${String(q.json?.open_kfid)}?enc_scene=${String(q.json?.scene ?? '')}`,
          },
        };
      }),
    );
    r(
      '/cgi-bin/kf/customer/batchget',
      authed((q) => {
        const ids = (q.json?.external_userid_list as string[] | undefined) ?? [];
        return {
          json: {
            errcode: 0,
            errmsg: 'ok',
            customer_list: ids.map((id) => ({
              external_userid: id,
              nickname: this.customers.get(id)?.nickname ?? `客户${id.slice(-4)}`,
              avatar: '',
              gender: 0,
              unionid: this.customers.get(id)?.unionid ?? '',
            })),
            invalid_external_userid: [],
          },
        };
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
        const data = Buffer.from(await f.arrayBuffer());
        if (data.length <= 5) return err(40005, 'file too small');
        const id = fakeId('media');
        this.media.set(id, { data, filename: f.name, type: q.query.type ?? 'file' });
        return {
          json: {
            errcode: 0,
            errmsg: 'ok',
            type: q.query.type,
            media_id: id,
            created_at: String(Math.floor(this.fake.now() / 1000)),
          },
        };
      }),
    );
    r(
      '/cgi-bin/media/get',
      authed((q) => {
        const m = this.media.get(q.query.media_id ?? '');
        if (!m) return err(40007, 'invalid media_id');
        return { status: 200, body: m.data, type: 'application/octet-stream' };
      }),
    );
  }

  addAccount(name: string): string {
    const id = fakeId('wk');
    this.accounts.set(id, { name, media_id: '' });
    return id;
  }

  session(kfid: string, user: string): Session {
    const key = `${kfid}|${user}`;
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = { state: 0, lastIn: 0, sent: 0 }));
    return s;
  }

  private syncMsg(b: Record<string, unknown>) {
    if (b.token && !(this.eventTokens.get(String(b.token)) ?? 0)) return err(95007, 'invalid msg token');
    if (b.token && (this.eventTokens.get(String(b.token)) ?? 0) < this.fake.now())
      return err(95007, 'msg token expired');
    const kfid = String(b.open_kfid ?? '');
    const start = b.cursor ? Number(Buffer.from(String(b.cursor), 'base64url').toString()) : 0;
    if (Number.isNaN(start)) return err(40058, 'invalid cursor');
    if (this.emptyPages > 0) {
      this.emptyPages--;
      return {
        json: { errcode: 0, errmsg: 'ok', next_cursor: String(b.cursor ?? ''), has_more: 1, msg_list: [] },
      };
    }
    // The log is shared by every account; the cursor indexes it and the page keeps this account's items.
    const limit = Math.min(Number(b.limit ?? 1000), this.pageSize);
    const list: Record<string, unknown>[] = [];
    let i = start;
    while (i < this.log.length && list.length < limit) {
      const m = this.log[i++]!;
      const owner = m.msgtype === 'event' ? (m.event as Record<string, unknown>).open_kfid : m.open_kfid;
      if (owner === kfid) list.push(m);
    }
    const more = this.log
      .slice(i)
      .some(
        (m) =>
          (m.msgtype === 'event' ? (m.event as Record<string, unknown>).open_kfid : m.open_kfid) === kfid,
      );
    const answer = {
      errcode: 0,
      errmsg: 'ok',
      next_cursor: Buffer.from(String(i)).toString('base64url'),
      has_more: more ? 1 : 0,
      msg_list: list,
    };
    if (!this.numericIds) return { json: answer };
    const text = JSON.stringify(answer).replace(/"msgid":"(\d+)"/g, '"msgid":$1');
    return { status: 200, type: 'application/json', body: text };
  }

  /** A welcome with an enter_session code: valid 20 s, once; the 5-message quota does not apply. */
  private sendOnEvent(b: Record<string, unknown>) {
    const c = this.welcomeCodes.get(String(b.code ?? ''));
    if (!c || c.used || this.fake.now() > c.issued + 20_000) return err(95016, 'invalid or expired code');
    c.used = true;
    const type = String(b.msgtype ?? '');
    const id = typeof b.msgid === 'string' && b.msgid ? b.msgid : fakeId('m');
    this.sent.push({
      msgid: id,
      touser: c.user,
      open_kfid: c.kfid,
      msgtype: type,
      body: { ...((b[type] ?? {}) as Record<string, unknown>), code: b.code },
      at: this.fake.now(),
    });
    return { json: { errcode: 0, errmsg: 'ok', msgid: id } };
  }

  private sendMsg(b: Record<string, unknown>) {
    const kfid = String(b.open_kfid ?? '');
    if (!this.accounts.has(kfid)) return err(95004, 'open_kfid not exist');
    const msgid = typeof b.msgid === 'string' ? b.msgid : '';
    if (msgid && !/^[0-9a-zA-Z_-]{1,32}$/.test(msgid)) return err(40058, 'invalid msgid');
    if (msgid && this.sentIds.has(msgid)) return { json: { errcode: 0, errmsg: 'ok', msgid } };
    const s = this.session(kfid, String(b.touser ?? ''));
    if (s.state !== 0 && s.state !== 1) return err(95018, 'send msg session status invalid');
    if (!s.lastIn || this.fake.now() > s.lastIn + 48 * 3_600_000) return err(95002, 'send msg time limit');
    if (s.sent >= 5) return err(95001, 'send msg count limit');
    const type = String(b.msgtype ?? '');
    const body = (b[type] ?? {}) as Record<string, unknown>;
    if (type === 'text' && Buffer.byteLength(String(body.content ?? '')) > 2048)
      return err(40058, 'content too long');
    if (type !== 'text' && !this.media.has(String(body.media_id ?? '')))
      return err(40007, 'invalid media_id');
    s.sent++;
    const id = msgid || fakeId('m');
    this.sentIds.add(id);
    this.sent.push({
      msgid: id,
      touser: String(b.touser),
      open_kfid: kfid,
      msgtype: type,
      body,
      at: this.fake.now(),
    });
    return { json: { errcode: 0, errmsg: 'ok', msgid: id } };
  }

  /** A customer message (or event) enters the log; the app is pushed unless `push: false`. */
  async customerSays(
    kfid: string,
    user: string,
    msg: {
      msgtype?: string;
      text?: string;
      media?: { data: Buffer; filename: string };
      event?: Record<string, unknown>;
    },
    opts: { push?: boolean; duplicates?: number; origin?: number } = {},
  ): Promise<{ msgid: string; delivery: Delivery | null }> {
    const msgtype = msg.event ? 'event' : (msg.msgtype ?? 'text');
    const msgid = `${BigInt.asUintN(64, BigInt(`0x${fakeId('').slice(0, 15)}`)) + 4_000_000_000_000_000_000n}`;
    const item: Record<string, unknown> = {
      msgid,
      open_kfid: kfid,
      external_userid: user,
      send_time: Math.floor(this.fake.now() / 1000),
      origin: opts.origin ?? (msg.event ? 4 : 3),
      msgtype,
    };
    if (msg.event) {
      item.event = { open_kfid: kfid, external_userid: user, ...msg.event };
      // Entering a session (no session in the last 48 h) comes with a welcome code.
      if (msg.event.event_type === 'enter_session' && !msg.event.welcome_code) {
        const code = fakeId('wc');
        this.welcomeCodes.set(code, { kfid, user, issued: this.fake.now(), used: false });
        (item.event as Record<string, unknown>).welcome_code = code;
      }
    } else if (msgtype === 'text') item.text = { content: msg.text ?? '' };
    else {
      const id = fakeId('media');
      this.media.set(id, { data: msg.media!.data, filename: msg.media!.filename, type: msgtype });
      item[msgtype] = { media_id: id };
    }
    this.log.push(item);
    if (!msg.event && (opts.origin ?? 3) === 3) {
      const s = this.session(kfid, user);
      s.lastIn = this.fake.now();
      s.sent = 0;
      if (s.state === 4) s.state = 0;
    }
    const delivery = opts.push === false ? null : await this.pushEvent(kfid, opts.duplicates);
    return { msgid, delivery };
  }

  /** The kf_msg_or_event push, as WeCom sends it (encrypted XML, CorpID as receiveId). */
  async pushEvent(
    kfid: string,
    duplicates = 0,
    tamper?: (p: { url: string; body: string }) => void,
  ): Promise<Delivery> {
    if (!this.push) throw new Error('no push target');
    const token = fakeId('evt');
    this.eventTokens.set(token, this.fake.now() + 10 * 60_000);
    const inner = buildXml({
      ToUserName: this.corpid,
      CreateTime: Math.floor(this.fake.now() / 1000),
      MsgType: 'event',
      Event: 'kf_msg_or_event',
      Token: token,
      OpenKfId: kfid,
    });
    const p = encryptedPush(this.push, inner, { nowSec: Math.floor(this.fake.now() / 1000) });
    tamper?.(p);
    return deliver(p.url, { method: 'POST', body: p.body, headers: p.headers }, { duplicates });
  }

  /** The GET handshake of saving the callback URL; resolves to the status and the body answered. */
  async handshake(echo: string, tamper = false): Promise<{ status: number; body: string }> {
    if (!this.push) throw new Error('no push target');
    let url = handshakeUrl(this.push, echo, { encrypted: true, nowSec: Math.floor(this.fake.now() / 1000) });
    // A different first digit (replacing it by a fixed one left 1 in 16 signatures intact).
    if (tamper)
      url = url.replace(
        /msg_signature=([0-9a-f])/,
        (_, c: string) => `msg_signature=${c === '0' ? '1' : '0'}`,
      );
    const res = await fetch(url);
    return { status: res.status, body: await res.text() };
  }
}
