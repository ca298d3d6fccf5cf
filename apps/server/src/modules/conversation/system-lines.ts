import type { EndBy, SystemLineDto } from '@kefu/protocol';
import type { Engine } from './engine.js';
import type { AgentServiceRow } from './presenter.js';
import { agentInfo, assignedText } from './routing.service.js';
import { fillText, loadSessionConfig } from './session-config.js';
import { localizedConfig } from '../texts/texts.service.js';

/**
 * The visitor's notices of a conversation that are not stored messages, rebuilt from its facts: the
 * welcome at its start, the agent who took it, each accepted transfer, the end. Texts as the visitor got
 * them (its language, the current texts of the prompts).
 */
export async function systemLinesOf(e: Engine, s: AgentServiceRow): Promise<SystemLineDto[]> {
  const k = e.db.kysely;
  const cfg = await localizedConfig(k, await loadSessionConfig(e.db, s.orgi), s.orgi, s.language);
  const transfers = await k
    .selectFrom('transfer_request')
    .select(['from_agent', 'to_agent', 'decidedtime'])
    .where('agentserviceid', '=', s.id)
    .where('status', '=', 'accepted')
    .orderBy('decidedtime')
    .execute();
  const names = new Map<string, string>();
  const name = async (id: string | null) => {
    if (!id) return '';
    let n = names.get(id);
    if (n === undefined) names.set(id, (n = (await agentInfo(e, id)).nickname));
    return n;
  };
  const lines: SystemLineDto[] = [
    { kind: 'welcome', text: cfg.sessionmsg, agent: '', createtime: Number(s.createtime) },
  ];
  if (s.servicetime !== null) {
    const first = await agentInfo(e, transfers[0]?.from_agent ?? s.agentno ?? '');
    lines.push({
      kind: 'assigned',
      text: assignedText(cfg, first, false),
      agent: first.nickname,
      createtime: Number(s.servicetime),
    });
  }
  for (const t of transfers) {
    const to = { id: t.to_agent, nickname: await name(t.to_agent) };
    lines.push({
      kind: 'transfer',
      text: assignedText(cfg, to, true),
      agent: to.nickname,
      createtime: Number(t.decidedtime ?? s.servicetime ?? s.createtime),
    });
  }
  if (s.status === 'end' && s.endtime !== null) {
    const agent = await name(s.agentno);
    lines.push({
      kind: 'end',
      text: fillText(cfg.finessmsg, { agent }),
      agent,
      endby: (s.endby ?? 'system') as EndBy,
      createtime: Number(s.endtime),
    });
  }
  return lines;
}
