/**
 * `npm run analysis:demo [days] [conversations]`: adds generated statistics data (analysis.fixtures.ts) to
 * the configured database (DATABASE_URL / KEFU_DATA_DIR) over the last `days` days, then rebuilds the
 * rollups. For demos, screenshots and the browser e2e run; never for a production database.
 */
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../platform/db/database.js';
import { migrate } from '../../platform/db/migrate.js';
import { generateDataset } from './analysis.fixtures.js';
import { rebuildTenant } from './rebuild.js';
import { listenStats } from './hooks.js';
import { Rollups } from './rollups.js';

const days = Number(process.argv[2] ?? 60);
const conversations = Number(process.argv[3] ?? 600);
const db = openDatabase(loadConfig(process.env));
try {
  await migrate(db);
  // Visits are written by the maintenance (region, browser and engine worked out there): run it here.
  const rollups = new Rollups(db);
  listenStats(db, rollups);
  const start = Date.now() - days * 86_400_000;
  const ds = await generateDataset(db, {
    start,
    days,
    conversations,
    visits: conversations * 2,
    seed: Date.now() % 100_000,
  });
  await rollups.idle();
  const r = await rebuildTenant(db, ds.orgi);
  console.log(
    `analysis demo: ${r.conversations} conversations, ${r.visits} visits, ${r.stateChanges} state changes`,
  );
} finally {
  await db.close();
}
