/**
 * B6: list queries over many stored messages (1M; smoke 20k), SQLite. kefu's GET /api/talk/chatMessage
 * (one conversation's newest page and a deep keyset page) and GET /api/talk/end/agentusers (the agent's
 * history of ended conversations: first page, a deep page by `before` cursor and the same page by
 * offset) against bare node:http + JSON.stringify serving the same rows from the same file with the
 * same SQL.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { newId } from '../../apps/server/src/platform/ids.js';
import { ROOT, freePort, spawnNode, waitForPort, type Child } from './lib/child.js';
import { prepareKefuDb, startKefu, type Server } from './lib/kefu.js';
import { row, type Mode, type Row } from './lib/report.js';

interface Seeded {
  big: string;
  conversations: number;
  messages: number;
  bigMessages: number;
}

/** Direct SQL in batches inside one transaction: one long conversation plus many 100-message ones, all ended. */
export function seed(file: string, agent: string, appid: string, total: number): Seeded {
  const db = new SQLite(file);
  const bigMessages = Math.floor(total / 5);
  const perConv = 100;
  const conversations = 1 + Math.floor((total - bigMessages) / perConv);
  const now = Date.now() - 86_400_000;
  const insService = db.prepare(
    `insert into agent_service (id, orgi, userid, username, appid, status, agentno, createtime, servicetime, endtime, ordertime, lastseq, endby)
     values (?, 'kefu', ?, ?, ?, 'end', ?, ?, ?, ?, ?, ?, 'agent')`,
  );
  const insUser = db.prepare(
    `insert into agent_user (id, orgi, agentserviceid, userid, username, agentno, status, createtime, servicetime, updatetime)
     values (?, 'kefu', ?, ?, ?, ?, 'end', ?, ?, ?)`,
  );
  const insMsg = db.prepare(
    // tokens '' (nothing to index): rows without search words would keep the server's backfill busy during B6.
    `insert into chat_message (id, orgi, agentserviceid, seq, sender, client_id, username, touser, usession, type, msgtype, calltype, message, createtime, tokens)
     values (?, 'kefu', ?, ?, ?, ?, ?, ?, ?, 'message', 'text', ?, ?, ?, '')`,
  );
  let big = '';
  db.transaction(() => {
    for (let c = 0; c < conversations; c++) {
      const sid = newId();
      const visitor = newId();
      const n = c === 0 ? bigMessages : perConv;
      if (c === 0) big = sid;
      const t = now + c * 1000;
      insService.run(sid, visitor, `Guest_${c}`, appid, agent, t, t, t + 500, c + 1, n);
      insUser.run(newId(), sid, visitor, `Guest_${c}`, agent, t, t, t + 500);
      for (let s = 1; s <= n; s++) {
        const inbound = s % 2 === 1;
        insMsg.run(
          newId(),
          sid,
          s,
          inbound ? visitor : agent,
          `c${c}-${s}`,
          inbound ? `Guest_${c}` : 'agent',
          inbound ? agent : visitor,
          visitor,
          inbound ? 'in' : 'out',
          `message number ${s} of conversation ${c}, some ordinary text`,
          t + s,
        );
      }
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  return { big, conversations, messages: total, bigMessages };
}

interface Cannon {
  rps: number;
  p99: number;
  errors: number;
  /** Server CPU time (user + system) per completed request, µs: robust to other load on the box. */
  cpuUs: number;
}

/** autocannon's CLI in its own process, pinned to the generator core. */
async function cannon(
  server: Child,
  url: string,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<Cannon> {
  const args = ['-c', '50', '-d', String(seconds), '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  const child = spawnNode(join(ROOT, 'node_modules/autocannon/autocannon.js'), { core: 1, args });
  let out = '';
  child.proc.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  const cpu0 = await server.call<NodeJS.CpuUsage>({ cmd: 'cpu' });
  await new Promise<void>((res) => child.proc.once('exit', () => res()));
  const cpu1 = await server.call<NodeJS.CpuUsage>({ cmd: 'cpu' });
  const j = JSON.parse(out.slice(out.indexOf('{'))) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    errors: number;
    non2xx: number;
  };
  const cpu = cpu1.user + cpu1.system - cpu0.user - cpu0.system;
  return {
    rps: j.requests.average,
    p99: j.latency.p99,
    errors: j.errors + j.non2xx,
    cpuUs: cpu / Math.max(1, j.requests.total),
  };
}

export async function listQueries(mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const total = mode.smoke ? 20_000 : 1_000_000;
  const kdb = await prepareKefuDb('sqlite', 1, 10);
  const servers: Array<Server | { stop(): Promise<void> }> = [];
  try {
    const t0 = Date.now();
    const file = join(kdb.dataDir, 'kefu.sqlite');
    const s = seed(file, kdb.agentIds[0], kdb.appid, total);
    log(
      `  seeded ${s.messages} messages in ${s.conversations} conversations in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const kefu = await startKefu(kdb);
    servers.push(kefu);
    const port = await freePort();
    const baseChild: Child = spawnNode('bench/src/servers/http-baseline.ts', {
      core: 0,
      flags: ['--import', './bench/src/servers/probe.ts'],
      env: { PORT: String(port), KEFU_DATA_DIR: kdb.dataDir },
    });
    servers.push(baseChild);
    await waitForPort(port, baseChild);
    const base = `http://127.0.0.1:${port}`;
    const agent = kdb.agentIds[0];
    const deepP = Math.max(2, Math.floor((s.conversations - 1) / 20));
    // The keyset cursor that reaches the same rows as page deepP: the row just before its first one.
    const ro = new SQLite(file, { readonly: true });
    const prev = ro
      .prepare(
        `select endtime, id from agent_service where agentno = ? and status = 'end'
         order by endtime desc, id desc limit 1 offset ?`,
      )
      .get(agent, (deepP - 1) * 20 - 1) as { endtime: number; id: string };
    ro.close();
    const cursor = encodeURIComponent(`${prev.endtime}:${prev.id}`);
    const cases = [
      {
        name: 'conversation messages, newest page',
        ours: `/api/talk/chatMessage?agentserviceid=${s.big}&ps=20`,
        base: `/m?sid=${s.big}&ps=20`,
      },
      {
        name: 'conversation messages, deep page (before=100)',
        ours: `/api/talk/chatMessage?agentserviceid=${s.big}&ps=20&before=100`,
        base: `/m?sid=${s.big}&ps=20&before=100`,
      },
      {
        name: 'history list, first page',
        ours: `/api/talk/end/agentusers?p=1&ps=20`,
        base: `/h?agent=${agent}&p=1&ps=20`,
      },
      {
        name: `history list, deep page (before= cursor, row ${(deepP - 1) * 20})`,
        ours: `/api/talk/end/agentusers?before=${cursor}&ps=20`,
        base: `/h?agent=${agent}&before=${cursor}&ps=20`,
      },
      {
        name: `history list, deep page by offset (p=${deepP})`,
        ours: `/api/talk/end/agentusers?p=${deepP}&ps=20`,
        base: `/h?agent=${agent}&p=${deepP}&ps=20`,
      },
    ];
    const secs = mode.smoke ? 1 : 4;
    const auth = { authorization: kdb.tokens[0] };
    // Warm both servers on every case (the smoke run only checks that everything answers).
    if (!mode.smoke)
      for (const c of cases) {
        await cannon(baseChild, `${base}${c.base}`, 1);
        await cannon(kefu.child, `${kefu.url}${c.ours}`, 1, auth);
      }
    const res: Array<{ b: Cannon[]; k: Cannon[] }> = cases.map(() => ({ b: [], k: [] }));
    for (let r = 0; r < Math.max(1, mode.rounds - 1); r++) {
      for (const [i, c] of cases.entries()) {
        res[i].b.push(await cannon(baseChild, `${base}${c.base}`, secs));
        res[i].k.push(await cannon(kefu.child, `${kefu.url}${c.ours}`, secs, auth));
        const last = res[i].k[res[i].k.length - 1];
        if (last.errors) throw new Error(`${c.name}: ${last.errors} errors/non-2xx from kefu`);
        log(
          `  B6 ${c.name}: node:http ${res[i].b[r].rps.toFixed(0)} req/s ${res[i].b[r].cpuUs.toFixed(0)} µs CPU/req, kefu ${last.rps.toFixed(0)} req/s ${last.cpuUs.toFixed(0)} µs CPU/req`,
        );
      }
    }
    const out: Row[] = cases.map((c, i) =>
      row(
        'B6',
        `${c.name} (${(total / 1e6).toFixed(2)}M msgs)`,
        'req/s',
        res[i].b.map((x) => x.rps),
        res[i].k.map((x) => x.rps),
        0.7,
        'ge',
      ),
    );
    // Deep page cost relative to the first page (time per request = 1 / req/s), ours.
    const deep = (first: number, deepI: number, name: string): Row => {
      const f = out[first].ours;
      const d = out[deepI].ours;
      const ratio = f / d;
      return {
        id: 'B6',
        metric: `${name}: deep page time / first page time (kefu)`,
        unit: 'req/s',
        baseline: f,
        ours: d,
        ratio,
        target: '≤ 1.2×',
        holds: ratio <= 1.2,
        note: 'baseline column = first page',
      };
    };
    out.push(deep(0, 1, 'messages'), deep(2, 3, 'history'));
    // Server CPU per request (robust when other work shares the box, like B2's CPU per message).
    for (const [i, c] of cases.entries())
      out.push({
        ...row(
          'B6',
          `${c.name}: server CPU per request`,
          'µs',
          res[i].b.map((x) => x.cpuUs),
          res[i].k.map((x) => x.cpuUs),
          1,
          'le',
        ),
        target: '–',
        holds: null,
      });
    return out;
  } finally {
    await Promise.all(servers.map((x) => x.stop()));
    await kdb.drop();
  }
}
