import type { FastifyInstance } from 'fastify';
import { LIVE_CHAT_CODE, type StoredAgentState } from '@kefu/protocol';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import type { Engine } from './engine.js';
import { getAgentState, ping, setAgentState } from './agentstate.service.js';
import { findStatus } from './agent-status.repository.js';

/** GET /api/agent/ready|notready|busy (ready and busy need A01), status, console/agentstate, ping. */
export function agentStateRoutes(app: FastifyInstance, e: Engine): void {
  for (const state of ['ready', 'notready', 'busy'] as const satisfies readonly StoredAgentState[]) {
    // Taking chats needs the live-chat code; anyone may go notready.
    const guard = state === 'notready' ? {} : { preHandler: requires(LIVE_CHAT_CODE) };
    app.get(`/api/agent/${state}`, guard, async (req) =>
      ok({ status: await setAgentState(e, principal(req).id, state, state) }),
    );
  }
  app.get('/api/agent/status', async (req) => ok({ status: await getAgentState(e, principal(req).id) }));
  app.get('/api/agent/console/agentstate', async (req) => {
    const row = await findStatus(e.db.kysely, principal(req).id);
    return ok({
      status: row?.status ?? 'notready',
      users: row?.users ?? 0,
      maxusers: row?.maxusers ?? 0,
      lastping: row?.lastping ?? null,
      updatetime: row?.updatetime ?? null,
    });
  });
  app.get('/api/agent/ping', async (req) => ok({ time: await ping(e, principal(req).id) }));
}
