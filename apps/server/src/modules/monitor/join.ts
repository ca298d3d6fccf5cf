import type { Principal } from '../../platform/auth/principal.js';
import { forbidden } from '../../platform/http/errors.js';
import type { Engine } from '../conversation/engine.js';
import type { AgentServiceRow } from '../conversation/presenter.js';
import { audit } from './audit.js';
import { chatInScope, scopeOf } from './monitor.scope.js';

/**
 * A supervisor joins a chat it was not invited to (the `collaboration` socket event, after the A03 check
 * of agent-rights.ts): only a chat in its scope (A03_A02: its own department's), and the join is audited.
 */
export async function monitorJoin(e: Engine, p: Principal, s: AgentServiceRow): Promise<void> {
  if (!(await chatInScope(e.db.kysely, scopeOf(p), s))) throw forbidden('monitor_scope');
  await audit(e, p, 'join', { agentserviceid: s.id, target: s.agentno, organ: s.organ });
}
