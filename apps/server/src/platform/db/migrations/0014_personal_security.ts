import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Personal security for every user (issue 14):
 * - every existing role gains A09_A07_A01 (change password, signed-in devices, two-factor), which the seed
 *   has always given its two stock roles; an administrator may take it from a role afterwards;
 * - identity_provider.namefield: where an OAuth2 provider's userinfo names the user (dotted path, '' for
 *   the usual fields).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await grantPersonalSecurity(db);
  await db.schema
    .alterTable('identity_provider')
    .addColumn('namefield', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

/** Idempotent: only roles lacking the code gain it. */
export async function grantPersonalSecurity<T>(db: Kysely<T>): Promise<void> {
  await sql`
    insert into role_auth (roleid, code, orgi)
    select r.id, 'A09_A07_A01', r.orgi from role r
    where not exists (select 1 from role_auth a where a.roleid = r.id and a.code = 'A09_A07_A01')
  `.execute(db);
}
