import type { QualityNotice } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { toAgents, type Engine } from '../conversation/engine.js';
import { settings } from './scorecard.service.js';

/**
 * Tells an agent about their results (socket event `quality` on /im/agent). The engine is known once the
 * app is ready; without one (an app with no realtime) nothing is sent, and GET count's mineUnseen still
 * tells the console. Emit only after the change committed.
 */
const engines = new WeakMap<Db, Engine>();

export const useEngine = (db: Db, e: Engine): void => void engines.set(db, e);

export function notifyAgent(db: Db, agentno: string, n: QualityNotice): void {
  const e = engines.get(db);
  if (e) toAgents(e, [agentno], 'quality', n);
}

/**
 * Reminds agents whose appeal window closes within the tenant's remindHours and who have not appealed.
 * Each result is claimed once (reminded 0 → 1), so several nodes running this remind once.
 */
export async function remindDue(db: Db, now = Date.now()): Promise<number> {
  const k = db.kysely;
  const due = await k
    .selectFrom('quality_inspection')
    .select(['id', 'orgi', 'agentno', 'agentserviceid', 'score', 'pass', 'appealuntil'])
    .where('status', '=', 'sent')
    .where('reminded', '=', 0)
    .where('appeal', 'is', null)
    .where('appealuntil', '>', now)
    .limit(1000)
    .execute();
  let sent = 0;
  const cfgs = new Map<string, number>();
  for (const r of due) {
    let hours = cfgs.get(r.orgi);
    if (hours === undefined) cfgs.set(r.orgi, (hours = (await settings(db, r.orgi)).remindHours));
    if (hours <= 0 || Number(r.appealuntil) - now > hours * 3_600_000) continue;
    const claimed = await k
      .updateTable('quality_inspection')
      .set({ reminded: 1 })
      .where('id', '=', r.id)
      .where('reminded', '=', 0)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    notifyAgent(db, r.agentno, {
      type: 'remind',
      inspectionid: r.id,
      agentserviceid: r.agentserviceid,
      score: r.score,
      pass: r.pass === null ? null : Number(r.pass) === 1,
      appealuntil: Number(r.appealuntil),
    });
    sent++;
  }
  return sent;
}
