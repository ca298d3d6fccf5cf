import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

type Kdb = Kysely<Database> | Transaction<Database>;

/** user_setting name of the time the user's password was last set. */
export const PASSWORD_CHANGED = 'password.changed';

export const findTotp = (k: Kdb, userid: string) =>
  k.selectFrom('user_totp').selectAll().where('userid', '=', userid).executeTakeFirst();

/** Starts (or restarts) an enrolment: a new secret, not enabled until a code confirms it. */
export async function putPendingTotp(k: Kdb, userid: string, orgi: string, secret: string, now: number) {
  await k
    .insertInto('user_totp')
    .values({
      userid,
      orgi,
      secret,
      enabled: 0,
      recovery: '[]',
      laststep: 0,
      createtime: now,
      updatetime: now,
    })
    .onConflict((oc) =>
      oc.column('userid').doUpdateSet({ secret, enabled: 0, recovery: '[]', laststep: 0, updatetime: now }),
    )
    .execute();
}

export async function enableTotp(k: Kdb, userid: string, laststep: number, recovery: string[], now: number) {
  await k
    .updateTable('user_totp')
    .set({ enabled: 1, laststep, recovery: JSON.stringify(recovery), updatetime: now })
    .where('userid', '=', userid)
    .execute();
}

/** Records an accepted code (its step) and what is left of the recovery codes; false if another request won. */
export async function useTotp(
  k: Kdb,
  userid: string,
  before: { laststep: number; recovery: string },
  after: { laststep: number; recovery: string },
  now: number,
): Promise<boolean> {
  const r = await k
    .updateTable('user_totp')
    .set({ ...after, updatetime: now })
    .where('userid', '=', userid)
    .where('laststep', '=', before.laststep)
    .where('recovery', '=', before.recovery)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteTotp(k: Kdb, userid: string) {
  await k.deleteFrom('user_totp').where('userid', '=', userid).execute();
}

export async function passwordChanged(k: Kdb, userid: string): Promise<number | null> {
  const r = await k
    .selectFrom('user_setting')
    .select('value')
    .where('userid', '=', userid)
    .where('name', '=', PASSWORD_CHANGED)
    .executeTakeFirst();
  return r ? Number(r.value) : null;
}

export async function markPasswordChanged(k: Kdb, userid: string, orgi: string, at: number) {
  await k
    .insertInto('user_setting')
    .values({ userid, orgi, name: PASSWORD_CHANGED, value: String(at), updatetime: at })
    .onConflict((oc) => oc.columns(['userid', 'name']).doUpdateSet({ value: String(at), updatetime: at }))
    .execute();
}

export const roleIdsOf = async (k: Kdb, userid: string): Promise<string[]> =>
  (await k.selectFrom('user_role').select('roleid').where('userid', '=', userid).execute()).map(
    (r) => r.roleid,
  );

export const userCreated = (k: Kdb, userid: string) =>
  k
    .selectFrom('users')
    .select(['createtime', 'username', 'orgi'])
    .where('id', '=', userid)
    .executeTakeFirst();

export async function insertSession(
  k: Kdb,
  row: { tokenid: string; userid: string; orgi: string; ip: string; useragent: string; createtime: number },
) {
  await k
    .insertInto('session_meta')
    .values(row)
    .onConflict((oc) => oc.column('tokenid').doNothing())
    .execute();
}

/** The user's live tokens with where they came from (tokens issued before 0012 have no details). */
export const liveSessions = (k: Kdb, userid: string, now: number) =>
  k
    .selectFrom('tokens')
    .leftJoin('session_meta', 'session_meta.tokenid', 'tokens.id')
    .select(['tokens.id', 'tokens.createtime', 'tokens.expires', 'session_meta.ip', 'session_meta.useragent'])
    .where('tokens.userid', '=', userid)
    .where('tokens.revoked', '=', 0)
    .where('tokens.expires', '>', now)
    .orderBy('tokens.createtime', 'desc')
    .execute();

export async function insertTicket(k: Kdb, id: string, kind: string, payload: unknown, expires: number) {
  await k
    .insertInto('auth_ticket')
    .values({ id, kind, payload: JSON.stringify(payload), expires })
    .execute();
}

export const findTicket = (k: Kdb, id: string, kind: string, now: number) =>
  k
    .selectFrom('auth_ticket')
    .selectAll()
    .where('id', '=', id)
    .where('kind', '=', kind)
    .where('expires', '>', now)
    .executeTakeFirst();

export async function updateTicket(k: Kdb, id: string, payload: unknown) {
  await k
    .updateTable('auth_ticket')
    .set({ payload: JSON.stringify(payload) })
    .where('id', '=', id)
    .execute();
}

export async function deleteTicket(k: Kdb, id: string) {
  await k.deleteFrom('auth_ticket').where('id', '=', id).execute();
}

export async function sweepTickets(k: Kdb, now: number) {
  await k.deleteFrom('auth_ticket').where('expires', '<=', now).execute();
}
