/**
 * B11: messaging-channel webhooks against the local fake platform (apps/server/test/fake-platform, run in
 * this process). An official account pushes safe-mode (AES) messages; measured for kefu and for a bare
 * handler (servers/channel-baseline.ts) that only verifies, decrypts, reads and emits:
 * - inbound: intended push time → the agent socket's `message`, p50 / p99 (open loop);
 * - ack: push → the webhook's answer, p99 at 500 pushes/s (target ≤ 200 ms absolute: the platforms
 *   retry after 5 s);
 * - outbound: the agent's socket `message` → the platform's custom/send arriving, p99.
 */
import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { newId } from '../../apps/server/src/platform/ids.js';
import { startFakePlatform } from '../../apps/server/test/fake-platform/index.js';
import { spawnNode, freePort, waitForPort } from './lib/child.js';
import { prepareKefuDb, startKefu, type Server } from './lib/kefu.js';
import { row, type Mode, type Row } from './lib/report.js';
import { pct } from './gen/clients.js';

const USERS = 50;
type Fake = Awaited<ReturnType<typeof startFakePlatform>>;

interface Target {
  name: string;
  url: string;
  webhook: string;
  agent: Socket;
  /** kefu: the conversation of each user, learnt from its first message. */
  convs: Map<string, { touser: string; agentserviceid: string }>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Open-loop pushes at `rate` for `ms`, built (encrypted, signed) before the clock starts so the sender only
 * sends: each push's intended time by its tag, and each answer's time after its intended time.
 */
async function pushes(
  fake: Fake,
  appid: string,
  rate: number,
  ms: number,
  tag: string,
): Promise<{ intended: Map<string, number>; acks: number[] }> {
  const n = Math.round((rate * ms) / 1000);
  const built = Array.from({ length: n }, (_, i) => ({
    text: `${tag}:${i}`,
    ...fake.wechat.buildPush(appid, `oBench${i % USERS}`, { text: `${tag}:${i}` }),
  }));
  const intended = new Map<string, number>();
  const acks: number[] = [];
  const pending: Promise<unknown>[] = [];
  const start = performance.now() + 20;
  for (let i = 0; i < n; i++) {
    const at = start + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    const { request: p, text } = built[i]!;
    intended.set(text, Date.now() - (performance.now() - at));
    pending.push(
      fetch(p.url, { method: 'POST', body: p.body, headers: p.headers }).then(async (res) => {
        await res.text();
        acks.push(performance.now() - at);
      }),
    );
  }
  await Promise.all(pending);
  return { intended, acks };
}

async function measureInbound(t: Target, fake: Fake, appid: string, rate: number, ms: number, tag: string) {
  const got = new Map<string, number>();
  const on = (m: { message?: string }) => {
    if (m.message?.startsWith(`${tag}:`)) got.set(m.message, Date.now());
  };
  t.agent.on('message', on);
  const { intended, acks } = await pushes(fake, appid, rate, ms, tag);
  const deadline = Date.now() + 10_000;
  while (got.size < intended.size && Date.now() < deadline) await sleep(20);
  t.agent.off('message', on);
  const lat = [...intended]
    .filter(([k]) => got.has(k))
    .map(([k, v]) => got.get(k)! - v)
    .sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  return { p50: pct(lat, 50), p99: pct(lat, 99), lost: intended.size - lat.length, ackP99: pct(acks, 99) };
}

async function measureOutbound(t: Target, fake: Fake, per: number, tag: string) {
  const sentAt = new Map<string, number>();
  const before = fake.wechat.sent.length;
  for (let r = 0; r < per; r++)
    for (let u = 0; u < USERS; u++) {
      const user = `oBench${u}`;
      const c = t.convs.get(user) ?? { touser: user, agentserviceid: '' };
      const message = `${tag}:${r}:${u}`;
      sentAt.set(message, Date.now());
      t.agent.emit('message', {
        touser: c.touser,
        agentserviceid: c.agentserviceid || undefined,
        message,
        clientId: `b11-${newId()}`,
      });
      await sleep(2);
    }
  const deadline = Date.now() + 15_000;
  const arrived = () =>
    fake.wechat.sent.slice(before).filter((s) => String(s.body.content ?? '').startsWith(`${tag}:`));
  while (arrived().length < sentAt.size && Date.now() < deadline) await sleep(20);
  const lat = arrived()
    .map((s) => s.at - (sentAt.get(String(s.body.content)) ?? s.at))
    .sort((a, b) => a - b);
  return { p50: pct(lat, 50), p99: pct(lat, 99), lost: sentAt.size - lat.length };
}

export async function channelWebhooks(mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const fake = await startFakePlatform();
  const fa = fake.wechat.addApp();
  const token = randomBytes(8).toString('hex');
  const aeskey = randomBytes(32).toString('base64').slice(0, 43);
  const kdb = await prepareKefuDb('sqlite', 1, 500);
  const db = kdb.open();
  const now = Date.now();
  const appRowId = newId();
  await db.kysely
    .insertInto('channel_app')
    .values({
      id: appRowId,
      orgi: 'kefu',
      channel: 'weixin',
      name: 'bench',
      platform_appid: fa.appid,
      secret: fa.secret,
      token,
      aeskey,
      createtime: now,
      updatetime: now,
    })
    .execute();
  await db.kysely
    .insertInto('channel_account')
    .values({
      id: newId(),
      orgi: 'kefu',
      appid: appRowId,
      channel: 'weixin',
      extid: fa.appid,
      name: 'bench',
      organ: null,
      createtime: now,
      updatetime: now,
    })
    .execute();
  await db.close();
  const targets: Target[] = [];
  const servers: Server[] = [];
  try {
    const kefu = await startKefu(kdb, { env: { WECHAT_API_BASE: fake.bases.wechat } });
    servers.push(kefu);
    const kAgent = io(`${kefu.url}/im/agent`, {
      query: { session: kdb.tokens[0]! },
      transports: ['websocket'],
      forceNew: true,
    });
    await new Promise<void>((r) => kAgent.once('connect', () => r()));
    await kAgent.emitWithAck('agentstatus', { status: 'ready' });
    const convs = new Map<string, { touser: string; agentserviceid: string }>();
    kAgent.on(
      'message',
      (m: { calltype: string; usession: string; agentserviceid: string; message: string }) => {
        const user = /^(?:warm|in\d+):(\d+)/.exec(m.message);
        if (m.calltype === 'in' && user)
          convs.set(`oBench${Number(user[1]) % USERS}`, {
            touser: m.usession,
            agentserviceid: m.agentserviceid,
          });
      },
    );
    targets.push({
      name: 'kefu',
      url: kefu.url,
      webhook: `${kefu.url}/webhook/weixin/${appRowId}`,
      agent: kAgent,
      convs,
      stop: async () => void kAgent.disconnect(),
    });

    const port = await freePort();
    const child = spawnNode('bench/src/servers/channel-baseline.ts', {
      core: 0,
      env: {
        PORT: String(port),
        TOKEN: token,
        AESKEY: aeskey,
        APPID: fa.appid,
        SECRET: fa.secret,
        FAKE: fake.bases.wechat,
      },
    });
    await waitForPort(port, child);
    const bUrl = `http://127.0.0.1:${port}`;
    servers.push({ child, port, url: bUrl, stop: () => child.stop() });
    const bAgent = io(`${bUrl}/im/agent`, { transports: ['websocket'], forceNew: true });
    await new Promise<void>((r) => bAgent.once('connect', () => r()));
    targets.push({
      name: 'bare',
      url: bUrl,
      webhook: `${bUrl}/webhook`,
      agent: bAgent,
      convs: new Map(),
      stop: async () => void bAgent.disconnect(),
    });
    const [k, b] = targets as [Target, Target];

    const use = (t: Target) =>
      fake.wechat.target(fa.appid, { url: t.webhook, token, aeskey, receiveId: fa.appid });
    // Warm-up: every user's first message (kefu opens their conversations).
    for (const t of [k, b]) {
      use(t);
      await measureInbound(t, fake, fa.appid, 100, (USERS * 1000) / 100, 'warm');
    }
    const rate = mode.smoke ? 50 : 100;
    const dur = mode.smoke ? 1000 : 3000;
    const ackDur = mode.smoke ? 600 : 2000;
    const inB: number[][] = [[], []];
    const inK: number[][] = [[], []];
    const ackB: number[] = [];
    const ackK: number[] = [];
    const outB: number[] = [];
    const outK: number[] = [];
    for (let r = 0; r < mode.rounds; r++) {
      for (const [t, into, acks] of [
        [b, inB, ackB],
        [k, inK, ackK],
      ] as const) {
        use(t);
        const lat = await measureInbound(t, fake, fa.appid, rate, dur, `in${r}${t.name}`);
        into[0]!.push(lat.p50);
        into[1]!.push(lat.p99);
        const burst = await measureInbound(t, fake, fa.appid, 500, ackDur, `in${r}ack${t.name}`);
        acks.push(burst.ackP99);
        log(
          `  B11 round ${r + 1} ${t.name}: inbound p50 ${lat.p50.toFixed(1)} p99 ${lat.p99.toFixed(1)} ms (lost ${lat.lost}); ack p99 @500/s ${burst.ackP99.toFixed(1)} ms`,
        );
      }
      // Each user wrote again just now: the window is open for the replies.
      const ob = await measureOutbound(b, fake, mode.smoke ? 1 : 2, `out${r}b`);
      const ok = await measureOutbound(k, fake, mode.smoke ? 1 : 2, `out${r}k`);
      outB.push(ob.p99);
      outK.push(ok.p99);
      log(
        `  B11 round ${r + 1} outbound p99: bare ${ob.p99.toFixed(1)} ms (lost ${ob.lost}), kefu ${ok.p99.toFixed(1)} ms (lost ${ok.lost})`,
      );
    }
    const ack = row(
      'B11',
      'webhook ack p99 at 500 pushes/s (target absolute ≤ 200 ms)',
      'ms',
      ackB,
      ackK,
      Number.POSITIVE_INFINITY,
      'le',
    );
    const ackMed = [...ackK].sort((a, b2) => a - b2)[Math.floor(ackK.length / 2)]!;
    // The issue sets no ratio for the two latencies: they are reported (holds null), the ack is judged.
    const info = (r: Row): Row => ({ ...r, target: '–', holds: null });
    return [
      info(
        row(
          'B11',
          'inbound push → agent socket p50 (official account, AES)',
          'ms',
          inB[0]!,
          inK[0]!,
          1,
          'le',
        ),
      ),
      info(row('B11', 'inbound push → agent socket p99', 'ms', inB[1]!, inK[1]!, 1, 'le')),
      { ...ack, target: '≤ 200 ms', holds: ackMed <= 200 },
      info(row('B11', 'outbound agent → platform send p99', 'ms', outB, outK, 1, 'le')),
    ];
  } finally {
    for (const t of targets) await t.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await kdb.drop();
    await fake.stop();
  }
}
