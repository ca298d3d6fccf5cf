import type { VisitorAgentInfo } from '@kefu/protocol';
import type { Engine } from './engine.js';
import type { AgentServiceRow } from './presenter.js';

/** A conversation this node just gave an agent: the committed row and who took it. */
export interface Placement {
  service: AgentServiceRow;
  agent: VisitorAgentInfo;
}

type Slot = { placed: Placement | null };
const watched = new WeakMap<Engine, Map<string, Slot>>();

/**
 * The visitor's `new` waits for the queue drain and then answers with its conversation's state. When this
 * node's drain assigned it, the drain already holds the committed row and the agent's name: it leaves them
 * here instead of the request reading them back. Only watched conversations are recorded, and the watcher
 * always removes its slot, so nothing accumulates.
 */
export function watchPlacement(e: Engine, serviceId: string): () => Placement | null {
  let byId = watched.get(e);
  if (!byId) watched.set(e, (byId = new Map()));
  const slot: Slot = { placed: null };
  byId.set(serviceId, slot);
  const map = byId;
  return () => {
    if (map.get(serviceId) === slot) map.delete(serviceId);
    return slot.placed;
  };
}

export function recordPlacement(e: Engine, p: Placement): void {
  const slot = watched.get(e)?.get(p.service.id);
  if (slot) slot.placed = p;
}
