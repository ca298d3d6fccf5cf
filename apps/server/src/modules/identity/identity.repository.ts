import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { IdentityProviderTable } from '../../platform/db/schema-identity.js';

type Kdb = Kysely<Database> | Transaction<Database>;

/** A provider identity (provider id + subject) that a login binds to the user once it completes. */
export interface IdentityLink {
  provider: string;
  subject: string;
}

export const listProviders = (k: Kdb, orgi: string) =>
  k.selectFrom('identity_provider').selectAll().where('orgi', '=', orgi).orderBy('createtime').execute();

export const enabledProviders = (k: Kdb, orgi: string) =>
  k
    .selectFrom('identity_provider')
    .select(['id', 'name'])
    .where('orgi', '=', orgi)
    .where('enabled', '=', 1)
    .orderBy('createtime')
    .execute();

/** Any tenant's provider (the login page names it by id); `orgi` narrows to one tenant. */
export function findProvider(k: Kdb, id: string, orgi?: string) {
  let q = k.selectFrom('identity_provider').selectAll().where('id', '=', id);
  if (orgi) q = q.where('orgi', '=', orgi);
  return q.executeTakeFirst();
}

export const providerNameTaken = (k: Kdb, orgi: string, name: string, exceptId: string | null) =>
  k
    .selectFrom('identity_provider')
    .select('id')
    .where('orgi', '=', orgi)
    .where('name', '=', name)
    .where('id', '!=', exceptId ?? '')
    .executeTakeFirst();

export const insertProvider = (k: Kdb, row: Insertable<IdentityProviderTable>) =>
  k.insertInto('identity_provider').values(row).execute();

export const updateProvider = (k: Kdb, id: string, set: Updateable<IdentityProviderTable>) =>
  k.updateTable('identity_provider').set(set).where('id', '=', id).execute();

/** Deletes the provider and every identity bound through it. */
export async function deleteProvider(k: Kdb, id: string) {
  await k.deleteFrom('user_identity').where('provider', '=', id).execute();
  await k.deleteFrom('identity_provider').where('id', '=', id).execute();
}

export const findIdentity = (k: Kdb, provider: string, subject: string) =>
  k
    .selectFrom('user_identity')
    .innerJoin('users', 'users.id', 'user_identity.userid')
    .select(['users.id', 'users.orgi', 'users.username', 'users.disabled', 'users.usertype'])
    .where('user_identity.provider', '=', provider)
    .where('user_identity.subject', '=', subject)
    .executeTakeFirst();

/**
 * Binds the identity; a user has one identity per provider (a second bind replaces the first). Another
 * user's binding of the same identity is left alone: the primary key refuses it (identity_bound).
 */
export async function linkIdentity(k: Kdb, v: IdentityLink & { userid: string; orgi: string }) {
  await k
    .deleteFrom('user_identity')
    .where('userid', '=', v.userid)
    .where('provider', '=', v.provider)
    .where('subject', '!=', v.subject)
    .execute();
  await k
    .insertInto('user_identity')
    .values({ ...v, createtime: Date.now() })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
    .execute();
}

export const identitiesOf = (k: Kdb, userid: string) =>
  k
    .selectFrom('user_identity')
    .leftJoin('identity_provider', 'identity_provider.id', 'user_identity.provider')
    .select([
      'user_identity.provider',
      'user_identity.subject',
      'user_identity.createtime',
      sql<string>`coalesce(identity_provider.name, '')`.as('providername'),
    ])
    .where('user_identity.userid', '=', userid)
    .orderBy('user_identity.createtime')
    .execute();

export const unlink = (k: Kdb, userid: string, provider: string) =>
  k
    .deleteFrom('user_identity')
    .where('userid', '=', userid)
    .where('provider', '=', provider)
    .executeTakeFirst();

/** Removes a ticket once; false when another request took it first (state is single-use). */
export async function takeTicket(k: Kdb, id: string): Promise<boolean> {
  const r = await k.deleteFrom('auth_ticket').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

// ------------------------------------------------------------------------------- registration
export const companyTaken = (k: Kdb, name: string) =>
  k
    .selectFrom('organization')
    .select('id')
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
