import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Third-party login providers per tenant (OpenID Connect or OAuth2-shaped). The identities they vouch for
 * live in user_identity and the login's state/nonce/PKCE tickets in auth_ticket (both from 0012).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('identity_provider')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('issuer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('clientid', 'text', (c) => c.notNull())
    .addColumn('clientsecret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('authorizeurl', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tokenurl', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('userinfourl', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('idfield', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tokenstyle', 'text', (c) => c.notNull().defaultTo('form'))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('identity_provider_orgi_name')
    .on('identity_provider')
    .columns(['orgi', 'name'])
    .unique()
    .execute();
}
