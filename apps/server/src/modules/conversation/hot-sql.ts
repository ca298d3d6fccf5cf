import { CompiledQuery, sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Db } from '../../platform/db/database.js';
import type { Kdb } from './engine.js';

/*
 * The statements every new chat runs, as fixed SQL text instead of query builders: building and compiling
 * a builder query (expression builders, frozen operation nodes, a new SQL string hashed again by the
 * statement cache) cost several times more CPU than SQLite's own work for these indexed one-row
 * statements. Written with `?` placeholders in portable SQL (SQLite and PostgreSQL); numbered for
 * PostgreSQL once per text.
 */

/** Per dialect adapter: whether placeholders are numbered ($1) rather than `?`. */
const numberedBy = new WeakMap<object, boolean>();
const numberedText = new Map<string, string>();

function numbered(k: Kdb): boolean {
  const adapter = k.getExecutor().adapter;
  let n = numberedBy.get(adapter);
  if (n === undefined) numberedBy.set(adapter, (n = sql`${0}`.compile(k).sql !== '?'));
  return n;
}

function textFor(k: Kdb, text: string): string {
  if (!numbered(k)) return text;
  let t = numberedText.get(text);
  if (t === undefined) {
    let i = 0;
    numberedText.set(text, (t = text.replace(/\?/g, () => `$${++i}`)));
  }
  return t;
}

/**
 * The SQLite connection under Kysely, used directly (prepared statements, no Kysely round per statement)
 * while Kysely's connection is held: see inTransaction.
 */
export class HeldSqlite {
  private static readonly stmts = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();
  constructor(private readonly db: SQLite.Database) {}

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  stmt(text: string): SQLite.Statement {
    let m = HeldSqlite.stmts.get(this.db);
    if (!m) HeldSqlite.stmts.set(this.db, (m = new Map()));
    let st = m.get(text);
    if (!st) m.set(text, (st = this.db.prepare(text)));
    return st;
  }
}

/** Where a fixed statement runs: through Kysely, or on the held SQLite connection. */
export type Sql = Kdb | HeldSqlite;

/** Runs a fixed statement (`?` placeholders, no `?` anywhere else in the text). */
export async function runFixed<R>(
  k: Sql,
  text: string,
  params: readonly unknown[],
): Promise<{ rows: R[]; affected: number }> {
  if (k instanceof HeldSqlite) {
    const st = k.stmt(text);
    if (st.reader) return { rows: st.all(...params) as R[], affected: 0 };
    return { rows: [], affected: st.run(...params).changes };
  }
  const r = await k.executeQuery<R>(CompiledQuery.raw(textFor(k, text), [...params]));
  return { rows: r.rows, affected: Number(r.numAffectedRows ?? 0n) };
}

/**
 * Runs `fn` with one connection for statements run with runFixed. On SQLite it holds Kysely's single
 * connection (nothing else runs on it meanwhile) and `fn` gets that connection itself: a new chat's reads
 * and writes cost native calls instead of a Kysely round trip each. `fn` must use only the `Sql` it is
 * given, never db.kysely: that would wait for the held connection forever.
 */
export async function withConnection<T>(db: Db, fn: (k: Sql) => Promise<T>): Promise<T> {
  const raw = db.sqlite;
  if (!raw) return fn(db.kysely);
  return db.kysely.connection().execute(() => fn(new HeldSqlite(raw)));
}

/** A transaction on `k` (BEGIN IMMEDIATE on a held SQLite connection, else a Kysely transaction). */
export async function transact<T>(k: Sql, fn: (k: Sql) => Promise<T>): Promise<T> {
  if (!(k instanceof HeldSqlite)) return k.transaction().execute((trx) => fn(trx));
  k.stmt('begin immediate').run();
  try {
    const out = await fn(k);
    k.stmt('commit').run();
    return out;
  } catch (err) {
    if (k.inTransaction) k.stmt('rollback').run();
    throw err;
  }
}

const insertText = new Map<string, string>();

/**
 * `insert into <table> (<columns of row>) values (...) returning *`; undefined fields are left out, as
 * Kysely does. `computed` adds columns whose value is a fixed SQL expression (with its own parameters).
 */
export async function insertReturning<R>(
  k: Sql,
  table: string,
  row: Readonly<Record<string, unknown>>,
  computed?: { column: string; expr: string; params: readonly unknown[] },
): Promise<R> {
  const cols: string[] = [];
  const params: unknown[] = [];
  for (const c of Object.keys(row)) {
    const v = row[c];
    if (v === undefined || c === computed?.column) continue;
    cols.push(c);
    params.push(v);
  }
  const key = `${table}|${cols.join(',')}|${computed?.column ?? ''}|${computed?.expr ?? ''}`;
  let text = insertText.get(key);
  if (text === undefined) {
    const names = [...cols, ...(computed ? [computed.column] : [])].map((c) => `"${c}"`).join(', ');
    const values = [...cols.map(() => '?'), ...(computed ? [computed.expr] : [])].join(', ');
    insertText.set(key, (text = `insert into "${table}" (${names}) values (${values}) returning *`));
  }
  const r = await runFixed<R>(k, text, computed ? [...params, ...computed.params] : params);
  const out = r.rows[0];
  if (!out) throw new Error(`insert into ${table} returned no row`);
  return out;
}
