import { store } from './storage.js';

/**
 * The durable outbox: text messages the visitor sent that have no ack yet, kept in localStorage per access
 * point and visitor id so a reload (for example while offline) does not lose them. Each entry remembers
 * its conversation; on the next welcome the entries of the open conversation are resent with the same
 * clientId (the server stores a message once per clientId), the others are dropped.
 */
export interface SavedOutgoing {
  clientId: string;
  message: string;
  createtime: number;
  /** The conversation it was written in (null: before one existed). */
  agentserviceid: string | null;
}

export const OUTBOX_MAX = 50;
export const OUTBOX_TTL_MS = 7 * 24 * 3600 * 1000;

const outboxKey = (appid: string, userid: string) => `kefu:outbox:${appid}:${userid}`;

/** Newest `OUTBOX_MAX` well-formed entries younger than `OUTBOX_TTL_MS`, oldest first. */
function bounded(list: unknown[], now: number): SavedOutgoing[] {
  const out: SavedOutgoing[] = [];
  for (const x of list) {
    const o = x as Partial<SavedOutgoing> | null;
    if (
      o &&
      typeof o.clientId === 'string' &&
      o.clientId !== '' &&
      typeof o.message === 'string' &&
      typeof o.createtime === 'number' &&
      now - o.createtime <= OUTBOX_TTL_MS &&
      (o.agentserviceid === null || typeof o.agentserviceid === 'string') &&
      !out.some((y) => y.clientId === o.clientId)
    )
      out.push({
        clientId: o.clientId,
        message: o.message,
        createtime: o.createtime,
        agentserviceid: o.agentserviceid,
      });
  }
  return out.slice(-OUTBOX_MAX);
}

export function loadOutbox(appid: string, userid: string, now = Date.now()): SavedOutgoing[] {
  try {
    const raw = JSON.parse(store.get(outboxKey(appid, userid)) ?? '[]') as unknown;
    return Array.isArray(raw) ? bounded(raw, now) : [];
  } catch {
    return [];
  }
}

/** Replaces the stored outbox; an empty one removes the key. */
export function saveOutbox(appid: string, userid: string, list: SavedOutgoing[], now = Date.now()): void {
  const kept = bounded(list, now);
  if (kept.length === 0) store.remove(outboxKey(appid, userid));
  else store.set(outboxKey(appid, userid), JSON.stringify(kept));
}

export const clearOutbox = (appid: string, userid: string): void => store.remove(outboxKey(appid, userid));
