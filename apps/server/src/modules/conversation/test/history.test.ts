import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { call, expectError } from '../../../../test/factories.js';
import { addAgent } from '../../../../test/live.js';
import { newId } from '../../../platform/ids.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface EndedPage {
  agentServices: {
    list: Array<{ id: string; endtime: number }>;
    total: number;
    page: number;
    size: number;
    next: string | null;
  };
}

/** `n` ended conversations of `agentno`; endtimes repeat in pairs so the cursor must settle ties by id. */
async function seedEnded(app: TestApp, agentno: string, n: number): Promise<void> {
  const base = Date.now() - 86_400_000;
  const rows = Array.from({ length: n }, (_, i) => {
    const t0 = base + Math.floor(i / 2) * 1000;
    return {
      id: newId(),
      orgi: 'kefu',
      userid: newId(),
      username: `Guest_${i}`,
      appid: 'app',
      status: 'end',
      agentno,
      createtime: t0,
      servicetime: t0,
      endtime: t0 + 500,
      ordertime: i + 1,
      lastseq: 0,
      endby: 'agent',
    };
  });
  await app.db.kysely.insertInto('agent_service').values(rows).execute();
}

describe('GET /api/talk/end/agentusers (history)', () => {
  it('pages by before= cursor over ties, matching offset paging, with next = null at the end', async () => {
    t = await createTestApp();
    const a = await addAgent(t);
    const other = await addAgent(t);
    await seedEnded(t, a.id, 25);
    await seedEnded(t, other.id, 3);
    const get = (q: string) => call<EndedPage>(t!.app, a.token, 'GET', `/api/talk/end/agentusers?${q}`);

    const byOffset: string[] = [];
    for (let p = 1; p <= 4; p++)
      byOffset.push(...(await get(`p=${p}&ps=7`)).body.data.agentServices.list.map((s) => s.id));
    expect(byOffset).toHaveLength(25);

    const byCursor: string[] = [];
    let r = (await get('ps=7')).body.data.agentServices;
    expect(r.total).toBe(25);
    for (;;) {
      byCursor.push(...r.list.map((s) => s.id));
      if (!r.next) break;
      expect(r.list).toHaveLength(7);
      r = (await get(`ps=7&before=${encodeURIComponent(r.next)}`)).body.data.agentServices;
      expect(r.total).toBe(25);
    }
    expect(byCursor).toEqual(byOffset);
    expect(new Set(byCursor).size).toBe(25);
    // Newest end first.
    const first = (await get('ps=25')).body.data.agentServices;
    const ends = first.list.map((s) => s.endtime);
    expect(ends).toEqual([...ends].sort((x, y) => y - x));
    expect(first.next).toBeNull();
    // Offset paging returns the cursor too, and it continues where the page ended.
    const p2 = (await get('p=2&ps=7')).body.data.agentServices;
    const after = (await get(`ps=7&before=${encodeURIComponent(p2.next!)}`)).body.data.agentServices;
    expect(after.list.map((s) => s.id)).toEqual(byOffset.slice(14, 21));
  });

  it('refuses a malformed cursor', async () => {
    t = await createTestApp();
    const a = await addAgent(t);
    expectError(await call(t.app, a.token, 'GET', '/api/talk/end/agentusers?before=abc'), 'invalid_field');
  });
});
