import type { Db } from '../../platform/db/database.js';
import { tokensOf } from '../../platform/search/tokens.js';

const BATCH = 200;
const PAUSE_MS = 20;

/**
 * Messages stored before migration 0008 have no search words (tokens null): they are indexed here in the
 * background, a small batch at a time with a pause between, so a large history never holds the event loop
 * or the writer for long. Setting the words fires the index trigger (SQLite) / enters the GIN index
 * (PostgreSQL). Several nodes may run it at once: each row is only set while still null.
 */
export function startTokenBackfill(db: Db): { stop(): void; done: Promise<number> } {
  let stopped = false;
  const done = (async () => {
    let total = 0;
    while (!stopped) {
      const rows = await db.kysely
        .selectFrom('chat_message')
        .select(['id', 'msgtype', 'message', 'filename'])
        .where('tokens', 'is', null)
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      await db.kysely.transaction().execute(async (trx) => {
        for (const r of rows) {
          const tokens = tokensOf(r.msgtype === 'text' ? r.message : (r.filename ?? ''));
          await trx
            .updateTable('chat_message')
            .set({ tokens })
            .where('id', '=', r.id)
            .where('tokens', 'is', null)
            .execute();
        }
      });
      total += rows.length;
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
    return total;
  })().catch((err: unknown) => {
    if (!stopped) console.warn('message search backfill stopped', err);
    return 0;
  });
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}
