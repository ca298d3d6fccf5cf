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

/** The longest reminder lead a tenant may set (qualitySettingsSchema: remindHours ≤ 720). */
const MAX_LEAD_MS = 720 * 3_600_000;
const PAGE = 1000;

/**
 * Reminds agents whose appeal window closes within the tenant's remindHours and who have not appealed
 * (a draft they never submitted does not count as an appeal). Windows are read soonest first, in pages,
 * up to the longest lead any tenant may set, so results not yet due never hide due ones. Each result is
 * claimed once (reminded 0 → 1), so several nodes running this remind once.
 */
export async function remindDue(db: Db, now = Date.now()): Promise<number> {
  const k = db.kysely;
  let sent = 0;
  const cfgs = new Map<string, number>();
  let after: { until: number; id: string } | null = null;
  for (;;) {
    let q = k
      .selectFrom('quality_inspection')
      .select(['id', 'orgi', 'agentno', 'agentserviceid', 'score', 'pass', 'appealuntil'])
      .where('status', '=', 'sent')
      .where('reminded', '=', 0)
      .where('appeal', 'is', null)
      .where('appealuntil', '>', now)
      .where('appealuntil', '<=', now + MAX_LEAD_MS);
    if (after) {
      const a = after;
      q = q.where((eb) =>
        eb.or([
          eb('appealuntil', '>', a.until),
          eb.and([eb('appealuntil', '=', a.until), eb('id', '>', a.id)]),
        ]),
      );
    }
    const due = await q.orderBy('appealuntil').orderBy('id').limit(PAGE).execute();
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
    if (due.length < PAGE) return sent;
    const last = due[due.length - 1]!;
    after = { until: Number(last.appealuntil), id: last.id };
  }
}
