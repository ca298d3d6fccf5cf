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

/** Broadcasts the monitor counters to every agent of the tenant (reference: publishMessage). */
export async function publishReport(
  e: Engine,
  orgi: string,
  worktype: string,
  workresult: string,
  dataid: string,
): Promise<void> {
  toOrgAgents(e, orgi, 'status', await buildReport(e, orgi, worktype, workresult, dataid));
}
