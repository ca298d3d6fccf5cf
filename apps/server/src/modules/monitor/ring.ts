import { userDisplayName } from '@kefu/protocol';
import type { MonitorRuleDto } from '@kefu/protocol';
import { AppError } from '../../platform/http/errors.js';
import { toAgents, type Engine } from '../conversation/engine.js';
import * as arepo from '../conversation/agent-status.repository.js';
import * as srepo from '../conversation/service.repository.js';
import { setAgentState } from '../conversation/agentstate.service.js';
import { orderCandidates } from '../conversation/routing.service.js';
import { loadSessionConfig } from '../conversation/session-config.js';
import { audit } from './audit.js';
import type { MonitorFeed } from './feed.js';
import { moveChat } from './move.service.js';
import * as repo from './monitor.repository.js';
import { answeredSince, countMiss, loadRules, resetMisses, ringOf } from './supervision.repository.js';

/**
 * Ring-no-answer (per skill group: monitor_rule.ringtimeout, ringmisses). A chat whose agent has not
 * replied within the group's time since it got the chat is moved, quietly (the visitor was greeted once),
 * to another ready agent of the group with room; with nobody free it stays and is tried again at the next
 * sweep. Each move counts a miss for the agent (a reply on any chat since its last miss starts the count
 * over); at `ringmisses` in a row the agent is set notready and told. Every step is audited. The move's
 * conditional update is the claim: on many nodes a chat moves once.
 */
export async function ringSweep(e: Engine, feed: MonitorFeed): Promise<void> {
  const k = e.db.kysely;
  const orgs = await k
    .selectFrom('monitor_rule')
    .select('orgi')
    .distinct()
    .where('ringtimeout', '>', 0)
    .execute();
  for (const { orgi } of orgs) {
    const rules = await loadRules(k, orgi);
    const times = rules.list.map((r) => r.ringtimeout).filter((n) => n > 0);
    if (times.length === 0) continue;
    const now = e.clock.now();
    for (const c of await repo.unrepliedSince(k, orgi, now - Math.min(...times) * 1000)) {
      const rule = rules.of(c.organ);
      if (rule.ringtimeout > 0 && now - c.assigned >= rule.ringtimeout * 1000)
        await reroute(e, feed, c.id, rule);
    }
  }
}

async function reroute(e: Engine, feed: MonitorFeed, id: string, rule: MonitorRuleDto): Promise<void> {
  const k = e.db.kysely;
  const s = await srepo.findService(k, id);
  const from = s?.agentno;
  if (!s || !from || s.status !== 'inservice') return;
  const cfg = await loadSessionConfig(e.db, s.orgi);
  const list = (await arepo.readyCandidates(k, s.orgi, s.organ, null)).filter((a) => a.userid !== from);
  const to = orderCandidates(list, { ...cfg, lastagent: false }, null)[0]?.userid;
  if (!to) return;
  try {
    await moveChat(e, s, to, {
      requireReady: true,
      memo: 'ring',
      quiet: true,
      notice: { type: 'ring', message: '' },
    });
  } catch (err) {
    // Taken meanwhile (another node, the agent replied and it moved on, the target filled up).
    if (err instanceof AppError) return;
    throw err;
  }
  const now = e.clock.now();
  const ring = await ringOf(k, from);
  const answered = ring ? await answeredSince(k, from, Number(ring.lastmiss)) : false;
  const misses = await countMiss(k, s.orgi, from, now, answered);
  const system = { system: true as const, orgi: s.orgi };
  await audit(e, system, 'ringReroute', {
    agentserviceid: s.id,
    target: from,
    organ: s.organ,
    detail: JSON.stringify({ to, misses }),
  });
  const agent = await k
    .selectFrom('users')
    .select(['nickname', 'uname', 'username'])
    .where('id', '=', from)
    .executeTakeFirst();
  feed.alert(
    s.orgi,
    { organ: s.organ, agentno: from },
    {
      type: 'ring',
      agentserviceid: s.id,
      agentno: from,
      agentname: userDisplayName(agent),
      username: s.username,
      organ: s.organ,
      since: Number(s.transtime ?? s.servicetime ?? now),
      limit: rule.ringtimeout,
      createtime: now,
    },
  );
  if (rule.ringmisses > 0 && misses >= rule.ringmisses) {
    await setAgentState(e, from, 'notready', 'ring');
    toAgents(e, [from], 'notice', { type: 'ring_notready', message: String(misses) });
    await resetMisses(k, from);
    await audit(e, system, 'ringNotready', { target: from, organ: s.organ, detail: String(misses) });
  }
}
