import { sql, type Kysely } from 'kysely';
import type { Db } from './database.js';
import { MIGRATIONS } from './migrations/index.js';

/**
 * Applies pending migrations in order, each in its own transaction, recorded in kefu_migrations.
 * Our own runner (not Kysely's Migrator) so migrations can branch on dialect.
 */
export async function migrate(db: Db): Promise<string[]> {
  // One pinned connection, so the PostgreSQL advisory lock and unlock happen on the same session.
  return db.kysely.connection().execute(async (conn) => {
    const k = conn as unknown as Kysely<{ kefu_migrations: { name: string; applied_at: number } }>;
    return runPending(k, db);
  });
}

async function runPending(
  k: Kysely<{ kefu_migrations: { name: string; applied_at: number } }>,
  db: Db,
): Promise<string[]> {
  await k.schema
    .createTable('kefu_migrations')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('applied_at', 'bigint', (c) => c.notNull())
    .execute();
  if (db.dialect === 'postgres') {
    // Two processes starting together must not both apply the same migration.
    await sql`select pg_advisory_lock(727001)`.execute(k);
  }
  try {
    const done = new Set((await k.selectFrom('kefu_migrations').select('name').execute()).map((r) => r.name));
    const applied: string[] = [];
    for (const [name, mod] of MIGRATIONS) {
      if (done.has(name)) continue;
      await k.transaction().execute(async (trx) => {
        await mod.up(trx as unknown as Kysely<unknown>, db.dialect);
        await trx.insertInto('kefu_migrations').values({ name, applied_at: Date.now() }).execute();
      });
      applied.push(name);
    }
    return applied;
  } finally {
    if (db.dialect === 'postgres') await sql`select pg_advisory_unlock(727001)`.execute(k);
  }
}
