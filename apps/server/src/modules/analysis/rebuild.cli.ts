/**
 * `npm run analysis:rebuild`: rebuilds every tenant's statistics rollups from the raw rows (same
 * DATABASE_URL / KEFU_DATA_DIR as the server). Safe while the server runs only when nobody chats: the
 * maintenance of a conversation ending during the rebuild may be counted twice or not at all.
 */
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../platform/db/database.js';
import { migrate } from '../../platform/db/migrate.js';
import { rebuildAll } from './rebuild.js';

const db = openDatabase(loadConfig(process.env));
try {
  await migrate(db);
  for (const r of await rebuildAll(db))
    console.log(
      `${r.orgi}: ${r.conversations} conversations, ${r.visits} visits, ${r.stateChanges} state changes, ` +
        `${r.invites} invitations → ${r.rows} rollup rows in ${r.ms} ms`,
    );
} finally {
  await db.close();
}
