import { join } from 'node:path';
import { expect } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { Page } from 'playwright-core';
import {
  AGENT_NAMESPACE,
  type AgentClientToServerEvents,
  type AgentServerToClientEvents,
  type VisitorClientToServerEvents,
  type VisitorServerToClientEvents,
} from '@kefu/protocol';

/** Helpers of the agent-workspace scenarios (e2e/dialogue.e2e.ts, e2e/collaboration.e2e.ts). */
export type VisitorSocket = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;
export type AgentSocket = Socket<AgentServerToClientEvents, AgentClientToServerEvents>;
export type Env<T> = { success: boolean; data: T; msg?: string; key?: string };

export async function api<T>(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<Env<T>> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: init.token } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return (await res.json()) as Env<T>;
}

/** The admin's token (POST /tokens). */
export async function adminToken(base: string, password: string): Promise<string> {
  const r = await api<{ token: string }>(base, '/tokens', { body: { username: 'admin', password } });
  expect(r.success).toBe(true);
  return r.data.token;
}

/** The password of the agents addAgents creates. */
export const AGENT_PASSWORD = 'Agent#2026e2e';

/** An agent on a socket of its own (no browser), signed in with AGENT_PASSWORD and ready for chats. */
export async function readyAgent(
  base: string,
  username: string,
): Promise<{ socket: AgentSocket; token: string }> {
  const r = await api<{ token: string }>(base, '/tokens', { body: { username, password: AGENT_PASSWORD } });
  expect(r.success, JSON.stringify(r)).toBe(true);
  const socket: AgentSocket = io(`${base}${AGENT_NAMESPACE}`, {
    transports: ['websocket'],
    query: { session: r.data.token, orgi: 'kefu', admin: 'true' },
    forceNew: true,
  });
  await new Promise<void>((res) => socket.once('connect', () => res()));
  expect((await socket.timeout(10_000).emitWithAck('agentstatus', { status: 'ready' })).success).toBe(true);
  return { socket, token: r.data.token };
}

/**
 * Agents created through the user API with the stock agent role (客服) in the first skill group, 5 seats
 * each; `agents` are [username, display name]. Answers their user ids, in order.
 */
export async function addAgents(
  base: string,
  token: string,
  agents: ReadonlyArray<readonly [string, string]>,
): Promise<string[]> {
  const roles = await api<{ id: string; name: string }[]>(base, '/api/user/listRole', { token });
  const role = roles.data.find((x) => x.name === '客服') ?? roles.data[0]!;
  const skills = await api<{ id: string; name: string }[]>(base, '/api/common/skillList', { token });
  const organ = skills.data[0]?.id;
  const ids: string[] = [];
  for (const [username, uname] of agents) {
    const u = await api<{ id: string }>(base, '/api/user/save', {
      token,
      body: {
        username,
        uname,
        password: AGENT_PASSWORD,
        usertype: '1',
        roles: [role.id],
        organ,
        organs: organ ? [organ] : [],
        maxusers: 5,
      },
    });
    expect(u.success, JSON.stringify(u)).toBe(true);
    ids.push(u.data.id);
  }
  return ids;
}

/**
 * An access point for the visitor: the access API when it is there, else (SQLite only, `sqliteDir` given)
 * a row straight in the database.
 */
export async function accessPoint(base: string, token: string, sqliteDir?: string): Promise<string> {
  const r = await api<{ id: string }>(base, '/api/dialogue/access/save', {
    token,
    body: { name: 'e2e site', domain: '' },
  }).catch(() => null);
  if (r?.success && r.data?.id) return r.data.id;
  if (!sqliteDir) throw new Error(`access point: ${JSON.stringify(r)}`);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(sqliteDir, 'kefu.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const id = `e2e${Date.now().toString(36)}`;
    const now = Date.now();
    db.prepare(
      'insert into access_point (id, orgi, name, domain, organ, createtime, updatetime) values (?, ?, ?, ?, ?, ?, ?)',
    ).run(id, 'kefu', 'e2e site', '', null, now, now);
    return id;
  } finally {
    db.close();
  }
}

export async function login(page: Page, base: string, username: string, password: string) {
  await page.goto(`${base}/login?l=zh`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('main-menu').waitFor();
  await page.goto(`${base}/dialogue`);
  await page.getByTestId('dialogue-screen').waitFor();
}

export async function setReady(page: Page) {
  await page.getByTestId('agent-state').click();
  await page.getByTestId('agent-state-ready').click();
  await expect.poll(() => page.getByTestId('agent-state').getAttribute('data-state')).toBe('ready');
}

export function once<K extends keyof VisitorServerToClientEvents>(
  s: VisitorSocket,
  event: K,
  match: (p: Parameters<VisitorServerToClientEvents[K]>[0]) => boolean = () => true,
  ms = 15_000,
): Promise<Parameters<VisitorServerToClientEvents[K]>[0]> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no ${String(event)} within ${ms} ms`)), ms);
    const on = (p: Parameters<VisitorServerToClientEvents[K]>[0]) => {
      if (!match(p)) return;
      clearTimeout(timer);
      s.off(event, on as never);
      res(p);
    };
    s.on(event, on as never);
  });
}

export const randomUser = () =>
  Array.from(
    { length: 32 },
    () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)],
  ).join('');
