import type { Db } from '../../platform/db/database.js';
import { SNS } from '../robot/robot.repository.js';

type Kdb = Db['kysely'];

/** Accounts with their app, skill group name and robot, for the lists. */
export function accountsQuery(k: Kdb, orgi: string) {
  return k
    .selectFrom('channel_account as a')
    .innerJoin('channel_app as p', 'p.id', 'a.appid')
    .leftJoin('organ as o', 'o.id', 'a.organ')
    .leftJoin('robot_binding as b', (j) => j.onRef('b.target', '=', 'a.id').on('b.channel', '=', SNS))
    .leftJoin('robot as r', 'r.id', 'b.robotid')
    .selectAll('a')
    .select(['p.platform_appid', 'o.name as organname', 'r.id as robotid', 'r.name as robotname'])
    .where('a.orgi', '=', orgi);
}

/** The robot that answers an account's users first (robot_binding sns + account id), if any. */
export async function accountRobot(k: Kdb, accountid: string): Promise<string | null> {
  const b = await k
    .selectFrom('robot_binding')
    .select('robotid')
    .where('channel', '=', SNS)
    .where('target', '=', accountid)
    .executeTakeFirst();
  return b?.robotid ?? null;
}

/** Deleted accounts take their robot binding with them. */
export const unbindAccounts = (k: Kdb, ids: readonly string[]) =>
  ids.length
    ? k.deleteFrom('robot_binding').where('channel', '=', SNS).where('target', 'in', ids).execute()
    : Promise.resolve([]);

export type AccountListRow = Awaited<ReturnType<ReturnType<typeof accountsQuery>['execute']>>[number];

export const appsOf = (k: Kdb, orgi: string, channel: string) =>
  k
    .selectFrom('channel_app')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('channel', '=', channel)
    .orderBy('createtime')
    .execute();

export const deleteApp = async (k: Kdb, id: string): Promise<void> => {
  const accounts = await k.selectFrom('channel_account').select('id').where('appid', '=', id).execute();
  await unbindAccounts(
    k,
    accounts.map((a) => a.id),
  );
  if (accounts.length)
    await k
      .deleteFrom('channel_imr')
      .where(
        'accountid',
        'in',
        accounts.map((a) => a.id),
      )
      .execute();
  await k.deleteFrom('channel_account').where('appid', '=', id).execute();
  await k.deleteFrom('channel_cursor').where('appid', '=', id).execute();
  await k.deleteFrom('channel_app').where('id', '=', id).execute();
};
