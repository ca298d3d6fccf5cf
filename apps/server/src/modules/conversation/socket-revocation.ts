import { hasPermission, LIVE_CHAT_CODE } from '@kefu/protocol';
import { principalCache, type Invalidation } from '../../platform/auth/cache.js';
import { authenticate } from '../../platform/auth/guard.js';
import type { Principal } from '../../platform/auth/principal.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { AppError } from '../../platform/http/errors.js';
import { agentRoom } from '../../platform/realtime/rooms.js';
import type { Engine } from './engine.js';
import { getAgentState, setAgentState } from './agentstate.service.js';

type AgentSocket = ReturnType<Engine['rt']['agents']['sockets']['get']> & object;

function concerned(sockets: Iterable<AgentSocket>, msg: Invalidation): AgentSocket[] {
  const out: AgentSocket[] = [];
  for (const s of sockets) {
    const p = s.data.principal;
    if (msg.kind === 'all' || (msg.kind === 'user' && p.id === msg.id)) out.push(s);
    else if (msg.kind === 'token' && hashToken(p.token) === msg.id) out.push(s);
  }
  return out;
}

/** The principal of a token now, or null when it no longer logs anyone in (revoked, expired, user gone). */
async function current(e: Engine, token: string): Promise<Principal | null> {
  try {
    return await authenticate(e.db, token);
  } catch (err) {
    if (err instanceof AppError && err.status === 401) return null;
    throw err;
  }
}

/** An agent without sockets left anywhere, or without the live-chat right, takes no more chats. */
async function stopTakingChats(e: Engine, userid: string, reason: string, anySocket: boolean): Promise<void> {
  if (anySocket && (await e.rt.agents.in(agentRoom(userid)).fetchSockets()).length > 0) return;
  if ((await getAgentState(e, userid)) === 'notready') return;
  await setAgentState(e, userid, 'notready', reason, (from) => from !== 'notready');
}

/**
 * What an invalidation means for the agent sockets open on this node: each concerned socket's token is
 * resolved again (the cache entry is gone, so from the database). A token that no longer logs anyone in
 * (logout, password change, user disabled or deleted) loses its sockets at once; otherwise the socket
 * carries the new principal, so a change of rights applies to its next event, and an agent that lost
 * the live-chat right stops taking chats.
 */
async function recheck(e: Engine, msg: Invalidation): Promise<void> {
  const byToken = new Map<string, AgentSocket[]>();
  for (const s of concerned(e.rt.agents.sockets.values(), msg)) {
    const token = s.data.principal.token;
    byToken.set(token, [...(byToken.get(token) ?? []), s]);
  }
  for (const [token, sockets] of byToken) {
    const userid = sockets[0]!.data.principal.id;
    const p = await current(e, token);
    if (!p) {
      for (const s of sockets) s.disconnect(true);
      await stopTakingChats(e, userid, 'revoked', true);
      continue;
    }
    for (const s of sockets) s.data.principal = p;
    if (!hasPermission(p.usertype, p.auth, LIVE_CHAT_CODE)) await stopTakingChats(e, p.id, 'rights', false);
  }
}

/**
 * Revocations reach open agent sockets, on every node: the principal cache tells its listeners of each
 * invalidation applied here, whether made on this node or received from another over Redis
 * (kefu:auth:invalidate). Returns the function that stops listening.
 */
export function watchRevocations(e: Engine): () => void {
  const cache = principalCache(e.db);
  let tail: Promise<void> = Promise.resolve();
  const listen = (msg: Invalidation) => {
    if (e.closing.value) return;
    // One at a time, in order: a role change right after a logout must not overtake it.
    tail = tail.then(() => recheck(e, msg)).catch((err: unknown) => console.error('socket revocation', err));
  };
  cache.listeners.add(listen);
  return () => cache.listeners.delete(listen);
}
