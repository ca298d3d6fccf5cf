import { hasPermission, holdsMonitor, LIVE_CHAT_CODE, type StoredAgentState } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden } from '../../platform/http/errors.js';

/**
 * What the agent socket checks per event, against the socket's current principal (socket-revocation.ts
 * replaces it when the user's rights change): taking chats — going ready or busy, sending — needs the
 * live-chat code; going notready is always allowed.
 */
export function requireLiveChat(p: Principal): void {
  if (!hasPermission(p.usertype, p.auth, LIVE_CHAT_CODE)) throw forbidden();
}

export function requireStateRight(p: Principal, to: StoredAgentState): void {
  if (to !== 'notready') requireLiveChat(p);
}

/**
 * Joining a conversation as a collaborator: a monitor (A03 family) may join any of its tenant's; an
 * agent invited to it may join only if it can chat.
 */
export function requireCollaborationRight(p: Principal, invited: boolean): void {
  if (holdsMonitor(p.usertype, p.auth)) return;
  if (!invited) throw forbidden();
  requireLiveChat(p);
}
