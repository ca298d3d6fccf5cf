import { HEARTBEAT_CHECK_INTERVAL_MS } from '@kefu/protocol';
import { affected, toAgents, type Engine } from './engine.js';
import { heartbeatSweep } from './agentstate.service.js';
import { endConversation } from './lifecycle.service.js';
import { systemMessage } from './message.service.js';
import { loadSessionConfig, type SessionConfig } from './session-config.js';
import { localizedConfig } from '../texts/texts.service.js';
import { transferSweep } from './transfer.service.js';

export const SESSION_SWEEP_MS = 5_000;

/**
 * Session timers of session_config (reference WebIMTask, every 5 s). Every step claims its work with a
 * conditional UPDATE, so on many nodes each warning is sent once.
 */
export async function sessionSweep(e: Engine): Promise<void> {
  const k = e.db.kysely;
  const now = e.clock.now();
  const orgs = await k
    .selectFrom('agent_service')
    .select('orgi')
    .distinct()
    .where('status', 'in', ['inqueue', 'inservice'])
    .execute();
  for (const { orgi } of orgs) {
    const base = await loadSessionConfig(e.db, orgi);
    const open = await k
      .selectFrom('agent_service')
      .selectAll()
      .where('orgi', '=', orgi)
      .where('status', 'in', ['inqueue', 'inservice'])
      .execute();
    const texts = new Map<string, SessionConfig>();
    for (const s of open) {
      // The warnings are sent in the visitor's language (the agent sees the same line).
      let cfg = texts.get(s.language);
      if (!cfg) texts.set(s.language, (cfg = await localizedConfig(k, base, orgi, s.language)));
      if (s.status === 'inqueue') {
        // A robot chat handed to a human waits from its handoff (queuetime), not from its start.
        if (cfg.quene && now - (s.queuetime ?? s.createtime) >= cfg.quenetimeout * 1000) {
          await systemMessage(e, s, cfg.quenetimeoutmsg, 'queue-timeout');
          await endConversation(e, s.id, 'queue');
        }
        continue;
      }
      const lastVisitor = s.lastmessage ?? s.servicetime ?? s.createtime;
      if (cfg.sessiontimeout && s.idle_warned === 0 && now - lastVisitor >= cfg.timeout * 1000) {
        const r = await k
          .updateTable('agent_service')
          .set({ idle_warned: 1, idle_warntime: now })
          .where('id', '=', s.id)
          .where('idle_warned', '=', 0)
          .executeTakeFirst();
        if (affected(r) === 1) await systemMessage(e, s, cfg.timeoutmsg, 'idle-warn');
        continue;
      }
      if (
        cfg.resessiontimeout &&
        s.idle_warned === 1 &&
        s.idle_warntime !== null &&
        now - s.idle_warntime >= cfg.retimeout * 1000
      ) {
        const r = await k
          .updateTable('agent_service')
          .set({ idle_warned: 2 })
          .where('id', '=', s.id)
          .where('idle_warned', '=', 1)
          .executeTakeFirst();
        if (affected(r) === 1) {
          await systemMessage(e, s, cfg.retimeoutmsg, 'idle-end');
          await endConversation(e, s.id, 'timeout');
        }
        continue;
      }
      const unanswered =
        s.lastmessage !== null && (s.lastgetmessage === null || s.lastgetmessage < s.lastmessage);
      if (
        cfg.agentreplaytimeout &&
        // The robot answers its chats itself: no agent is late there.
        Number(s.ai) === 0 &&
        s.agent_warned === 0 &&
        unanswered &&
        now - (s.lastmessage ?? now) >= cfg.agenttimeout * 1000
      ) {
        const r = await k
          .updateTable('agent_service')
          .set({ agent_warned: 1 })
          .where('id', '=', s.id)
          .where('agent_warned', '=', 0)
          .executeTakeFirst();
        if (affected(r) === 1) {
          await systemMessage(e, s, cfg.agenttimeoutmsg, 'agent-timeout');
          if (s.agentno) {
            toAgents(e, [s.agentno], 'notice', {
              type: 'agent_timeout',
              agentserviceid: s.id,
              userid: s.userid,
              message: cfg.agenttimeoutmsg,
            });
          }
        }
      }
    }
  }
}

/** Starts the periodic jobs; returns a stop function. */
export function startTimers(e: Engine): () => void {
  const stops = [
    e.clock.every(SESSION_SWEEP_MS, async () => {
      await sessionSweep(e);
      await transferSweep(e);
    }),
    e.clock.every(HEARTBEAT_CHECK_INTERVAL_MS, () => heartbeatSweep(e)),
  ];
  return () => stops.forEach((s) => s());
}
