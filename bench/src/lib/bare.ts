import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { KefuDb } from './kefu.js';

export type BareRows = Array<Record<string, unknown>>;

/**
 * The bench process's own connection to a kefu database, for the "bare SQL" baselines: SQLite read-only with
 * its statements prepared once (as the server does), or a PostgreSQL client. `query` takes the dialect's
 * placeholders.
 */
export async function bareSql(
  kdb: KefuDb,
): Promise<{ query(text: string, args: readonly unknown[]): Promise<BareRows>; close(): Promise<void> }> {
  if (kdb.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: kdb.databaseUrl });
    await client.connect();
    return {
      query: async (text, args) => (await client.query(text, [...args])).rows as BareRows,
      close: () => client.end(),
    };
  }
  const sqlite = new SQLite(join(kdb.dataDir, 'kefu.sqlite'), { readonly: true });
  const cache = new Map<string, SQLite.Statement>();
  return {
    query: async (text, args) => {
      let st = cache.get(text);
      if (!st) cache.set(text, (st = sqlite.prepare(text)));
      return st.all(...args) as BareRows;
    },
    close: async () => {
      sqlite.close();
    },
  };
}
