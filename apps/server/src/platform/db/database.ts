import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../../config.js';
import { startCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './checkpointer.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * The SQLite connection under Kysely, for hot paths that run a whole transaction synchronously. Use it
   * only while holding Kysely's connection (`kysely.connection().execute(...)`), so no Kysely
   * transaction is open on it at the same time.
   */
  sqlite?: SQLite.Database;
  /**
   * The PostgreSQL pool under Kysely, for hot statements run as named prepared statements (parsed and
   * planned once per connection instead of on every call).
   */
  pool?: pg.Pool;
  close(): Promise<void>;
}

// int8 (epoch-ms times, counts) arrive as strings by default; every value we store fits a double.
pg.types.setTypeParser(20, (v) => Number(v));

export function openDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): Db {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle pooled connection that the server closes (restart, failover, admin termination) emits
    // 'error' on the pool; unhandled, that kills the process. The pool replaces the connection itself.
    pool.on('error', (err) => console.warn(`postgres: idle connection lost: ${err.message}`));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', pool, close: () => kysely.destroy() };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'kefu.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
  const checkpointer = startCheckpointer(file);
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
  });
  return {
    kysely,
    dialect: 'sqlite',
    sqlite,
    close: async () => {
      await checkpointer.stop();
      await kysely.destroy();
    },
  };
}

/**
 * Kysely prepares every query anew; preparing costs as much as running a small query. The app issues a
 * bounded set of SQL strings, so statements are kept by SQL text (LRU-bounded). A statement still being
 * iterated (a stream) is never handed out twice.
 */
export function cachingStatements(db: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = db.prepare(sql);
      if (!hit) {
        cache.set(sql, stmt);
        if (cache.size > max) cache.delete(cache.keys().next().value as string);
      }
      return stmt;
    },
  };
}
