import type { VisitorAgentInfo } from '@kefu/protocol';
import type { Engine } from './engine.js';
import type { StoredService } from './service.repository.js';

/** A conversation this node just gave an agent: the committed row, who took it and the visitor's notice. */
export interface Placement {
  service: StoredService;
  agent: VisitorAgentInfo;
  /** The `assigned` text, when the asking socket was left out of that emit (its ack carries it). */
  message?: string;
}

type Slot = { placed: Placement | null; asker: string | undefined };
const watched = new WeakMap<Engine, Map<string, Slot>>();

/**
 * The visitor's `new` waits for the queue drain and then answers with its conversation's state. When this
 * node's drain assigned it, the drain already holds the committed row and the agent's name: it leaves them
 * here instead of the request reading them back, and leaves the asking socket (`asker`) out of the
 * `assigned` emit, since the ack tells it. Only watched conversations are recorded, and the watcher
 * always removes its slot, so nothing accumulates.
 */
export function watchPlacement(e: Engine, serviceId: string, asker?: string): () => Placement | null {
  let byId = watched.get(e);
  if (!byId) watched.set(e, (byId = new Map()));
  const slot: Slot = { placed: null, asker };
  byId.set(serviceId, slot);
  const map = byId;
  return () => {
    if (map.get(serviceId) === slot) map.delete(serviceId);
    return slot.placed;
  };
}

/**
 * Records the placement for its watcher, if any, and answers the watcher's socket: the one to leave out of
 * the `assigned` emit (recorded in the same step, so a socket is left out only when its ack will carry
 * the notice).
 */
export function recordPlacement(e: Engine, p: Placement): string | undefined {
  const slot = watched.get(e)?.get(p.service.id);
  if (!slot) return undefined;
  slot.placed = p;
  return slot.asker;
}
