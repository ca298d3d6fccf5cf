import { expect } from 'vitest';
import type { MonitorUpdateDto, VisitorNewResult } from '@kefu/protocol';
import { issueToken } from '../../../platform/auth/tokens.js';
import { insertUser } from '../../../../test/harness.js';
import { insertRole } from '../../../../test/factories.js';
import {
  addAccessPoint,
  addOrgan,
  agentSocket,
  call,
  connected,
  ok,
  socketAgent,
  visitorReady,
  type AgentClient,
  type LiveServer,
} from '../../../../test/live.js';

/** Helpers of the monitor tests: supervisors with chosen codes, chats in a skill group, feed collection. */

export const SUP_ALL = ['A01', 'A03', 'A03_A01'];
export const SUP_ORGAN = ['A01', 'A03', 'A03_A02'];

/** A usertype '1' user in `organ` whose role holds exactly `codes`, with a token. */
export async function supervisor(
  s: Pick<LiveServer, 'tdb'>,
  codes: readonly string[],
  organ: string | null,
): Promise<{ id: string; token: string; username: string; roleid: string }> {
  const k = s.tdb.db.kysely;
  const u = await insertUser(s.tdb.db, { organ });
  const roleid = await insertRole(s.tdb.db, codes);
  await k.insertInto('user_role').values({ userid: u.id, roleid, orgi: 'kefu' }).execute();
  return { id: u.id, username: u.username, roleid, token: await issueToken(k, u.id, 'kefu', 3_600_000) };
}

/** A supervisor's socket watching the monitor feed, with every update collected. */
export async function watcher(
  s: LiveServer,
  sockets: Array<{ disconnect(): unknown }>,
  token: string,
): Promise<{ sock: AgentClient; updates: MonitorUpdateDto[] }> {
  const sock = await userSocket(s, sockets, token);
  const updates: MonitorUpdateDto[] = [];
  sock.on('monitor_update', (u) => updates.push(u));
  ok(await call(sock, 'monitor', { watch: true }));
  return { sock, updates };
}

/** A visitor that asked for an agent of `organ` (a skill group) or of anyone. */
export async function chatIn(
  s: LiveServer,
  sockets: Array<{ disconnect(): unknown }>,
  appid: string,
  organ: string | null = null,
) {
  const v = await visitorReady(s.url, appid);
  sockets.push(v.s);
  const r = ok(await call<VisitorNewResult>(v.s, 'new', organ ? { skill: organ } : {}));
  return { v, sid: r.agentserviceid, status: r.status };
}

/** The chats (ids) an update stream has shown and not removed since. */
export function shownChats(updates: readonly MonitorUpdateDto[]): Set<string> {
  const out = new Set<string>();
  for (const u of updates) {
    for (const c of u.chats) out.add(c.agentserviceid);
    for (const id of u.removed) out.delete(id);
  }
  return out;
}

/** Every chat id an update stream mentioned at all (chats, removals, message patches). */
export function mentioned(updates: readonly MonitorUpdateDto[]): Set<string> {
  const out = new Set<string>();
  for (const u of updates) {
    for (const c of u.chats) out.add(c.agentserviceid);
    for (const id of u.removed) out.add(id);
    for (const m of u.messages) out.add(m.agentserviceid);
  }
  return out;
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function expectKey(json: { success: boolean; key?: string; code: number }, key: string, code: number) {
  expect(json, JSON.stringify(json)).toMatchObject({ success: false, key, code });
}

/** An access point and `n` skill groups (g1, g2, …), each with one ready agent on a socket. */
export async function scene(s: LiveServer, sockets: Array<{ disconnect(): unknown }>, n: number) {
  const appid = await addAccessPoint(s.tdb);
  const groups: string[] = [];
  const agents: Array<Awaited<ReturnType<typeof socketAgent>>> = [];
  for (let i = 1; i <= n; i++) {
    const g = await addOrgan(s.tdb, `g${i}`);
    groups.push(g);
    agents.push(await socketAgent(s, sockets, { organ: g }));
  }
  return { appid, groups, agents };
}

/** A supervisor's (or any user's) connected agent socket, closed after the test. */
export async function userSocket(
  s: LiveServer,
  sockets: Array<{ disconnect(): unknown }>,
  token: string,
): Promise<AgentClient> {
  const sock = agentSocket(s.url, token);
  sockets.push(sock);
  await connected(sock);
  return sock;
}
