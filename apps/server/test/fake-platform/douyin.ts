import { douyinSignature } from '../../src/modules/channels/crypto/wechat-crypto.js';
import { type FakeRequest, type FakeServer, fakeId } from './server.js';
import { deliver, type Delivery } from './push.js';

export interface DySent {
  openId: string;
  body: Record<string, unknown>;
}

const fail = (error_code: number, description: string) => ({
  json: { data: { error_code, description }, extra: { error_code, description } },
});

/**
 * Douyin's open platform (`/douyin/…`): OAuth code → user token (15 days) with a refresh token, the IM
 * reply call (which must name a received message and its conversation), and a driver that pushes signed
 * events (X-Douyin-Signature, Msg-Id) to the app's webhook.
 */
export class FakeDouyin {
  readonly clientKey = fakeId('ck');
  readonly clientSecret = fakeId('cs');
  readonly businessOpenId = fakeId('_000');
  webhook = '';
  private tokens = new Map<string, number>();
  private refreshTokens = new Map<string, number>();
  private messages = new Map<string, { conv: string; user: string; at: number }>();
  readonly sent: DySent[] = [];
  refreshes = 0;

  constructor(private readonly fake: FakeServer) {
    const r = (p: string, h: (q: FakeRequest) => ReturnType<Parameters<FakeServer['route']>[2]>) =>
      fake.route('douyin', p, h);
    const issue = () => {
      const access = fakeId('act');
      const refresh = fakeId('rft');
      this.tokens.set(access, this.fake.now() + 1_296_000_000);
      this.refreshTokens.set(refresh, this.fake.now() + 2_592_000_000);
      return {
        json: {
          data: {
            access_token: access,
            expires_in: 1296000,
            refresh_token: refresh,
            refresh_expires_in: 2592000,
            open_id: this.businessOpenId,
            scope: 'im.direct_message',
            error_code: 0,
            description: '',
          },
          message: 'success',
        },
      };
    };
    r('/oauth/access_token/', (q) => {
      if (
        q.json?.client_key !== this.clientKey ||
        q.json?.client_secret !== this.clientSecret ||
        !q.json?.code
      )
        return fail(10002, 'bad client or code');
      return issue();
    });
    r('/oauth/refresh_token/', (q) => {
      this.refreshes++;
      const exp = this.refreshTokens.get(String(q.json?.refresh_token ?? ''));
      if (exp === undefined || exp <= this.fake.now()) return fail(10010, 'refresh_token expired');
      return issue();
    });
    r('/im/send/msg/', (q) => {
      const exp = this.tokens.get(String(q.headers['access-token'] ?? ''));
      if (exp === undefined) return fail(2190002, 'access_token invalid');
      if (exp <= this.fake.now()) return fail(2190008, 'access_token expired');
      const b = q.json ?? {};
      const m = this.messages.get(String(b.msg_id ?? ''));
      if (!m || m.conv !== b.conversation_id || m.user !== b.to_user_id)
        return fail(2190004, 'msg_id / conversation_id do not match a received message');
      if (this.fake.now() > m.at + 24 * 3_600_000) return fail(28003017, 'reply window closed');
      this.sent.push({ openId: q.query.open_id ?? '', body: b });
      return {
        json: { data: { error_code: 0, description: '', msg_id: fakeId('dymsg') }, extra: { error_code: 0 } },
      };
    });
  }

  private async post(
    body: string,
    msgId: string,
    opts: { tamper?: boolean; duplicates?: number } = {},
  ): Promise<Delivery> {
    const sig = douyinSignature(this.clientSecret, body);
    return deliver(
      this.webhook,
      {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-douyin-signature': opts.tamper ? sig.replace(/^./, (c) => (c === '0' ? '1' : '0')) : sig,
          'msg-id': msgId,
        },
      },
      { duplicates: opts.duplicates },
    );
  }

  /** Saving the webhook URL: the verify_webhook challenge. */
  verify(challenge: number, opts: { tamper?: boolean } = {}): Promise<Delivery> {
    return this.post(
      JSON.stringify({ event: 'verify_webhook', client_key: this.clientKey, content: { challenge } }),
      fakeId('mid'),
      opts,
    );
  }

  /**
   * A user's direct message (im_receive_msg); content as an object or, with `stringContent`, a JSON string;
   * `messageType` other than text (image, video, emoji) carries no media the business can fetch.
   */
  async userSays(
    openId: string,
    text: string,
    opts: { duplicates?: number; stringContent?: boolean; tamper?: boolean; messageType?: string } = {},
  ): Promise<{ msgId: string; delivery: Delivery }> {
    const conv = `${BigInt(`0x${fakeId('').slice(0, 15)}`) + 7_000_000_000_000_000_000n}`;
    const server = `${BigInt(`0x${fakeId('').slice(0, 15)}`) + 6_000_000_000_000_000_000n}`;
    this.messages.set(server, { conv, user: openId, at: this.fake.now() });
    const content = {
      conversation_short_id: conv,
      server_message_id: server,
      conversation_type: 1,
      create_time: this.fake.now(),
      message_type: opts.messageType ?? 'text',
      text,
      source: '',
    };
    const body = JSON.stringify({
      event: 'im_receive_msg',
      from_user_id: openId,
      to_user_id: this.businessOpenId,
      client_key: this.clientKey,
      log_id: fakeId('log'),
      content: opts.stringContent ? JSON.stringify(content) : content,
    })
      // Ids as bare 64-bit numbers, as the platform sends them.
      .replace(`"conversation_short_id":"${conv}"`, `"conversation_short_id":${conv}`)
      .replace(`"server_message_id":"${server}"`, `"server_message_id":${server}`);
    const msgId = fakeId('mid');
    return { msgId, delivery: await this.post(body, msgId, opts) };
  }

  /** The echo of a message the business sent (through the API: source = our client_key). */
  echo(openId: string, text: string): Promise<Delivery> {
    const body = JSON.stringify({
      event: 'im_send_msg',
      from_user_id: this.businessOpenId,
      to_user_id: openId,
      client_key: this.clientKey,
      content: {
        conversation_short_id: '1',
        server_message_id: fakeId('s'),
        message_type: 'text',
        text,
        source: this.clientKey,
        create_time: this.fake.now(),
      },
    });
    return this.post(body, fakeId('mid'));
  }
}
