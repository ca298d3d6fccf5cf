import type { z } from 'zod';
import type { ImrKind, ImrRuleDto, PlatformChannel, imrSaveSchema } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as repo from './channels.repository.js';
import type { ChannelRuntime } from './runtime.js';
import { accountOf, appOf } from './setup.service.js';

type Row = Awaited<ReturnType<typeof repo.imrRules>>[number];
const present = (r: Row): ImrRuleDto => ({
  id: r.id,
  accountid: r.accountid,
  kind: r.kind as ImrKind,
  keyword: r.keyword,
  contains: Number(r.contains) === 1,
  reply: r.reply,
  createtime: Number(r.createtime),
});

/** The auto-replies of an official account / mini-program app (its one account). */
export async function rulesOfApp(
  rt: ChannelRuntime,
  p: Principal,
  appid: string,
  channel: PlatformChannel,
): Promise<ImrRuleDto[]> {
  const app = await appOf(rt, p, appid, channel);
  const account = await repo.accountByExt(rt.e.db.kysely, app.id, '');
  return account ? (await repo.imrRules(rt.e.db.kysely, account.id)).map(present) : [];
}

/** The auto-replies of one WeChat KF account (a corp has many; its `subscribe` rule is the welcome). */
export async function rulesOfKfAccount(
  rt: ChannelRuntime,
  p: Principal,
  accountid: string,
): Promise<ImrRuleDto[]> {
  const { account } = await accountOf(rt, p, accountid);
  if (account.channel !== 'wechat') throw notFound();
  return (await repo.imrRules(rt.e.db.kysely, account.id)).map(present);
}

/**
 * Whether an account's rules are managed under a channel's calls: its own, and under `/api/wechat` (code
 * A09_A01_A02) also WeChat KF accounts (same code), whose `subscribe` rule is their welcome.
 */
const managedUnder = (account: { channel: string }, channel: PlatformChannel): boolean =>
  account.channel === channel || (channel === 'weixin' && account.channel === 'wechat');

/** Adds or (with id) replaces a rule; keyword and menu rules need their keyword. */
export async function saveRule(
  rt: ChannelRuntime,
  p: Principal,
  b: z.infer<typeof imrSaveSchema>,
  channel: PlatformChannel,
): Promise<ImrRuleDto> {
  const { account } = await accountOf(rt, p, b.accountid);
  if (!managedUnder(account, channel)) throw notFound();
  if (b.kind !== 'subscribe' && !b.keyword) throw badRequest('required', { keyword: 'required' });
  const k = rt.e.db.kysely;
  const now = rt.now();
  const fields = {
    kind: b.kind,
    keyword: b.kind === 'subscribe' ? '' : b.keyword,
    contains: b.contains ? 1 : 0,
    reply: b.reply,
    updatetime: now,
  };
  let id = b.id;
  if (id) {
    const r = await k
      .updateTable('channel_imr')
      .set(fields)
      .where('id', '=', id)
      .where('accountid', '=', account.id)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw notFound();
  } else {
    id = newId();
    await k
      .insertInto('channel_imr')
      .values({ id, orgi: p.orgi, accountid: account.id, createtime: now, ...fields })
      .execute();
  }
  return present((await repo.imrRules(k, account.id)).find((r) => r.id === id)!);
}

export async function removeRule(
  rt: ChannelRuntime,
  p: Principal,
  id: string,
  channel: PlatformChannel,
): Promise<void> {
  const k = rt.e.db.kysely;
  const r = await k
    .selectFrom('channel_imr')
    .selectAll()
    .where('id', '=', id)
    .where('orgi', '=', p.orgi)
    .executeTakeFirst();
  if (!r) throw notFound();
  const { account } = await accountOf(rt, p, r.accountid);
  if (!managedUnder(account, channel)) throw notFound();
  await k.deleteFrom('channel_imr').where('id', '=', id).execute();
}
