import type { Db } from '../../platform/db/database.js';

type Kdb = Db['kysely'];

/** Accounts with their app and skill group name, for the lists. */
export function accountsQuery(k: Kdb, orgi: string) {
  return k
    .selectFrom('channel_account as a')
    .innerJoin('channel_app as p', 'p.id', 'a.appid')
    .leftJoin('organ as o', 'o.id', 'a.organ')
    .selectAll('a')
    .select(['p.platform_appid', 'o.name as organname'])
    .where('a.orgi', '=', orgi);
}

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
