import { io as connect, type Socket } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import {
  AGENT_NAMESPACE,
  VISITOR_NAMESPACE,
  type Ack,
  type AgentClientToServerEvents,
  type AgentServerToClientEvents,
  type VisitorClientToServerEvents,
  type VisitorServerToClientEvents,
} from '@kefu/protocol';
import { buildApp } from '../src/app.js';
import { ManualScheduler } from '../src/platform/jobs/scheduler.js';
import { issueToken } from '../src/platform/auth/tokens.js';
import { newId } from '../src/platform/ids.js';
import { createTestDb, insertUser, type TestDb } from './harness.js';
import type { AppConfig } from '../src/config.js';

export type AgentClient = Socket<AgentServerToClientEvents, AgentClientToServerEvents>;
export type VisitorClient = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;

export interface LiveServer {
  app: FastifyInstance;
  url: string;
  clock: ManualScheduler;
  tdb: TestDb;
  stop(): Promise<void>;
}

/** A listening app on a random port with a manual clock; reuse `tdb` to restart on the same database. */
export async function startLive(tdb?: TestDb, overrides: Partial<AppConfig> = {}): Promise<LiveServer> {
  const db = tdb ?? (await createTestDb(overrides));
  const clock = new ManualScheduler();
  const { app } = await buildApp({ config: db.config, db: db.db, scheduler: clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { app, url: `http://127.0.0.1:${port}`, clock, tdb: db, stop: () => app.close() };
}

export async function addAccessPoint(tdb: TestDb, organ: string | null = null): Promise<string> {
  const id = newId().slice(0, 12);
  const now = Date.now();
  await tdb.db.kysely
    .insertInto('access_point')
    .values({
      id,
      orgi: 'kefu',
      name: 'site',
      domain: 'example.com',
      organ,
      createtime: now,
      updatetime: now,
    })
    .execute();
  return id;
}

export async function addOrgan(tdb: TestDb, name = `g_${newId().slice(0, 6)}`): Promise<string> {
  const id = newId();
  const now = Date.now();
  await tdb.db.kysely
    .insertInto('organ')
    .values({
      id,
      orgi: 'kefu',
      name,
      parentid: null,
      skill: 1,
      sortindex: 0,
      createtime: now,
      updatetime: now,
    })
    .execute();
  return id;
}

/** An agent holding A01 (chat) via a role, with a token. */
export async function addAgent(
  tdb: TestDb,
  opts: { maxusers?: number; organ?: string | null } = {},
): Promise<{ id: string; token: string }> {
  const u = await insertUser(tdb.db, { maxusers: opts.maxusers ?? 10, organ: opts.organ ?? null });
  const k = tdb.db.kysely;
  let role = await k.selectFrom('role').select('id').where('name', '=', 'agents').executeTakeFirst();
  if (!role) {
    role = { id: newId() };
    const now = Date.now();
    await k
      .insertInto('role')
      .values({
        id: role.id,
        orgi: 'kefu',
        name: 'agents',
        description: '',
        createtime: now,
        updatetime: now,
      })
      .execute();
    await k.insertInto('role_auth').values({ roleid: role.id, code: 'A01', orgi: 'kefu' }).execute();
  }
  await k.insertInto('user_role').values({ userid: u.id, roleid: role.id, orgi: 'kefu' }).execute();
  const token = await issueToken(k, u.id, 'kefu', 3_600_000);
  return { id: u.id, token };
}

/** A user (in `organ`) whose only role holds exactly `codes` (none: a role without rights), with a token. */
export async function addUserWithCodes(
  tdb: TestDb,
  codes: readonly string[],
  opts: { organ?: string | null } = {},
): Promise<{ id: string; username: string; token: string; roleid: string }> {
  const u = await insertUser(tdb.db, { organ: opts.organ ?? null });
  const k = tdb.db.kysely;
  const roleid = newId();
  const now = Date.now();
  await k
    .insertInto('role')
    .values({
      id: roleid,
      orgi: 'kefu',
      name: `r_${roleid.slice(0, 8)}`,
      description: '',
      createtime: now,
      updatetime: now,
    })
    .execute();
  if (codes.length)
    await k
      .insertInto('role_auth')
      .values(codes.map((code) => ({ roleid, code, orgi: 'kefu' })))
      .execute();
  await k.insertInto('user_role').values({ userid: u.id, roleid, orgi: 'kefu' }).execute();
  return { id: u.id, username: u.username, roleid, token: await issueToken(k, u.id, 'kefu', 3_600_000) };
}

/**
 * An agent with a connected socket (tracked in `sockets` for the afterEach disconnect), set ready
 * unless `ready` is false.
 */
export async function socketAgent(
  s: LiveServer,
  sockets: Array<{ disconnect(): unknown }>,
  opts: { maxusers?: number; organ?: string | null; ready?: boolean } = {},
): Promise<{ id: string; token: string; sock: AgentClient }> {
  const a = await addAgent(s.tdb, { maxusers: opts.maxusers ?? 10, organ: opts.organ });
  const sock = agentSocket(s.url, a.token);
  sockets.push(sock);
  await connected(sock);
  if (opts.ready !== false) ok(await call(sock, 'agentstatus', { status: 'ready' }));
  return { ...a, sock };
}

export function agentSocket(url: string, token: string, extra: Record<string, string> = {}): AgentClient {
  return connect(`${url}${AGENT_NAMESPACE}`, {
    query: { session: token, orgi: 'kefu', admin: 'true', ...extra },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
}

export function visitorSocket(
  url: string,
  appid: string,
  userid: string,
  extra: Record<string, string> = {},
): VisitorClient {
  return connect(`${url}${VISITOR_NAMESPACE}`, {
    query: { appid, userid, ...extra },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
}

export function connected(s: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (s.connected) return resolve();
    s.once('connect', () => resolve());
    s.once('connect_error', (err) => reject(err));
  });
}

/** Calls an event with an ack and returns the ack value. */
export function call<T>(s: Socket, event: string, payload?: unknown): Promise<Ack<T>> {
  return new Promise((resolve) => {
    s.timeout(10_000).emit(event, payload ?? {}, (err: Error | null, res: Ack<T>) => {
      if (err) resolve({ success: false, msg: err.message, code: 0 });
      else resolve(res);
    });
  });
}

export function ok<T>(a: Ack<T>): T {
  if (!a.success) throw new Error(`ack failed: ${a.msg} (${a.key ?? a.code})`);
  return a.data;
}

/** Collects every event of a name. */
export function collect<T>(s: Socket, event: string): T[] {
  const out: T[] = [];
  s.on(event, (p: T) => out.push(p));
  return out;
}

export function next<T>(s: Socket, event: string, timeoutMs = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timeout waiting for ${event}`)), timeoutMs);
    s.once(event, (p: T) => {
      clearTimeout(t);
      resolve(p);
    });
  });
}

export async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function api<T = unknown>(
  s: LiveServer,
  token: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: { success: boolean; data: T; msg: string; code: number; key?: string } }> {
  const res = await s.app.inject({
    method: body === undefined ? 'GET' : 'POST',
    url: path,
    headers: { authorization: token },
    payload: body as Record<string, unknown> | undefined,
  });
  return { status: res.statusCode, json: res.json() };
}

export const vid = (): string => newId();

/** A visitor connected and welcomed; token kept for reconnects. */
export async function visitorReady(
  url: string,
  appid: string,
  userid = vid(),
  extra: Record<string, string> = {},
) {
  const s = visitorSocket(url, appid, userid, extra);
  const welcome = next<{ token: string; lastseq: number }>(s, 'welcome');
  await connected(s);
  const w = await welcome;
  return { s, userid, token: w.token, welcome: w };
}
