import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  CallbackConfigDto,
  ChannelAppDto,
  KfWayDto,
  Page,
  PlatformChannel,
  SnsAccountDto,
  snsPageQuery,
  snsSaveSchema,
  snsUpdateSchema,
} from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { AppError, badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { isUniqueViolation } from '../../platform/db/unique.js';
import { organExists } from '../access/access.repository.js';
import type { AccountRow, AppRow } from './adapters/adapter.js';
import { kfCall } from './adapters/wechat-kf.js';
import * as repo from './channels.repository.js';
import { PlatformError } from './platform-http.js';
import { jsonText } from './wire.js';
import type { ChannelRuntime } from './runtime.js';
import { bind, findRobot, SNS } from '../robot/robot.repository.js';
import { accountRobot, accountsQuery, appsOf, deleteApp, unbindAccounts } from './setup.repository.js';
import { presentAccount, presentApp, type AppRouting } from './setup.presenter.js';
import { forgetApp, webhookPath } from './webhook.routes.js';

type SaveInput = z.infer<typeof snsSaveSchema>;
type UpdateInput = z.infer<typeof snsUpdateSchema>;

/** A push token and EncodingAESKey for a new app when the admin leaves them blank. */
const newToken = () => randomBytes(16).toString('hex');
const newAesKey = () => randomBytes(32).toString('base64').slice(0, 43);

/** A platform call from the setup screens: its failure is the admin's to see (channel_platform_error). */
async function platform<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof PlatformError) {
      const e = new AppError('channel_platform_error', 502);
      e.message = err.detail;
      throw e;
    }
    throw err;
  }
}

async function checkOrgan(rt: ChannelRuntime, p: Principal, organ: string | null | undefined): Promise<void> {
  if (organ && !(await organExists(rt.e.db.kysely, p.orgi, organ)))
    throw badRequest('invalid_field', { organ: 'invalid_field' });
}

/**
 * Sets (a robot id), clears (null) or leaves (undefined) the robot that answers an account's users first;
 * the robot must be the tenant's.
 */
async function setAccountRobot(
  k: Db['kysely'],
  p: Principal,
  accountid: string,
  robotid: string | null | undefined,
  now: number,
): Promise<void> {
  if (robotid === undefined) return;
  if (robotid && !(await findRobot(k, p.orgi, robotid)))
    throw badRequest('invalid_field', { robotid: 'invalid_field' });
  await bind(k, p.orgi, SNS, accountid, robotid, now);
}

/** The routing of an app's single account (organ and robot), for presentApp. */
async function routingOf(rt: ChannelRuntime, app: AppRow): Promise<AppRouting> {
  if (app.channel === 'wechat') return { organ: null, robotid: null };
  const account = await repo.accountByExt(rt.e.db.kysely, app.id, '');
  return {
    organ: account?.organ ?? null,
    robotid: account ? await accountRobot(rt.e.db.kysely, account.id) : null,
  };
}

export async function appOf(
  rt: ChannelRuntime,
  p: Principal,
  id: string,
  channel?: PlatformChannel,
): Promise<AppRow> {
  const app = await repo.findApp(rt.e.db.kysely, id);
  if (!app || app.orgi !== p.orgi || (channel && app.channel !== channel)) throw notFound();
  return app;
}

export async function accountOf(
  rt: ChannelRuntime,
  p: Principal,
  id: string,
): Promise<{ account: AccountRow; app: AppRow }> {
  const account = await repo.findAccount(rt.e.db.kysely, id);
  if (!account || account.orgi !== p.orgi) throw notFound();
  return { account, app: await appOf(rt, p, account.appid) };
}

/** All channel accounts of the tenant, one list (`/api/snsAccount/page`, also read by statistics). */
export async function accountPage(
  rt: ChannelRuntime,
  p: Principal,
  q: z.infer<typeof snsPageQuery>,
  pg: Paging,
): Promise<Page<SnsAccountDto>> {
  let base = accountsQuery(rt.e.db.kysely, p.orgi);
  if (q.channel) base = base.where('a.channel', '=', q.channel);
  if (q.name) base = base.where('a.name', 'like', `%${q.name.replace(/[%_\\]/g, '\\$&')}%`);
  const [rows, total] = await Promise.all([
    base.orderBy('a.createtime').orderBy('a.id').limit(pg.ps).offset(offsetOf(pg)).execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(presentAccount), Number(total.n), pg);
}

export async function accountList(
  rt: ChannelRuntime,
  p: Principal,
  channel?: PlatformChannel,
): Promise<SnsAccountDto[]> {
  let q = accountsQuery(rt.e.db.kysely, p.orgi);
  if (channel) q = q.where('a.channel', '=', channel);
  return (await q.orderBy('a.createtime').orderBy('a.id').execute()).map(presentAccount);
}

/**
 * A new platform app. Every channel but WeChat KF has exactly one account, created with it (its platform
 * id: the Douyin business open_id, else the app id); KF accounts come from pullAccount / addAccount.
 */
export async function saveApp(rt: ChannelRuntime, p: Principal, input: SaveInput): Promise<ChannelAppDto> {
  await checkOrgan(rt, p, input.organ);
  const now = rt.now();
  const id = newId();
  const app: AppRow = {
    id,
    orgi: p.orgi,
    channel: input.channel,
    name: input.name,
    platform_appid: input.platformAppId,
    secret: input.secret,
    token: input.token || newToken(),
    aeskey: input.aeskey || newAesKey(),
    mode: input.mode,
    format: input.format,
    extid: input.extid,
    createtime: now,
    updatetime: now,
  };
  try {
    await rt.e.db.kysely.transaction().execute(async (k) => {
      await k.insertInto('channel_app').values(app).execute();
      if (input.channel === 'wechat') return;
      const accountid = newId();
      await k
        .insertInto('channel_account')
        .values({
          id: accountid,
          orgi: p.orgi,
          appid: id,
          channel: input.channel,
          extid: input.extid || input.platformAppId,
          name: input.name,
          organ: input.organ ?? null,
          createtime: now,
          updatetime: now,
        })
        .execute();
      await setAccountRobot(k, p, accountid, input.robotid, now);
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw badRequest('channel_app_exists', { platformAppId: 'channel_app_exists' });
    throw err;
  }
  return presentApp(app, await routingOf(rt, app));
}

/** Updates credentials (a blank secret keeps the stored one) and the single account's name and group. */
export async function updateApp(
  rt: ChannelRuntime,
  p: Principal,
  input: UpdateInput,
): Promise<ChannelAppDto> {
  const k = rt.e.db.kysely;
  const cur = await appOf(rt, p, input.id);
  await checkOrgan(rt, p, input.organ);
  const now = rt.now();
  forgetApp(rt, cur.id);
  const patch = {
    name: input.name,
    platform_appid: input.platformAppId,
    secret: input.secret || cur.secret,
    token: input.token || cur.token,
    aeskey: input.aeskey || cur.aeskey,
    mode: input.mode,
    format: input.format,
    extid: input.extid,
    updatetime: now,
  };
  try {
    await k.transaction().execute(async (trx) => {
      await trx.updateTable('channel_app').set(patch).where('id', '=', cur.id).execute();
      if (cur.channel === 'wechat') return;
      await trx
        .updateTable('channel_account')
        .set({
          name: input.name,
          extid: input.extid || input.platformAppId,
          organ: input.organ ?? null,
          ...(input.enabled === undefined ? {} : { enabled: input.enabled ? 1 : 0 }),
          updatetime: now,
        })
        .where('appid', '=', cur.id)
        .execute();
      const account = await repo.accountByExt(trx, cur.id, '');
      if (account) await setAccountRobot(trx, p, account.id, input.robotid, now);
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw badRequest('channel_app_exists', { platformAppId: 'channel_app_exists' });
    throw err;
  }
  const next = { ...cur, ...patch };
  return presentApp(next, await routingOf(rt, next));
}

export async function appDetail(
  rt: ChannelRuntime,
  p: Principal,
  id: string,
  channel?: PlatformChannel,
): Promise<ChannelAppDto> {
  const app = await appOf(rt, p, id, channel);
  return presentApp(app, await routingOf(rt, app));
}

export async function appList(
  rt: ChannelRuntime,
  p: Principal,
  channel: PlatformChannel,
): Promise<ChannelAppDto[]> {
  const apps = await appsOf(rt.e.db.kysely, p.orgi, channel);
  return Promise.all(apps.map(async (a) => presentApp(a, await routingOf(rt, a))));
}

export async function removeApp(
  rt: ChannelRuntime,
  p: Principal,
  id: string,
  channel?: PlatformChannel,
): Promise<void> {
  const app = await appOf(rt, p, id, channel);
  forgetApp(rt, app.id);
  await rt.e.db.kysely.transaction().execute((k) => deleteApp(k, app.id));
}

/** What to paste into the platform's console; `origin` is the server's public origin as the caller reached it. */
export async function callbackConfig(
  rt: ChannelRuntime,
  p: Principal,
  id: string,
  origin: string,
): Promise<CallbackConfigDto> {
  const app = await appOf(rt, p, id);
  return {
    id: app.id,
    url: `${origin}${webhookPath(app.channel, app.id)}`,
    token: app.token,
    aeskey: app.aeskey,
    app: presentApp(app, await routingOf(rt, app)),
  };
}

// ---- WeChat KF accounts

async function kfApp(rt: ChannelRuntime, p: Principal, id: string): Promise<AppRow> {
  return appOf(rt, p, id, 'wechat');
}

/** Reads the corp's KF accounts (account/list, page by page) into ours: new ones added, names refreshed. */
export async function pullAccounts(rt: ChannelRuntime, p: Principal, id: string): Promise<SnsAccountDto[]> {
  const app = await kfApp(rt, p, id);
  const k = rt.e.db.kysely;
  const limit = 100;
  for (let offset = 0; ; offset += limit) {
    const o = await platform(() => kfCall(rt, app, 'account/list', { offset, limit }));
    const list = Array.isArray(o.account_list) ? (o.account_list as Record<string, unknown>[]) : [];
    const now = rt.now();
    for (const a of list) {
      const extid = jsonText(a, 'open_kfid');
      const name = jsonText(a, 'name');
      if (!extid) continue;
      const cur = await repo.accountByExt(k, app.id, extid);
      if (cur)
        await k
          .updateTable('channel_account')
          .set({ name, avatar: jsonText(a, 'avatar'), updatetime: now })
          .where('id', '=', cur.id)
          .execute();
      else
        await k
          .insertInto('channel_account')
          .values({
            id: newId(),
            orgi: p.orgi,
            appid: app.id,
            channel: 'wechat',
            extid,
            name,
            avatar: jsonText(a, 'avatar'),
            organ: null,
            createtime: now,
            updatetime: now,
          })
          .execute();
    }
    if (list.length < limit) break;
  }
  return accountList(rt, p, 'wechat');
}

export async function addKfAccount(
  rt: ChannelRuntime,
  p: Principal,
  id: string,
  name: string,
): Promise<SnsAccountDto> {
  const app = await kfApp(rt, p, id);
  const o = await platform(() => kfCall(rt, app, 'account/add', { name, media_id: '' }));
  const extid = jsonText(o, 'open_kfid');
  const now = rt.now();
  const accountid = newId();
  await rt.e.db.kysely
    .insertInto('channel_account')
    .values({
      id: accountid,
      orgi: p.orgi,
      appid: app.id,
      channel: 'wechat',
      extid,
      name,
      organ: null,
      createtime: now,
      updatetime: now,
    })
    .execute();
  return (await accountList(rt, p, 'wechat')).find((a) => a.id === accountid)!;
}

export async function updateKfAccount(
  rt: ChannelRuntime,
  p: Principal,
  accountid: string,
  name: string,
): Promise<SnsAccountDto> {
  const { account, app } = await accountOf(rt, p, accountid);
  await platform(() => kfCall(rt, app, 'account/update', { open_kfid: account.extid, name }));
  await rt.e.db.kysely
    .updateTable('channel_account')
    .set({ name, updatetime: rt.now() })
    .where('id', '=', account.id)
    .execute();
  return (await accountList(rt, p, 'wechat')).find((a) => a.id === account.id)!;
}

export async function delKfAccount(rt: ChannelRuntime, p: Principal, accountid: string): Promise<void> {
  const { account, app } = await accountOf(rt, p, accountid);
  await platform(() => kfCall(rt, app, 'account/del', { open_kfid: account.extid }));
  await rt.e.db.kysely.transaction().execute(async (k) => {
    await unbindAccounts(k, [account.id]);
    await k.deleteFrom('channel_account').where('id', '=', account.id).execute();
  });
}

/**
 * Routes an account's users to a skill group (organ null: the tenant's whole pool) and, when `robotid` is
 * given, to that robot first (null: no robot).
 */
export async function associate(
  rt: ChannelRuntime,
  p: Principal,
  accountid: string,
  organ: string | null,
  robotid?: string | null,
): Promise<SnsAccountDto> {
  const { account } = await accountOf(rt, p, accountid);
  await checkOrgan(rt, p, organ);
  const now = rt.now();
  await rt.e.db.kysely.transaction().execute(async (k) => {
    await k
      .updateTable('channel_account')
      .set({ organ, updatetime: now })
      .where('id', '=', account.id)
      .execute();
    await setAccountRobot(k, p, account.id, robotid, now);
  });
  return (await accountList(rt, p)).find((a) => a.id === account.id)!;
}

/** The contact-way link of a KF account (the console draws its QR code); `scene` comes back in enter_session. */
export async function kfWay(
  rt: ChannelRuntime,
  p: Principal,
  accountid: string,
  scene: string,
): Promise<KfWayDto> {
  const { account, app } = await accountOf(rt, p, accountid);
  const o = await platform(() =>
    kfCall(rt, app, 'add_contact_way', { open_kfid: account.extid, ...(scene ? { scene } : {}) }),
  );
  return { url: jsonText(o, 'url') };
}
