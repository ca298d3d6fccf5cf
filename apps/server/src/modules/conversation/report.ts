import type { AgentReportDto } from '@kefu/protocol';
import { toOrgAgents, type Engine } from './engine.js';
import { orgStatuses } from './agent-status.repository.js';
import { reportedChange } from './changes.js';

export async function buildReport(
  e: Engine,
  orgi: string,
  worktype: string,
  workresult: string,
  dataid: string,
): Promise<AgentReportDto> {
  const k = e.db.kysely;
  const statuses = await orgStatuses(k, orgi);
  const q = await k
    .selectFrom('agent_service')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('orgi', '=', orgi)
    .where('status', '=', 'inqueue')
    .executeTakeFirst();
  const online = statuses.filter((s) => s.status !== 'notready');
  return {
    orgi,
    agents: online.length,
    readyagents: online.filter((s) => s.status === 'ready').length,
    busy: online.filter((s) => s.status === 'busy').length,
    users: statuses.reduce((n, s) => n + s.users, 0),
    inquene: Number(q?.n ?? 0),
    worktype,
    workresult,
    dataid,
    createtime: e.clock.now(),
  };
}

/** At most one monitor report per tenant (and node) in this window. */
export const REPORT_INTERVAL_MS = 250;

interface Throttle {
  /** The latest change not yet reported (its worktype/workresult/dataid go out with the counters). */
  next: { worktype: string; workresult: string; dataid: string } | null;
  timer: ReturnType<typeof setTimeout> | null;
}
const throttles = new WeakMap<Engine, Map<string, Throttle>>();

/**
 * Broadcasts the monitor counters to every agent of the tenant (reference: publishMessage), coalesced:
 * a change starts a REPORT_INTERVAL_MS window; at its end (trailing edge) the counters are read fresh and
 * sent once, labelled with the latest change. Changes meanwhile (or while that report is being built)
 * schedule one more report a full window later, so reports are ≥ REPORT_INTERVAL_MS apart and one always
 * follows the last change. A burst of N routing changes costs one report per window, not N × agents emits.
 */
export function publishReport(
  e: Engine,
  orgi: string,
  worktype: string,
  workresult: string,
  dataid: string,
): Promise<void> {
  reportedChange(e, orgi, worktype, dataid);
  let byOrg = throttles.get(e);
  if (!byOrg) throttles.set(e, (byOrg = new Map()));
  let t = byOrg.get(orgi);
  if (!t) byOrg.set(orgi, (t = { next: null, timer: null }));
  t.next = { worktype, workresult, dataid };
  if (!t.timer) schedule(e, orgi, t);
  return Promise.resolve();
}

function schedule(e: Engine, orgi: string, t: Throttle): void {
  t.timer = setTimeout(() => {
    const change = t.next;
    t.next = null;
    void (async () => {
      if (change && !e.closing.value)
        toOrgAgents(
          e,
          orgi,
          'status',
          await buildReport(e, orgi, change.worktype, change.workresult, change.dataid),
        );
    })()
      .catch((err: unknown) => {
        if (!e.closing.value) console.error('monitor report failed', err);
      })
      .finally(() => {
        t.timer = null;
        if (t.next) schedule(e, orgi, t);
      });
  }, REPORT_INTERVAL_MS);
  t.timer.unref?.();
}
