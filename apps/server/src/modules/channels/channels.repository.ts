import type { Insertable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type {
  ChannelInboundTable,
  ChannelOutboxTable,
  ChannelUserTable,
} from '../../platform/db/schema-messaging.js';
import type { AccountRow, AppRow, UserRow } from './adapters/adapter.js';

type Kdb = Db['kysely'];

export const findApp = (k: Kdb, id: string): Promise<AppRow | undefined> =>
  k.selectFrom('channel_app').selectAll().where('id', '=', id).executeTakeFirst();

export const findAccount = (k: Kdb, id: string): Promise<AccountRow | undefined> =>
  k.selectFrom('channel_account').selectAll().where('id', '=', id).executeTakeFirst();

/** The account of an app by the platform's id of it ('' = the app's first account). */
export async function accountByExt(k: Kdb, appid: string, extid: string): Promise<AccountRow | undefined> {
  let q = k.selectFrom('channel_account').selectAll().where('appid', '=', appid);
  if (extid) q = q.where('extid', '=', extid);
  return q.orderBy('createtime').executeTakeFirst();
}

export const findUser = (k: Kdb, id: string): Promise<UserRow | undefined> =>
  k.selectFrom('channel_user').selectAll().where('id', '=', id).executeTakeFirst();

export const userByExt = (k: Kdb, accountid: string, extuserid: string): Promise<UserRow | undefined> =>
  k
    .selectFrom('channel_user')
    .selectAll()
    .where('accountid', '=', accountid)
    .where('extuserid', '=', extuserid)
    .executeTakeFirst();

export const insertUser = (k: Kdb, row: Insertable<ChannelUserTable>) =>
  k
    .insertInto('channel_user')
    .values(row)
    .onConflict((oc) => oc.columns(['accountid', 'extuserid']).doNothing())
    .execute();

export const updateUser = (k: Kdb, id: string, patch: Partial<UserRow>) =>
  k.updateTable('channel_user').set(patch).where('id', '=', id).execute();

/** A user who shares the unionid (another account of the same open platform), for the contact link. */
export const userByUnion = (k: Kdb, orgi: string, unionid: string, except: string) =>
  k
    .selectFrom('channel_user')
    .select(['id', 'channel'])
    .where('orgi', '=', orgi)
    .where('unionid', '=', unionid)
    .where('id', '!=', except)
    .executeTakeFirst();

/** Stores a received item once: false when (app, msgkey) was seen before. */
export async function insertInbound(k: Kdb, row: Insertable<ChannelInboundTable>): Promise<boolean> {
  const r = await k
    .insertInto('channel_inbound')
    .values(row)
    .onConflict((oc) => oc.columns(['appid', 'msgkey']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export const inboundById = (k: Kdb, id: string) =>
  k.selectFrom('channel_inbound').selectAll().where('id', '=', id).executeTakeFirst();

export const setInbound = (k: Kdb, id: string, status: string, detail: string, now: number) =>
  k
    .updateTable('channel_inbound')
    .set({ status, detail: detail.slice(0, 500), updatetime: now })
    .where('id', '=', id)
    .execute();

/** Items received but not processed (a node stopped in between), oldest first. */
export const staleInbound = (k: Kdb, before: number, limit: number) =>
  k
    .selectFrom('channel_inbound')
    .select(['id'])
    .where('status', '=', 'new')
    .where('createtime', '<', before)
    .orderBy('createtime')
    .limit(limit)
    .execute();

export async function cursorOf(k: Kdb, appid: string, scope: string): Promise<string> {
  const r = await k
    .selectFrom('channel_cursor')
    .select('cursor')
    .where('appid', '=', appid)
    .where('scope', '=', scope)
    .executeTakeFirst();
  return r?.cursor ?? '';
}

export const saveCursor = (k: Kdb, appid: string, scope: string, cursor: string, now: number) =>
  k
    .insertInto('channel_cursor')
    .values({ appid, scope, cursor, updatetime: now })
    .onConflict((oc) => oc.columns(['appid', 'scope']).doUpdateSet({ cursor, updatetime: now }))
    .execute();

export async function insertOutbox(k: Kdb, row: Insertable<ChannelOutboxTable>): Promise<boolean> {
  const r = await k
    .insertInto('channel_outbox')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Due sends: pending and due, or held by a node whose lease ran out. */
export const dueOutbox = (k: Kdb, now: number, limit: number) =>
  k
    .selectFrom('channel_outbox')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('lease', '<', now)]),
      ]),
    )
    .orderBy('createtime')
    .orderBy('id')
    .limit(limit)
    .execute();

/** Takes a send for this node until `lease` (false: another node has it). */
export async function claimOutbox(k: Kdb, id: string, now: number, lease: number): Promise<boolean> {
  const r = await k
    .updateTable('channel_outbox')
    .set({ status: 'sending', lease, updatetime: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('lease', '<', now)]),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export const finishOutbox = (k: Kdb, id: string, patch: Partial<Insertable<ChannelOutboxTable>>) =>
  k.updateTable('channel_outbox').set(patch).where('id', '=', id).execute();

/** Earlier unsent items of the same user (sends to one user keep their order). */
export async function earlierPending(
  k: Kdb,
  userid: string,
  createtime: number,
  id: string,
): Promise<boolean> {
  const r = await k
    .selectFrom('channel_outbox')
    .select('id')
    .where('userid', '=', userid)
    .where('status', 'in', ['pending', 'sending'])
    .where((eb) =>
      eb.or([
        eb('createtime', '<', createtime),
        eb.and([eb('createtime', '=', createtime), eb('id', '<', id)]),
      ]),
    )
    .executeTakeFirst();
  return !!r;
}

export const deliveriesOf = (k: Kdb, agentserviceid: string) =>
  k
    .selectFrom('channel_outbox')
    .select(['messageid', 'status', 'error', 'detail'])
    .where('agentserviceid', '=', agentserviceid)
    .where('messageid', 'is not', null)
    .where('status', '!=', 'sent')
    .execute();

export const ensureSession = (
  k: Kdb,
  row: { agentserviceid: string; orgi: string; userid: string; createtime: number },
) =>
  k
    .insertInto('channel_session')
    .values(row)
    .onConflict((oc) => oc.column('agentserviceid').doNothing())
    .execute();

/** Platform conversations with lines not yet queued out. */
export const lagging = (k: Kdb, limit: number) =>
  k
    .selectFrom('channel_session as cs')
    .innerJoin('agent_service as s', 's.id', 'cs.agentserviceid')
    .select(['cs.agentserviceid', 'cs.outseq', 's.lastseq', 'cs.userid', 'cs.orgi'])
    .whereRef('s.lastseq', '>', 'cs.outseq')
    .limit(limit)
    .execute();

export const advanceSession = (k: Kdb, agentserviceid: string, outseq: number) =>
  k
    .updateTable('channel_session')
    .set({ outseq })
    .where('agentserviceid', '=', agentserviceid)
    .where('outseq', '<', outseq)
    .execute();

/** Lines of a conversation that go to the platform user, after `seq`. */
export const linesAfter = (k: Kdb, agentserviceid: string, seq: number, upTo: number) =>
  k
    .selectFrom('chat_message')
    .selectAll()
    .where('agentserviceid', '=', agentserviceid)
    .where('seq', '>', seq)
    .where('seq', '<=', upTo)
    .orderBy('seq')
    .execute();

export const imrRules = (k: Kdb, accountid: string) =>
  k.selectFrom('channel_imr').selectAll().where('accountid', '=', accountid).orderBy('createtime').execute();

/** The outcome (robot_reply meta, JSON) of a conversation's latest robot line; null when it has none. */
export async function lastRobotMeta(k: Kdb, agentserviceid: string): Promise<string | null> {
  const r = await k
    .selectFrom('chat_message as m')
    .leftJoin('robot_reply as r', 'r.msgid', 'm.id')
    .select('r.meta')
    .where('m.agentserviceid', '=', agentserviceid)
    .where('m.type', '=', 'robot')
    .orderBy('m.seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.meta ?? null;
}
