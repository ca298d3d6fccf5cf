/**
 * B1/B2 on PostgreSQL as users run it: fsync, synchronous_commit and full_page_writes on, in a throwaway
 * instance the bench starts itself (the test services, and the plain PostgreSQL lines, run with them off).
 * Same load, baseline and targets as the other PostgreSQL lines; every acknowledged message waited for its
 * commit's WAL flush.
 */
import { deliveryAndThroughput } from './realtime.js';
import { withPgAdmin } from './lib/kefu.js';
import { pgBin, startDurablePostgres } from './lib/pg-instance.js';
import type { Mode, Row, Skip } from './lib/report.js';

export async function durablePostgres(mode: Mode, log: (s: string) => void): Promise<Row[] | Skip> {
  if (!pgBin()) return { id: 'B1/B2 PostgreSQL fsync on', reason: 'PostgreSQL is not installed' };
  const pg = await startDurablePostgres();
  try {
    const rows = await withPgAdmin(pg.url, () => deliveryAndThroughput('postgres', mode, log));
    return rows.map((r) => ({ ...r, metric: r.metric.replace('PostgreSQL', 'PostgreSQL fsync on') }));
  } finally {
    pg.stop();
  }
}
