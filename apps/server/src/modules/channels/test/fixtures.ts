import { randomBytes } from 'node:crypto';
import { afterEach, expect } from 'vitest';
import type {
  CallbackConfigDto,
  ChannelAppDto,
  DeliveryNotice,
  MessageDto,
  SnsAccountDto,
} from '@kefu/protocol';
import type { Db } from '../../../platform/db/database.js';
import { newId } from '../../../platform/ids.js';
import { startFakePlatform, type FakeWechat, type FakeWecom } from '../../../../test/fake-platform/index.js';
import { perTest } from '../../../../test/factories.js';
import { api, call, next, ok, type AgentClient, type LiveServer } from '../../../../test/live.js';
import { webhookPath } from '../webhook.routes.js';
import { PNG, upload } from '../../media/media-fixtures.js';

export type FakePlatform = Awaited<ReturnType<typeof startFakePlatform>>;

/** Per test: the live-server harness, and a fake platform started on demand and stopped after the test. */
export function perTestWithFake() {
  const pt = perTest();
  let fake: FakePlatform | null = null;
  afterEach(async () => {
    await fake?.stop();
    fake = null;
  });
  return { pt, startFake: async (): Promise<FakePlatform> => (fake = await startFakePlatform()) };
}

/** A 43-character EncodingAESKey. */
export const randomAesKey = (): string => randomBytes(32).toString('base64').slice(0, 43);

/**
 * A WeChat KF app (the fake's corp) and one KF account routed to `organ`, stored directly; the fake is
 * told where to push.
 */
export async function addKfApp(
  db: Db,
  baseUrl: string,
  wecom: FakeWecom,
  opts: { organ?: string | null; name?: string } = {},
): Promise<{ appid: string; accountid: string; kfid: string; token: string; aeskey: string }> {
  const now = Date.now();
  const appid = newId();
  const token = randomBytes(8).toString('hex');
  const aeskey = randomAesKey();
  await db.kysely
    .insertInto('channel_app')
    .values({
      id: appid,
      orgi: 'kefu',
      channel: 'wechat',
      name: 'corp',
      platform_appid: wecom.corpid,
      secret: wecom.secret,
      token,
      aeskey,
      createtime: now,
      updatetime: now,
    })
    .execute();
  const kfid = wecom.addAccount(opts.name ?? '售后客服');
  const accountid = newId();
  await db.kysely
    .insertInto('channel_account')
    .values({
      id: accountid,
      orgi: 'kefu',
      appid,
      channel: 'wechat',
      extid: kfid,
      name: opts.name ?? '售后客服',
      organ: opts.organ ?? null,
      createtime: now,
      updatetime: now,
    })
    .execute();
  wecom.push = { url: `${baseUrl}${webhookPath('wechat', appid)}`, token, aeskey, receiveId: wecom.corpid };
  return { appid, accountid, kfid, token, aeskey };
}

/**
 * An official account (weixin) or mini-program (weapp) of the fake, saved through its setup call by
 * `admin` (who holds the channel codes), with the fake pointed at the webhook its binding names.
 */
export async function addMpApp(
  srv: LiveServer,
  admin: string,
  wechat: FakeWechat,
  channel: 'weixin' | 'weapp',
  extra: Record<string, unknown> = {},
) {
  const fa = wechat.addApp();
  const base = channel === 'weixin' ? '/api/wechat' : '/api/weApp';
  const saved = await api<ChannelAppDto>(srv, admin, `${base}/save`, {
    name: channel === 'weixin' ? '服务号' : '商城小程序',
    platformAppId: fa.appid,
    secret: fa.secret,
    ...extra,
  });
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  const cb = await api<CallbackConfigDto>(srv, admin, `${base}/scan?id=${saved.json.data.id}`);
  wechat.target(fa.appid, {
    url: `${srv.url}${new URL(cb.json.data.url).pathname}`,
    token: cb.json.data.token,
    aeskey: cb.json.data.aeskey,
    receiveId: fa.appid,
  });
  const accounts = await api<SnsAccountDto[]>(srv, admin, `/api/snsAccount/list?channel=${channel}`);
  const account = accounts.json.data.find((a) => a.appid === saved.json.data.id)!;
  return { fa, base, app: saved.json.data, account };
}

/**
 * An agent answering the platform user of `m` (a line the agent received): `say` sends a line, `delivery`
 * waits for the platform outcome of one.
 */
export function replier(sock: AgentClient, m: Pick<MessageDto, 'usession' | 'agentserviceid'>) {
  const say = async (text: string, extra: Record<string, unknown> = {}) =>
    ok(
      await call<MessageDto>(sock, 'message', {
        touser: m.usession,
        agentserviceid: m.agentserviceid,
        message: text,
        clientId: `c-${Math.random().toString(36).slice(2, 12)}`,
        ...extra,
      }),
    );
  const delivery = async (id: string) => {
    for (;;) {
      const n = await next<DeliveryNotice>(sock, 'delivery');
      if (n.id === id) return n;
    }
  };
  return { say, delivery };
}

/** The agent (by its token) uploads a PNG `reply.png` and sends it with `say` (see replier). */
export async function agentSendsImage(
  srv: LiveServer,
  token: string,
  say: ReturnType<typeof replier>['say'],
): Promise<MessageDto> {
  const up = await upload(srv, '/api/upload', { authorization: token }, 'reply.png', 'image/png', PNG);
  expect(up.json.success).toBe(true);
  return say('', { msgtype: 'image', attachmentid: up.json.data.id });
}

/** The platform received that image: uploaded under its file name, byte for byte. */
export function expectUploaded(
  media: Map<string, { data: Buffer; filename: string }>,
  mediaId: unknown,
): void {
  const got = media.get(String(mediaId));
  expect(got?.filename).toBe('reply.png');
  expect(got?.data.equals(PNG)).toBe(true);
}

/** Rows in one of the tables the channel tests count. */
export const rowCount = async (
  srv: LiveServer,
  table: 'channel_inbound' | 'chat_message' | 'agent_service' | 'satis_rating' | 'leave_message',
): Promise<number> =>
  Number(
    (
      await srv.tdb.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
