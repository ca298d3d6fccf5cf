import type { AgentState, StoredAgentState } from '@kefu/protocol';

/**
 * Spec section 4: a pushed `workstatus` the client applies only when it differs from what it shows.
 * leave → notready, notbusy → ready, busy/ready (and notready) stay. Returns null when nothing changes.
 */
export function mapWorkStatus(pushed: AgentState, current: StoredAgentState): StoredAgentState | null {
  const next: StoredAgentState = pushed === 'leave' ? 'notready' : pushed === 'notbusy' ? 'ready' : pushed;
  return next === current ? null : next;
}

/** The states an agent can choose in the top bar, each set by its own call. */
export const SELECTABLE_STATES = ['ready', 'busy', 'notready'] as const satisfies readonly StoredAgentState[];

export const isStoredState = (v: unknown): v is StoredAgentState =>
  v === 'ready' || v === 'notready' || v === 'busy';
