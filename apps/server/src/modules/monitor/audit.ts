import type { MonitorAction } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Engine } from '../conversation/engine.js';
import { insertAudit } from './supervision.repository.js';

/** Who acted: a supervisor, or the system (ring-no-answer). */
export type Actor = Pick<Principal, 'id' | 'orgi' | 'uname'> | { system: true; orgi: string };

/** Writes one supervision record: who, what, when, which conversation (and agent). */
export async function audit(
  e: Engine,
  who: Actor,
  action: MonitorAction,
  what: { agentserviceid?: string | null; target?: string | null; organ?: string | null; detail?: string },
): Promise<void> {
  const system = 'system' in who;
  await insertAudit(e.db.kysely, {
    orgi: who.orgi,
    userid: system ? 'system' : who.id,
    username: system ? 'system' : who.uname,
    action,
    ...what,
    createtime: e.clock.now(),
  });
}
