/** B5: new chats routed per second and new-chat → agent-notified p99, vs in-memory round-robin + emit. */
import { prepareKefuDb, startBaseline, startKefu, type Server } from './lib/kefu.js';
import { row, type Mode, type Row } from './lib/report.js';
import { startGen } from './realtime.js';
import type { AssignResult } from './gen/generator.js';

async function run(s: Server, cmd: Record<string, unknown>): Promise<AssignResult> {
  const g = startGen();
  try {
    return await g.call<AssignResult>({ cmd: 'assign', url: s.url, ...cmd }, 300_000);
  } finally {
    await g.stop();
  }
}

export async function assignment(mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const out: Row[] = [];
  const cases = mode.smoke
    ? [{ agents: 20, maxusers: 5, chats: 60 }]
    : [
        { agents: 100, maxusers: 10, chats: 600 },
        { agents: 500, maxusers: 2, chats: 600 },
      ];
  for (const c of cases) {
    const kdb = await prepareKefuDb('sqlite', c.agents, c.maxusers);
    const servers: Server[] = [];
    try {
      const common = { agents: c.agents, maxusers: c.maxusers, chats: c.chats, concurrency: 20 };
      const base = await startBaseline();
      servers.push(base);
      const b = await run(base, { target: 'baseline', ...common });
      await base.stop();
      const kefu = await startKefu(kdb);
      servers.push(kefu);
      const k = await run(kefu, { target: 'kefu', appid: kdb.appid, tokens: kdb.tokens, ...common });
      await kefu.stop();
      // Capacity check straight from the database: no agent above maxusers, counters match the rows.
      const db = kdb.open();
      let over = 0;
      try {
        const statuses = await db.kysely
          .selectFrom('agent_status')
          .select(['userid', 'users', 'maxusers'])
          .execute();
        const held = await db.kysely
          .selectFrom('agent_service')
          .select(['agentno', (eb) => eb.fn.countAll<number>().as('n')])
          .where('status', '=', 'inservice')
          .groupBy('agentno')
          .execute();
        const byAgent = new Map(held.map((h) => [h.agentno, Number(h.n)]));
        for (const st of statuses) {
          if (st.users > st.maxusers || (byAgent.get(st.userid) ?? 0) > st.maxusers) over++;
        }
      } finally {
        await db.close();
      }
      log(
        `  B5 ${c.agents} agents: baseline ${b.perSec.toFixed(0)}/s p99 ${b.p99.toFixed(1)} ms; kefu ${k.perSec.toFixed(0)}/s p99 ${k.p99.toFixed(1)} ms, ${k.assigned}/${c.chats} assigned, ${k.statusEvents} status events, over capacity: ${over}`,
      );
      if (k.assigned < c.chats)
        throw new Error(`kefu assigned ${k.assigned}/${c.chats} (${k.failed} failed)`);
      out.push(
        row('B5', `chats assigned/s, ${c.agents} agents`, '/s', [b.perSec], [k.perSec], 0.5, 'ge'),
        {
          ...row('B5', `new chat → agent notified p99, ${c.agents} agents`, 'ms', [b.p99], [k.p99], 50, 'le'),
          target: '≤ 50 ms abs',
          holds: k.p99 <= 50,
        },
        {
          id: 'B5',
          metric: `agents over capacity after the burst (DB check), ${c.agents} agents`,
          unit: '',
          baseline: null,
          ours: over,
          ratio: null,
          target: '= 0',
          holds: over === 0,
        },
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await kdb.drop();
    }
  }
  return out;
}
