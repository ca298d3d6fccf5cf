/**
 * Load generator, run as its own process (pinned to the other core) so it never shares the server's event
 * loop. Drives either kefu's protocol or the bare baseline's; both speak /im/user and /im/agent.
 * Latency = receive time − *intended* send time (open loop, no coordinated omission).
 */
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { serve } from '../lib/child.js';
import { ackOf, once, pct, pool, socket, vid, type AckRes } from './clients.js';

export type Target = 'kefu' | 'baseline';

export interface PairsInit {
  cmd: 'pairs';
  target: Target;
  /** Visitors connect here. */
  url: string;
  /** Agents connect here (B3: the other node). */
  agentUrl: string;
  pairs: number;
  appid?: string;
  tokens?: string[];
  /** The text after the timing prefix of every message (default: 60 × 'x'). */
  pad?: string;
}

export interface OpenRun {
  cmd: 'open';
  rate: number;
  warmupMs: number;
  durationMs: number;
}
export interface ClosedRun {
  cmd: 'closed';
  window: number;
  warmupMs: number;
  durationMs: number;
}
export interface IdleInit {
  cmd: 'idle';
  target: Target;
  url: string;
  appid?: string;
  n: number;
  concurrency: number;
}
export interface AssignRun {
  cmd: 'assign';
  target: Target;
  url: string;
  appid?: string;
  /** kefu: agent tokens (agents pre-seeded ready); baseline: this many agents. */
  tokens?: string[];
  agents: number;
  maxusers: number;
  chats: number;
  concurrency: number;
}

export interface LatencyResult {
  sent: number;
  /** A few messages that never arrived, with their ack. */
  lostSample?: string[];
  received: number;
  lost: number;
  ackErrors: number;
  p50: number;
  p99: number;
  max: number;
  perSec: number;
}
export interface IdleResult {
  connected: number;
  failed: number;
  ms: number;
  perSec: number;
}
export interface AssignResult {
  assigned: number;
  failed: number;
  ms: number;
  perSec: number;
  p50: number;
  p99: number;
  maxPerAgent: number;
  statusEvents: number;
}

const TEXT_PAD = 'x'.repeat(60);

let pad = TEXT_PAD;

// ---------------------------------------------------------------- pairs (B1–B3)

interface Pair {
  visitor: Socket;
  agent: Socket;
}
let pairs: Pair[] = [];
let target: Target = 'baseline';

/** Per-run receive hook set by the running phase. */
let onDeliver: (pair: number, intended: number) => void = () => undefined;

async function setupPairs(m: PairsInit): Promise<{ pairs: number }> {
  target = m.target;
  pad = m.pad ?? TEXT_PAD;
  const made: Pair[] = [];
  for (let i = 0; i < m.pairs; i++) {
    let agent: Socket;
    let visitor: Socket;
    if (m.target === 'baseline') {
      const room = `r${i}`;
      agent = socket(m.agentUrl, '/im/agent', { room });
      await once(agent, 'connect');
      visitor = socket(m.url, '/im/user', { room });
      await once(visitor, 'connect');
    } else {
      const token = m.tokens?.[i];
      if (!token || !m.appid) throw new Error('kefu pairs need tokens and appid');
      agent = socket(m.agentUrl, '/im/agent', { session: token, orgi: 'kefu', admin: 'true' });
      await once(agent, 'connect');
      visitor = socket(m.url, '/im/user', { appid: m.appid, userid: vid() });
      await once(visitor, 'welcome');
      // Each seeded agent is ready with one seat, so every chat lands on its own agent.
      const assigned = once<{ userid: string }>(agent, 'new', 10_000);
      const r = await ackOf(visitor, 'new', {});
      if (!r.success) throw new Error(`new refused: ${r.msg}`);
      await assigned;
    }
    agent.on('message', (msg: { message?: string }) => {
      const text = typeof msg?.message === 'string' ? msg.message : '';
      const bar = text.indexOf('|');
      const bar2 = text.indexOf('|', bar + 1);
      if (bar < 1 || bar2 < 0) return;
      missing.delete(text.slice(0, bar2));
      onDeliver(Number(text.slice(bar + 1, bar2)), Number(text.slice(0, bar)));
    });
    made.push({ visitor, agent });
  }
  pairs = made;
  return { pairs: made.length };
}

let counter = 0;
const missing = new Map<string, string>();
function send(pair: number, intended: number, ackErr: { n: number }, track = false): void {
  const text = `${intended.toFixed(3)}|${pair}|${pad}`;
  if (track) missing.set(text.slice(0, text.indexOf('|', text.indexOf('|') + 1)), 'no ack');
  const payload =
    target === 'kefu'
      ? { clientId: `b${++counter}-${process.pid}-${Date.now()}`, message: text, msgtype: 'text' }
      : { clientId: `b${++counter}`, message: text };
  pairs[pair].visitor.emit('message', payload, (r: AckRes) => {
    if (!r?.success) ackErr.n++;
    const key = text.slice(0, text.indexOf('|', text.indexOf('|') + 1));
    if (missing.has(key)) missing.set(key, JSON.stringify(r).slice(0, 300));
  });
}

async function openRun(m: OpenRun): Promise<LatencyResult> {
  const lat: number[] = [];
  const start = performance.now() + 50;
  const measureFrom = start + m.warmupMs;
  const end = measureFrom + m.durationMs;
  const total = Math.floor(((m.warmupMs + m.durationMs) / 1000) * m.rate);
  const ackErr = { n: 0 };
  let measuredSent = 0;
  onDeliver = (_pair, intended) => {
    if (intended >= measureFrom && intended < end) lat.push(performance.now() - intended);
  };
  let i = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - start) * m.rate) / 1000));
      while (i < due) {
        // Rounded as it travels in the message text, so both ends classify it the same way.
        const intended = Math.round((start + (i * 1000) / m.rate) * 1000) / 1000;
        const measured = intended >= measureFrom && intended < end;
        if (measured) measuredSent++;
        send(i % pairs.length, intended, ackErr, measured);
        i++;
      }
      if (i >= total) done();
      else setTimeout(tick, 1);
    };
    setTimeout(tick, 50);
  });
  // Drain: wait until every measured message arrived, at most 3 s.
  const drainEnd = performance.now() + 3_000;
  while (lat.length < measuredSent && performance.now() < drainEnd)
    await new Promise((r) => setTimeout(r, 20));
  onDeliver = () => undefined;
  lat.sort((a, b) => a - b);
  const lostSample = [...missing.entries()].slice(0, 3).map(([k, v]) => `${k}: ${v}`);
  missing.clear();
  return {
    sent: measuredSent,
    lostSample,
    received: lat.length,
    lost: measuredSent - lat.length,
    ackErrors: ackErr.n,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: lat[lat.length - 1] ?? Number.NaN,
    perSec: lat.length / (m.durationMs / 1000),
  };
}

async function closedRun(m: ClosedRun): Promise<LatencyResult> {
  const lat: number[] = [];
  const ackErr = { n: 0 };
  const start = performance.now();
  const measureFrom = start + m.warmupMs;
  const end = measureFrom + m.durationMs;
  let stopped = false;
  let delivered = 0;
  let sent = 0;
  onDeliver = (pair, intended) => {
    const now = performance.now();
    if (intended >= measureFrom && now < end) {
      delivered++;
      lat.push(now - intended);
    }
    if (!stopped && now < end) {
      sent++;
      send(pair, performance.now(), ackErr);
    }
  };
  for (let p = 0; p < pairs.length; p++) {
    for (let w = 0; w < m.window; w++) {
      sent++;
      send(p, performance.now(), ackErr);
    }
  }
  await new Promise((r) => setTimeout(r, end - performance.now()));
  stopped = true;
  // Let in-flight messages settle before the next run.
  await new Promise((r) => setTimeout(r, 1_500));
  onDeliver = () => undefined;
  lat.sort((a, b) => a - b);
  return {
    sent,
    received: delivered,
    lost: 0,
    ackErrors: ackErr.n,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: lat[lat.length - 1] ?? Number.NaN,
    perSec: delivered / (m.durationMs / 1000),
  };
}

// ---------------------------------------------------------------- idle (B4)

let idle: Socket[] = [];

async function idleRun(m: IdleInit): Promise<IdleResult> {
  const t0 = performance.now();
  let failed = 0;
  await pool(
    Array.from({ length: m.n }, (_, i) => i),
    m.concurrency,
    async () => {
      const s =
        m.target === 'kefu'
          ? socket(m.url, '/im/user', { appid: m.appid ?? '', userid: vid() })
          : socket(m.url, '/im/user', {});
      try {
        await once(s, m.target === 'kefu' ? 'welcome' : 'connect');
        idle.push(s);
      } catch {
        failed++;
        s.disconnect();
      }
    },
  );
  const ms = performance.now() - t0;
  return { connected: idle.length, failed, ms, perSec: idle.length / (ms / 1000) };
}

// ---------------------------------------------------------------- assignment (B5)

async function assignRun(m: AssignRun): Promise<AssignResult> {
  const agentSockets: Socket[] = [];
  const perAgent = new Map<string, number>();
  const waiting = new Map<string, { t: number; resolve: () => void }>();
  const lat: number[] = [];
  let statusEvents = 0;
  await pool(
    Array.from({ length: m.agents }, (_, i) => i),
    50,
    async (i) => {
      const s =
        m.target === 'kefu'
          ? socket(m.url, '/im/agent', { session: m.tokens?.[i] ?? '', orgi: 'kefu', admin: 'true' })
          : socket(m.url, '/im/agent', { agent: `a${i}`, max: String(m.maxusers) });
      await once(s, 'connect');
      s.on('new', (dto: { userid: string }) => {
        const w = waiting.get(dto.userid);
        if (!w) return;
        waiting.delete(dto.userid);
        lat.push(performance.now() - w.t);
        perAgent.set(s.id ?? '', (perAgent.get(s.id ?? '') ?? 0) + 1);
        w.resolve();
      });
      s.on('status', () => statusEvents++);
      agentSockets.push(s);
    },
  );
  const visitors: Array<{ s: Socket; userid: string }> = [];
  await pool(
    Array.from({ length: m.chats }, (_, i) => i),
    100,
    async () => {
      const userid = vid();
      const s =
        m.target === 'kefu'
          ? socket(m.url, '/im/user', { appid: m.appid ?? '', userid })
          : socket(m.url, '/im/user', { userid });
      await once(s, m.target === 'kefu' ? 'welcome' : 'connect');
      visitors.push({ s, userid });
    },
  );
  let failed = 0;
  const t0 = performance.now();
  await pool(visitors, m.concurrency, async ({ s, userid }) => {
    const got = new Promise<void>((resolve) => waiting.set(userid, { t: performance.now(), resolve }));
    const r = await ackOf(s, 'new', {});
    if (!r.success) {
      failed++;
      waiting.delete(userid);
      return;
    }
    const timeout = new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), 15_000));
    if ((await Promise.race([got, timeout])) === 'timeout') failed++;
  });
  const ms = performance.now() - t0;
  for (const { s } of visitors) s.disconnect();
  for (const s of agentSockets) s.disconnect();
  lat.sort((a, b) => a - b);
  return {
    assigned: lat.length,
    failed,
    ms,
    perSec: lat.length / (ms / 1000),
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    maxPerAgent: Math.max(0, ...perAgent.values()),
    statusEvents,
  };
}

serve(async (msg) => {
  switch (msg.cmd) {
    case 'pairs':
      return setupPairs(msg as unknown as PairsInit);
    case 'open':
      return openRun(msg as unknown as OpenRun);
    case 'closed':
      return closedRun(msg as unknown as ClosedRun);
    case 'idle':
      return idleRun(msg as unknown as IdleInit);
    case 'assign':
      return assignRun(msg as unknown as AssignRun);
    case 'close':
      for (const p of pairs) {
        p.visitor.disconnect();
        p.agent.disconnect();
      }
      for (const s of idle) s.disconnect();
      pairs = [];
      idle = [];
      setTimeout(() => process.exit(0), 50);
      return null;
    default:
      throw new Error(`unknown command ${String(msg.cmd)}`);
  }
});
