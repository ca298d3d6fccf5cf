import type { AgentState } from '@kefu/protocol';

/**
 * An agent's work state as shown in GET /api/agent (user.on_state). The conversation engine owns
 * agent states: it installs its provider with setOnStateProvider. Until then everyone is 'notready',
 * which is also the safe answer after a restart (nobody receives chats before saying ready).
 */
export type OnStateProvider = (userid: string) => AgentState | Promise<AgentState>;

let provider: OnStateProvider = () => 'notready';

export function setOnStateProvider(p: OnStateProvider): void {
  provider = p;
}

export async function getOnState(userid: string): Promise<AgentState> {
  return provider(userid);
}
