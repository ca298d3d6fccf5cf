import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { CODES } from '@kefu/protocol';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { AppError } from '../http/errors.js';
import { LOW_PRIORITY_THREAD } from '../threads.js';

/**
 * Heavy reads (history search and lists, export chunks) away from live chat. SQLite: a worker thread with a
 * read-only connection of its own (WAL lets it read while the writer commits), one statement at a time, at
 * a low scheduling priority (threads.ts): the event loop never runs a search, and a search yields the core
 * to live chat. A statement that runs past the time limit is stopped by ending the thread (a
 * new one starts for the next). PostgreSQL: a small pool of its own (2 connections) with statement_timeout,
 * so searches never take the connections the message writer needs. Past the limit: search_timeout.
 */
export interface ReadQuery {
  sql: string;
  parameters: readonly unknown[];
}

export interface SearchReader {
  rows<T>(q: ReadQuery): Promise<T[]>;
  close(): Promise<void>;
}

/** KEFU_SEARCH_TIMEOUT_MS, default 10 s. */
export const searchTimeoutMs = (): number => Number(process.env.KEFU_SEARCH_TIMEOUT_MS ?? 10_000);

const timeout = () => new AppError('search_timeout', CODES.badRequest);

const WORKER = `${LOW_PRIORITY_THREAD}
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// Searches and exports read wide spans of a large file: pages mapped instead of read() one by one, and a
// page cache of their own bigger than SQLite's 2 MB default.
db.pragma('mmap_size = 268435456');
db.pragma('cache_size = -65536');
const cache = new Map();
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let st = cache.get(sql);
    if (!st) {
      st = db.prepare(sql);
      cache.set(sql, st);
      if (cache.size > 200) cache.delete(cache.keys().next().value);
    }
    parentPort.postMessage({ id, rows: st.all(params) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

interface Pending {
  id: number;
  q: ReadQuery;
  resolve(rows: unknown[]): void;
  reject(err: unknown): void;
}

class SqliteReader implements SearchReader {
  private worker: Worker | null = null;
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private seq = 0;
  private closed = false;

  constructor(private readonly file: string) {}

  rows<T>(q: ReadQuery): Promise<T[]> {
    if (this.closed) return Promise.reject(new Error('search reader closed'));
    return new Promise<T[]>((resolve, reject) => {
      this.queue.push({ id: ++this.seq, q, resolve: resolve as (r: unknown[]) => void, reject });
      this.next();
    });
  }

  private spawn(): Worker {
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const w = new Worker(WORKER, { eval: true, workerData: { file: this.file, module } });
    w.unref();
    w.on('message', (m: { id: number; rows?: unknown[]; error?: string }) => this.done(m));
    w.on('error', (err) => this.lost(w, err));
    w.on('exit', () => this.lost(w, new Error('search reader stopped')));
    return w;
  }

  private next(): void {
    if (this.current || this.closed) return;
    const p = this.queue.shift();
    if (!p) return;
    this.current = p;
    this.worker ??= this.spawn();
    this.timer = setTimeout(() => {
      // The statement cannot be interrupted from here: the thread goes, and with it the statement.
      const w = this.worker;
      this.worker = null;
      this.settle((c) => c.reject(timeout()));
      void w?.terminate();
    }, searchTimeoutMs());
    this.worker.postMessage({ id: p.id, sql: p.q.sql, params: p.q.parameters });
  }

  private settle(fn: (p: Pending) => void): void {
    const p = this.current;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    if (p) fn(p);
    this.next();
  }

  private done(m: { id: number; rows?: unknown[]; error?: string }): void {
    if (m.id !== this.current?.id) return;
    this.settle((p) => (m.error !== undefined ? p.reject(new Error(m.error)) : p.resolve(m.rows ?? [])));
  }

  private lost(w: Worker, err: Error): void {
    if (this.worker !== w) return;
    this.worker = null;
    this.settle((p) => p.reject(err));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('search reader closed'));
    const w = this.worker;
    this.worker = null;
    this.settle((p) => p.reject(new Error('search reader closed')));
    await w?.terminate();
  }
}

class PostgresReader implements SearchReader {
  private readonly pool: pg.Pool;
  constructor(url: string) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 2,
      statement_timeout: searchTimeoutMs(),
      application_name: 'kefu-search',
    });
    this.pool.on('error', (err) => console.warn(`postgres (search): idle connection lost: ${err.message}`));
  }

  async rows<T>(q: ReadQuery): Promise<T[]> {
    try {
      return (await this.pool.query({ text: q.sql, values: [...q.parameters] })).rows as T[];
    } catch (err) {
      // 57014: canceled by statement_timeout.
      if ((err as { code?: string }).code === '57014') throw timeout();
      throw err;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

const readers = new WeakMap<Db, SearchReader>();

/** This database's search reader (created on first use; closed with the app by its first user). */
export function searchReader(ctx: Pick<AppContext, 'db' | 'config'>): SearchReader {
  let r = readers.get(ctx.db);
  if (!r) {
    r =
      ctx.db.dialect === 'postgres' && ctx.config.databaseUrl
        ? new PostgresReader(ctx.config.databaseUrl)
        : new SqliteReader(ctx.db.sqlite?.name ?? join(ctx.config.dataDir, 'kefu.sqlite'));
    readers.set(ctx.db, r);
  }
  return r;
}

/** Closes and forgets this database's reader (app shutdown). */
export async function closeSearchReader(db: Db): Promise<void> {
  const r = readers.get(db);
  readers.delete(db);
  await r?.close();
}
