import type { AgentReportDto } from '@kefu/protocol';
import { toOrgAgents, type Engine } from './engine.js';
import { orgStatuses } from './agent-status.repository.js';

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

interface ReportState {
  running: Promise<void> | null;
  /** The latest change that arrived while a report was being built; one follow-up report carries it. */
  next: { worktype: string; workresult: string; dataid: string } | null;
  again: Promise<void> | null;
}
const reports = new WeakMap<Engine, Map<string, ReportState>>();

/**
 * Broadcasts the monitor counters to every agent of the tenant (reference: publishMessage). The report
 * goes to every agent, so a burst of routing changes would cost changes × agents emits: per tenant and
 * node one report is built at a time, and changes arriving meanwhile collapse into one follow-up report
 * (read after they happened, with the latest change's worktype), so agents always end on fresh counters.
 */
export function publishReport(
  e: Engine,
  orgi: string,
  worktype: string,
  workresult: string,
  dataid: string,
): Promise<void> {
  let byOrg = reports.get(e);
  if (!byOrg) reports.set(e, (byOrg = new Map()));
  let st = byOrg.get(orgi);
  if (!st) byOrg.set(orgi, (st = { running: null, next: null, again: null }));
  const state = st;
  if (!state.running) {
    state.running = buildReport(e, orgi, worktype, workresult, dataid)
      .then((r) => toOrgAgents(e, orgi, 'status', r))
      .finally(() => {
        state.running = null;
      });
    return state.running;
  }
  state.next = { worktype, workresult, dataid };
  if (!state.again) {
    state.again = state.running
      .catch(() => undefined)
      .then(() => {
        state.again = null;
        const n = state.next;
        state.next = null;
        return n ? publishReport(e, orgi, n.worktype, n.workresult, n.dataid) : undefined;
      });
  }
  return state.again;
}
