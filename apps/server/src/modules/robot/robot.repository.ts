import type { VisitorRobotInfo } from '@kefu/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { RobotTable } from '../../platform/db/schema-knowledge.js';

type Kdb = Db['kysely'];
export type RobotRow = Selectable<RobotTable>;

/** The channel of website access points in robot_binding. */
export const WEBIM = 'webim';
/** The channel of messaging-platform accounts (modules/channels: target = channel_account id). */
export const SNS = 'sns';

export const listRobots = (k: Kdb, orgi: string) =>
  k.selectFrom('robot').selectAll().where('orgi', '=', orgi).orderBy('createtime').execute();

export const findRobot = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('robot').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export const robotById = (k: Kdb, id: string) =>
  k.selectFrom('robot').selectAll().where('id', '=', id).executeTakeFirst();

export const nameTaken = async (k: Kdb, orgi: string, name: string, except?: string) => {
  let q = k.selectFrom('robot').select('id').where('orgi', '=', orgi).where('name', '=', name);
  if (except) q = q.where('id', '!=', except);
  return (await q.executeTakeFirst()) !== undefined;
};

/** Access points (webim targets) bound to each robot. */
export async function bindingsOf(k: Kdb, orgi: string): Promise<Map<string, string[]>> {
  const rows = await k
    .selectFrom('robot_binding')
    .select(['robotid', 'target'])
    .where('orgi', '=', orgi)
    .where('channel', '=', WEBIM)
    .orderBy('createtime')
    .execute();
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.robotid, [...(out.get(r.robotid) ?? []), r.target]);
  return out;
}

/** The enabled robot that answers a channel target first (a website access point: webim + appid). */
export const boundRobot = (k: Kdb, channel: string, target: string) =>
  k
    .selectFrom('robot_binding as b')
    .innerJoin('robot as r', 'r.id', 'b.robotid')
    .selectAll('r')
    .where('b.channel', '=', channel)
    .where('b.target', '=', target)
    .where('r.enabled', '=', 1)
    .executeTakeFirst();

export const bindingOf = (k: Kdb, channel: string, target: string) =>
  k
    .selectFrom('robot_binding')
    .selectAll()
    .where('channel', '=', channel)
    .where('target', '=', target)
    .executeTakeFirst();

export async function bind(
  k: Kdb,
  orgi: string,
  channel: string,
  target: string,
  robotid: string | null,
  now: number,
): Promise<void> {
  await k.deleteFrom('robot_binding').where('channel', '=', channel).where('target', '=', target).execute();
  if (robotid)
    await k.insertInto('robot_binding').values({ channel, target, orgi, robotid, createtime: now }).execute();
}

// ------------------------------------------------------------------------------------------- sessions

export const sessionOf = (k: Kdb, agentserviceid: string) =>
  k.selectFrom('robot_session').selectAll().where('agentserviceid', '=', agentserviceid).executeTakeFirst();

/** Open conversations a robot still serves. */
export async function openChatsOf(k: Kdb, robotid: string): Promise<number> {
  const r = await k
    .selectFrom('robot_session as rs')
    .innerJoin('agent_service as s', 's.id', 'rs.agentserviceid')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('rs.robotid', '=', robotid)
    .where('s.ai', '=', 1)
    .where('s.status', '!=', 'end')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The robot serving a conversation, as the widget shows it (null when it has no robot session). */
export async function visitorRobotOf(k: Kdb, agentserviceid: string): Promise<VisitorRobotInfo | null> {
  const r = await k
    .selectFrom('robot_session as rs')
    .innerJoin('robot as r', 'r.id', 'rs.robotid')
    .select(['r.id', 'r.name', 'r.avatar', 'r.handoff_button'])
    .where('rs.agentserviceid', '=', agentserviceid)
    .executeTakeFirst();
  return r ? { id: r.id, name: r.name, avatar: r.avatar, handoffButton: r.handoff_button === 1 } : null;
}
