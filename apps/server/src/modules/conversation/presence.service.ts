import type { VisitorPresence } from '@kefu/protocol';
import { visitorRoom } from '../../platform/realtime/rooms.js';
import { affected, type Engine, type Kdb } from './engine.js';
import { agentRoomsOf } from './message.service.js';
import * as srepo from './service.repository.js';

/*
 * Whether a visitor's chat window is connected, kept in the shared visitor row (online, offtime) so every
 * node and a reloaded console see the same, and pushed to the agents of the visitor's latest conversation
 * as `presence` when it changes: a chat whose visitor left looks different from a live one.
 */

async function tell(e: Engine, orgi: string, userid: string, p: Omit<VisitorPresence, 'agentserviceid'>) {
  const s = await srepo.latestServiceOf(e.db.kysely, orgi, userid);
  if (!s?.agentno) return;
  e.rt.agents.to(await agentRoomsOf(e, s)).emit('presence', { ...p, agentserviceid: s.id });
}

/** After a visitor socket connected (the row was marked online by visitorConnect): tell if it was not. */
export async function visitorCameBack(e: Engine, v: { userid: string; orgi: string }): Promise<void> {
  await tell(e, v.orgi, v.userid, { userid: v.userid, online: true, offtime: null });
}

/** A visitor socket went away: when it was the visitor's last one on every node, the visitor is offline. */
export async function visitorGone(e: Engine, v: { userid: string; orgi: string }): Promise<void> {
  const k = e.db.kysely;
  const here = async () => (await e.rt.visitors.in(visitorRoom(v.userid)).fetchSockets()).length > 0;
  if (await here()) return;
  const now = e.clock.now();
  const r = await k
    .updateTable('visitor')
    .set({ online: 0, offtime: now })
    .where('id', '=', v.userid)
    .where('online', '=', 1)
    .executeTakeFirst();
  if (affected(r) !== 1) return;
  // A socket that connected on another node meanwhile marked it online first: put that back.
  if (await here()) {
    await k.updateTable('visitor').set({ online: 1, offtime: null }).where('id', '=', v.userid).execute();
    return;
  }
  await tell(e, v.orgi, v.userid, { userid: v.userid, online: false, offtime: now });
}

/** Presence of these visitors (for the chat list): visitor id → {online, offtime}. */
export async function presenceOf(
  k: Kdb,
  userids: readonly string[],
): Promise<Map<string, { online: boolean; offtime: number | null }>> {
  if (userids.length === 0) return new Map();
  const rows = await k
    .selectFrom('visitor')
    .select(['id', 'online', 'offtime'])
    .where('id', 'in', [...new Set(userids)])
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      { online: Number(r.online) === 1, offtime: r.offtime === null ? null : Number(r.offtime) },
    ]),
  );
}
