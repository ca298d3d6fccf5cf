import type { MessageDto } from '@kefu/protocol';
import type { Engine } from './engine.js';

/**
 * What changed in the live conversations, for whoever watches (the monitor feed, modules/monitor). The
 * conversation module calls these at the points it already reports (publishReport, an assignment, a
 * delivered message); with no listener each call is one map lookup, so the chat path pays nothing when
 * nobody watches. A listener must be cheap and must not throw: it only notes ids for a later batch.
 */
export interface ChangeListener {
  /** A conversation's state, owner or queue place changed (new, assigned, transferred, ended). */
  chat(orgi: string, agentserviceid: string): void;
  /** An agent's state or load changed. */
  agent(orgi: string, userid: string): void;
  /** A stored message went out to the agents (the chat's last line and reply times moved). */
  message(dto: MessageDto): void;
  /** A conversation was created, got an agent (seated, from the queue, transferred) or ended. */
  conversation?(orgi: string, event: ConversationEvent, agentserviceid: string): void;
}

export type ConversationEvent = 'created' | 'assigned' | 'ended';

// Several watchers (the monitor feed, webhooks); an engine nobody watches has no entry.
const listeners = new WeakMap<Engine, ChangeListener[]>();

export function listenChanges(e: Engine, l: ChangeListener): void {
  const ls = listeners.get(e);
  if (ls) ls.push(l);
  else listeners.set(e, [l]);
}

export function chatChanged(e: Engine, orgi: string, agentserviceid: string): void {
  for (const l of listeners.get(e) ?? []) l.chat(orgi, agentserviceid);
}

export function agentChanged(e: Engine, orgi: string, userid: string): void {
  for (const l of listeners.get(e) ?? []) l.agent(orgi, userid);
}

export function messageSeen(e: Engine, dto: MessageDto): void {
  const ls = listeners.get(e);
  if (ls) for (const l of ls) l.message(dto);
}

export function conversationEvent(
  e: Engine,
  orgi: string,
  event: ConversationEvent,
  agentserviceid: string,
): void {
  for (const l of listeners.get(e) ?? []) l.conversation?.(orgi, event, agentserviceid);
}

/** publishReport's labels to changes: `agent` reports name the agent, the others the conversation. */
export function reportedChange(e: Engine, orgi: string, worktype: string, dataid: string): void {
  const ls = listeners.get(e);
  if (!ls || !dataid) return;
  for (const l of ls) {
    if (worktype === 'agent') l.agent(orgi, dataid);
    else l.chat(orgi, dataid);
  }
}
