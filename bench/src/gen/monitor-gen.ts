/**
 * B9's load generator (its own process, pinned to the other core): 500 agents, 5,000 visitors each in a
 * live chat, 20 supervisors; a fixed-rate stream of visitor lines; what the supervisors receive of it.
 * Latency = receive time − *intended* send time, carried in the line's text (open loop).
 */
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import type { MonitorUpdateDto } from '@kefu/protocol';
import { serve } from '../lib/child.js';
import { ackOf, once, pct, pool, socket, vid, type AckRes } from './clients.js';

export interface MonitorSetup {
  cmd: 'setup';
  url: string;
  appid: string;
  agentTokens: string[];
  supervisorTokens: string[];
  chats: number;
}
export interface MonitorRun {
  cmd: 'run';
  rate: number;
  warmupMs: number;
  durationMs: number;
}
export interface MonitorRunResult {
  sent: number;
  delivered: number;
  deliveryP99: number;
  /** monitor_update events per second per supervisor (measured window). */
  eventsPerSec: number;
  /** Per-supervisor message patches received per second (what the coalescing merged them into). */
  patchesPerSec: number;
  /** Line sent → the supervisor sees it in an update (every patch of every supervisor). */
  updateP50: number;
  updateP99: number;
  ackErrors: number;
}

const TEXT_PAD = 'x'.repeat(60);

let visitors: Socket[] = [];
let agents: Socket[] = [];
let supervisors: Socket[] = [];
let onDeliver: (intended: number) => void = () => undefined;
let onUpdate: (u: MonitorUpdateDto) => void = () => undefined;

/** The intended send time a line carries as its prefix ("<ms>|<n>|pad"). */
const intendedOf = (text: string): number | null => {
  const bar = text.indexOf('|');
  if (bar < 1) return null;
  const t = Number(text.slice(0, bar));
  return Number.isFinite(t) ? t : null;
};

async function setup(m: MonitorSetup): Promise<{ chats: number }> {
  await pool(m.agentTokens, 50, async (token) => {
    const s = socket(m.url, '/im/agent', { session: token, orgi: 'kefu', admin: 'true' }, 60_000);
    await once(s, 'connect', 60_000);
    s.on('message', (msg: { message?: string; calltype?: string }) => {
      if (msg.calltype !== 'in' || typeof msg.message !== 'string') return;
      const t = intendedOf(msg.message);
      if (t !== null) onDeliver(t);
    });
    agents.push(s);
  });
  await pool(m.supervisorTokens, 20, async (token) => {
    const s = socket(m.url, '/im/agent', { session: token, orgi: 'kefu', admin: 'true' }, 60_000);
    await once(s, 'connect', 60_000);
    s.on('monitor_update', (u: MonitorUpdateDto) => onUpdate(u));
    supervisors.push(s);
  });
  let refused = 0;
  await pool(
    Array.from({ length: m.chats }, (_, i) => i),
    100,
    async () => {
      const s = socket(m.url, '/im/user', { appid: m.appid, userid: vid() }, 60_000);
      await once(s, 'welcome', 60_000);
      const r = await ackOf(s, 'new', {}, 60_000);
      if (!r.success) refused++;
      visitors.push(s);
    },
  );
  if (refused) throw new Error(`${refused} chats refused`);
  return { chats: visitors.length };
}

async function watch(on: boolean): Promise<{ watching: number }> {
  const rs = await Promise.all(supervisors.map((s) => ackOf(s, 'monitor', { watch: on })));
  const bad = rs.filter((r) => !r.success);
  if (bad.length) throw new Error(`monitor refused: ${bad[0]!.msg}`);
  return { watching: on ? supervisors.length : 0 };
}

let counter = 0;

async function run(m: MonitorRun): Promise<MonitorRunResult> {
  const start = performance.now() + 50;
  const from = start + m.warmupMs;
  const end = from + m.durationMs;
  const total = Math.floor(((m.warmupMs + m.durationMs) / 1000) * m.rate);
  const delivery: number[] = [];
  const updates: number[] = [];
  let events = 0;
  let patches = 0;
  let sentMeasured = 0;
  let ackErrors = 0;
  onDeliver = (t) => {
    if (t >= from && t < end) delivery.push(performance.now() - t);
  };
  onUpdate = (u) => {
    const now = performance.now();
    if (now >= from && now < end) {
      events++;
      patches += u.messages.length;
    }
    for (const p of u.messages) {
      const t = intendedOf(p.lastmsg);
      if (t !== null && t >= from && t < end) updates.push(now - t);
    }
  };
  let i = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * m.rate) / 1000));
      while (i < due) {
        const intended = Math.round((start + (i * 1000) / m.rate) * 1000) / 1000;
        if (intended >= from && intended < end) sentMeasured++;
        const v = visitors[i % visitors.length]!;
        v.emit(
          'message',
          {
            clientId: `m${++counter}-${process.pid}`,
            message: `${intended.toFixed(3)}|${i}|${TEXT_PAD}`,
            msgtype: 'text',
          },
          (r: AckRes) => {
            if (!r?.success) ackErrors++;
          },
        );
        i++;
      }
      if (i >= total) done();
      else setTimeout(tick, 1);
    };
    setTimeout(tick, 50);
  });
  // Drain: the last window's update and the deliveries in flight.
  const drainEnd = performance.now() + 3_000;
  while (delivery.length < sentMeasured && performance.now() < drainEnd)
    await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 1_000));
  onDeliver = () => undefined;
  onUpdate = () => undefined;
  delivery.sort((a, b) => a - b);
  updates.sort((a, b) => a - b);
  const n = Math.max(1, supervisors.length);
  const seconds = m.durationMs / 1000;
  return {
    sent: i,
    delivered: delivery.length,
    deliveryP99: pct(delivery, 99),
    eventsPerSec: events / n / seconds,
    patchesPerSec: patches / n / seconds,
    updateP50: pct(updates, 50),
    updateP99: pct(updates, 99),
    ackErrors,
  };
}

serve(async (msg) => {
  switch (msg.cmd) {
    case 'setup':
      return setup(msg as unknown as MonitorSetup);
    case 'watch':
      return watch(msg.on === true);
    case 'run':
      return run(msg as unknown as MonitorRun);
    case 'close':
      for (const s of [...visitors, ...agents, ...supervisors]) s.disconnect();
      visitors = [];
      agents = [];
      supervisors = [];
      setTimeout(() => process.exit(0), 50);
      return null;
    default:
      throw new Error(`unknown command ${String(msg.cmd)}`);
  }
});
