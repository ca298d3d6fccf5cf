import { CompiledQuery, sql } from 'kysely';
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

/** Runs a fixed statement (`?` placeholders, no `?` anywhere else in the text). */
export async function runFixed<R>(
  k: Kdb,
  text: string,
  params: readonly unknown[],
): Promise<{ rows: R[]; affected: number }> {
  const r = await k.executeQuery<R>(CompiledQuery.raw(textFor(k, text), [...params]));
  return { rows: r.rows, affected: Number(r.numAffectedRows ?? 0n) };
}

const insertText = new Map<string, string>();

/**
 * `insert into <table> (<columns of row>) values (...) returning *`; undefined fields are left out, as
 * Kysely does. `computed` adds columns whose value is a fixed SQL expression (with its own parameters).
 */
export async function insertReturning<R>(
  k: Kdb,
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
