/**
 * B8 contacts baseline: bare node:http serving GET /c?i=<case> with the same SQL GET /api/contacts/index
 * runs (contacts-sql.ts), on the same database, answering the same envelope (no auth, no framework, no
 * presenter).
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { contactCases, runCase, type BenchDialect } from '../contacts-sql.js';

const dialect = process.env.BENCH_DIALECT as BenchDialect;
const cases = contactCases(dialect, Number(process.env.BENCH_CONTACTS));
const sqlite =
  dialect === 'sqlite'
    ? new SQLite(join(process.env.KEFU_DATA_DIR ?? '.', 'kefu.sqlite'), { readonly: true })
    : null;
const pool =
  dialect === 'postgres' ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 }) : null;
const statements = new Map<string, SQLite.Statement>();
const prepared = (db: SQLite.Database, text: string) => {
  let st = statements.get(text);
  if (!st) statements.set(text, (st = db.prepare(text)));
  return st;
};
const query = async (text: string, args: unknown[]) =>
  sqlite
    ? (prepared(sqlite, text).all(...args) as Array<Record<string, unknown>>)
    : ((await pool!.query(text, args)).rows as Array<Record<string, unknown>>);

createServer((req, res) => {
  const c = cases[Number(new URL(req.url ?? '/', 'http://x').searchParams.get('i'))];
  if (!c) {
    res.writeHead(404).end();
    return;
  }
  runCase(c, query).then(
    ({ list, total }) => {
      const body = { success: true, data: { list, total, page: 1, size: 20 }, msg: 'ok', code: 200 };
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    },
    (err: unknown) => res.writeHead(500).end(String(err)),
  );
}).listen(Number(process.env.PORT), '127.0.0.1');

process.once('SIGTERM', () => process.exit(0));
