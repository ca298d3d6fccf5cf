import { CompiledQuery, sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Db } from '../../platform/db/database.js';
import { heldSqliteTransaction, numberedPlaceholders } from '../../platform/db/raw.js';
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
    numberedText.set(text, (t = numberedPlaceholders(text)));
  }
  return t;
}

/**
 * The SQLite connection under Kysely, used directly (prepared statements, no Kysely round per statement)
 * while Kysely's connection is held (heldSqliteTransaction, via batched).
 */
export class HeldSqlite {
  constructor(readonly stmt: (text: string) => SQLite.Statement) {}
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

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
interface Job {
  fn: (k: Sql) => Promise<unknown>;
  done: (o: Outcome) => void;
}
const pending = new WeakMap<Db, Job[]>();

/**
 * Runs `fn` for statements run with runFixed, in a transaction of its own. On SQLite, calls arriving in
 * the same event-loop turn share one: Kysely's single connection is held once (nothing else runs on it
 * meanwhile), all calls run in one BEGIN IMMEDIATE ... COMMIT, with native prepared statements instead of
 * a Kysely round trip each. A failing call loses only its own writes (see flush). Every call is answered
 * after the COMMIT (or all fail with it), so nothing is announced before it is durable.
 * `fn` must use only the `Sql` it is given, never db.kysely: that would wait for the held connection.
 * `fn` may run twice (when another call of its batch fails): anything it does besides its statements
 * must stay right when its first run's statements are rolled back.
 * On PostgreSQL each call is its own Kysely transaction.
 */
export function batched<T>(db: Db, fn: (k: Sql) => Promise<T>): Promise<T> {
  if (!db.sqlite) return db.kysely.transaction().execute((trx) => fn(trx));
  return new Promise<T>((resolve, reject) => {
    const job: Job = { fn, done: (o) => (o.ok ? resolve(o.value as T) : reject(o.error as Error)) };
    const queue = pending.get(db);
    if (queue) {
      queue.push(job);
      return;
    }
    const jobs = [job];
    pending.set(db, jobs);
    setImmediate(() => {
      pending.delete(db);
      void flush(db, jobs);
    });
  });
}

/** A call failed in an optimistic attempt: the attempt is rolled back (and run again isolated). */
class Redo extends Error {}

/*
 * A batch runs optimistically first: its calls one after another with no savepoint between them. A
 * savepoint per call cost SQLite two statements and a copy of every page the call first touches (≈ 14 µs
 * of a new chat's ≈ 240). Calls rarely fail; when one does, the whole attempt is rolled back and the batch
 * runs again with each call in a savepoint of its own, so the failing call loses only its own writes and
 * the others commit as if it had never run. A batch of one call needs no second run: its failure is the
 * whole transaction's.
 */
async function flush(db: Db, jobs: Job[]): Promise<void> {
  let outcomes: Outcome[];
  try {
    outcomes = (await attempt(db, jobs, false)) ?? (await attempt(db, jobs, true))!;
  } catch (error) {
    for (const j of jobs) j.done({ ok: false, error });
    return;
  }
  jobs.forEach((j, i) => j.done(outcomes[i]!));
}

/** One transaction for the batch; without `isolated`, null when a call failed (all rolled back). */
async function attempt(db: Db, jobs: Job[], isolated: boolean): Promise<Outcome[] | null> {
  const outcomes: Outcome[] = [];
  let alone: Outcome | undefined;
  try {
    await heldSqliteTransaction(db, async (stmt) => {
      const held = new HeldSqlite(stmt);
      for (const j of jobs) {
        if (isolated) stmt('savepoint job').run();
        try {
          outcomes.push({ ok: true, value: await j.fn(held) });
        } catch (error) {
          if (!isolated) {
            if (jobs.length === 1) alone = { ok: false, error };
            throw new Redo();
          }
          stmt('rollback to job').run();
          outcomes.push({ ok: false, error });
        }
        if (isolated) stmt('release job').run();
      }
    });
  } catch (err) {
    if (!(err instanceof Redo)) throw err;
    return alone ? [alone] : null;
  }
  return outcomes;
}

/**
 * A unit that commits or rolls back as a whole: a savepoint inside `batched` (or any transaction), else a
 * Kysely transaction of its own.
 */
export async function transact<T>(k: Sql, fn: (k: Sql) => Promise<T>): Promise<T> {
  if (!(k instanceof HeldSqlite) && !k.isTransaction) return k.transaction().execute((trx) => fn(trx));
  await runFixed(k, 'savepoint unit', []);
  try {
    const out = await fn(k);
    await runFixed(k, 'release savepoint unit', []);
    return out;
  } catch (err) {
    await runFixed(k, 'rollback to savepoint unit', []);
    await runFixed(k, 'release savepoint unit', []);
    throw err;
  }
}
