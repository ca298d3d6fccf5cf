import { CompiledQuery, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Db } from './database.js';
import type { Database } from './schema.js';

/**
 * Hot paths run fixed SQL texts instead of query builders (building and compiling a builder query costs
 * more CPU than SQLite's own work for an indexed one-row statement). These are the pieces they share.
 */

/** `?` placeholders numbered `$1, $2, …` for PostgreSQL. */
export const numberedPlaceholders = (q: string): string => {
  let n = 0;
  return q.replace(/\?/g, () => `$${++n}`);
};

/**
 * `insert into <table> (<columns>) values (?, …)` with the `?` placeholders of the SQLite form (PostgreSQL:
 * through numberedPlaceholders); `computed` appends columns whose value is a fixed SQL expression.
 */
export function insertText(
  table: string,
  columns: readonly string[],
  computed: Readonly<Record<string, string>> = {},
): string {
  const extra = Object.entries(computed);
  const names = [...columns, ...extra.map(([c]) => c)];
  const values = [...columns.map(() => '?'), ...extra.map(([, expr]) => expr)];
  return `insert into ${table} (${names.join(', ')}) values (${values.join(', ')})`;
}

/** Rows of a fixed statement (placeholders already in the dialect's form) run through Kysely. */
export async function rawRows<T>(k: Kysely<Database>, q: string, params: readonly unknown[]): Promise<T[]> {
  return (await k.executeQuery<T>(CompiledQuery.raw(q, [...params]))).rows;
}

const statements = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

/** A prepared statement on the SQLite connection itself, prepared once per text. */
export function rawStatement(raw: SQLite.Database, text: string): SQLite.Statement {
  let m = statements.get(raw);
  if (!m) statements.set(raw, (m = new Map()));
  let st = m.get(text);
  if (!st) m.set(text, (st = raw.prepare(text)));
  return st;
}

/**
 * Runs `fn` in one BEGIN IMMEDIATE … COMMIT on the SQLite connection under Kysely, holding Kysely's
 * connection meanwhile so no Kysely query interleaves (`fn` must not use db.kysely: it would wait for the
 * held connection). COMMIT follows `fn`'s result; if `fn` or the COMMIT throws, the transaction is rolled
 * back and the error passed on.
 */
export function heldSqliteTransaction<T>(
  db: Db,
  fn: (stmt: (text: string) => SQLite.Statement) => Promise<T>,
): Promise<T> {
  const raw = db.sqlite;
  if (!raw) throw new Error('heldSqliteTransaction needs a SQLite database');
  const stmt = (text: string) => rawStatement(raw, text);
  // The executor's connection provider holds the connection without building a Kysely instance around
  // it (what `kysely.connection()` does, per call).
  return db.kysely.getExecutor().provideConnection(async () => {
    stmt('begin immediate').run();
    try {
      const out = await fn(stmt);
      stmt('commit').run();
      return out;
    } catch (err) {
      if (raw.inTransaction) stmt('rollback').run();
      throw err;
    }
  });
}
