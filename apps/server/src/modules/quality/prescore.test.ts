import { describe, expect, it } from 'vitest';
import {
  QUALITY_API as A,
  type MessageDto,
  type Page,
  type QualityCandidateDto,
  type QualityDetailDto,
  type QualityNotice,
  type QualityRowDto,
  type VisitorNewResult,
} from '@kefu/protocol';
import { perTest } from '../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  api,
  call,
  next,
  ok,
  socketAgent,
  until,
  visitorReady,
} from '../../../test/live.js';
import { seedConversation } from '../history/history.fixtures.js';
import { findingsOf, prescore } from './prescore.js';
import { okData, qualityWorld, req } from './quality.fixtures.js';
import { readSettings } from './scorecard.service.js';

const env = perTest();

describe('automatic pre-scoring', () => {
  it('the rules over lines: each finding cites its messages and rule', () => {
    const cfg = { ...readSettings({}), greetings: ['您好'], closings: ['再见'] };
    const s = {
      id: 's',
      orgi: 'kefu',
      servicetime: 0,
      waittime: 0,
      satisfaction: 0,
      satislevel: null,
      trans: 0,
      ai: 0,
      foragent: 0,
    };
    const line = (id: string, agent: boolean, at: number, text = '') => ({
      id,
      agent,
      createtime: at * 1000,
      text,
    });
    const f = findingsOf(
      s,
      [
        line('v1', false, 10),
        line('a1', true, 100, '在的'),
        line('v2', false, 110),
        line('a2', true, 400, '好的，再见'),
      ],
      [],
      cfg,
    );
    expect(f.map((x) => [x.rule, x.messageids, x.value])).toEqual([
      ['first_response', ['v1', 'a1'], 90_000],
      ['silence', ['v2', 'a2'], 290_000],
      ['greeting', ['a1'], 0],
    ]);
    // Answered in time, greeted, closed: nothing.
    expect(
      findingsOf(
        s,
        [line('v1', false, 10), line('a1', true, 20, '您好'), line('a2', true, 30, '再见')],
        [],
        cfg,
      ),
    ).toEqual([]);
    // Never answered; never served (abandoned); a robot handed over.
    expect(findingsOf(s, [line('v1', false, 10)], [], cfg).map((x) => [x.rule, x.messageids])).toEqual([
      ['first_response', ['v1']],
    ]);
    expect(
      findingsOf({ ...s, servicetime: null, waittime: 95_000, ai: 1, foragent: 1 }, [], [], cfg).map((x) => [
        x.rule,
        x.value,
      ]),
    ).toEqual([
      ['abandoned', 95_000],
      ['ai_handoff', 0],
    ]);
  });

  it('ended conversations in the database: findings with message ids, kept apart from the score', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    okData(await req(t, t.adminToken, A.settingsSave, { greetings: ['您好'], closings: '再见\n拜拜' }));
    const created = Date.now() - 3_600_000;
    const chat = await seedConversation(t, {
      agentno: w.agent.id,
      createtime: created,
      servicetime: created + 5_000,
      satisfaction: 1,
      satislevel: '5',
      trans: 1,
      messages: [
        '在吗',
        { text: '在的', calltype: 'out' },
        '发票怎么开',
        { text: '加微信私聊', calltype: 'out' },
      ],
    });
    const msgs = await t.db.kysely
      .selectFrom('chat_message')
      .select(['id', 'seq'])
      .where('agentserviceid', '=', chat)
      .orderBy('seq')
      .execute();
    // The answer came 190 s after the question.
    await t.db.kysely
      .updateTable('chat_message')
      .set({ createtime: created + 200_000 })
      .where('id', '=', msgs[1]!.id)
      .execute();
    await t.db.kysely
      .updateTable('chat_message')
      .set({ createtime: created + 210_000 })
      .where('id', '=', msgs[2]!.id)
      .execute();
    await t.db.kysely
      .updateTable('chat_message')
      .set({ createtime: created + 215_000 })
      .where('id', '=', msgs[3]!.id)
      .execute();
    await t.db.kysely
      .insertInto('sensitive_hit')
      .values({
        id: 'h1',
        orgi: 'kefu',
        agentserviceid: chat,
        messageid: msgs[3]!.id,
        side: 'agent',
        action: 'alert',
        words: '微信',
        createtime: created,
      })
      .execute();
    const abandoned = await seedConversation(t, {
      servicetime: null,
      waittime: 130_000,
      messages: ['有人吗'],
    });

    expect(await prescore(t.db, [chat, abandoned])).toBe(2);
    // Again: replaced, not doubled.
    expect(await prescore(t.db, [chat, abandoned])).toBe(2);
    const found = await t.db.kysely
      .selectFrom('quality_finding')
      .selectAll()
      .where('agentserviceid', '=', chat)
      .orderBy('rule')
      .execute();
    const byRule = Object.fromEntries(found.map((f) => [f.rule, JSON.parse(f.messageids) as string[]]));
    expect(byRule).toEqual({
      closing: [msgs[3]!.id],
      first_response: [msgs[0]!.id, msgs[1]!.id],
      greeting: [msgs[1]!.id],
      satisfaction: [],
      sensitive: [msgs[3]!.id],
      silence: [msgs[0]!.id, msgs[1]!.id],
      transfer: [],
    });
    expect(found.find((f) => f.rule === 'sensitive')?.detail).toBe('微信');
    const ab = await t.db.kysely
      .selectFrom('quality_finding')
      .select(['rule', 'value'])
      .where('agentserviceid', '=', abandoned)
      .execute();
    expect(ab.map((x) => [x.rule, Number(x.value)])).toEqual([['abandoned', 130_000]]);

    // The assigner sees the automatic points and can pick by rule; the inspector sees the findings beside the score.
    const byRuleList = okData(
      await req<Page<QualityCandidateDto>>(t, w.assigner.token, `${A.notAllotList}?rule=sensitive`),
    );
    expect(byRuleList.list.map((c) => [c.agentserviceid, c.autopoints])).toEqual([
      [chat, 2 + 2 + 5 + 3 + 0 + 1 + 1],
    ]);
    okData(await req(t, t.adminToken, A.allotManual, { ids: [chat], inspectors: [w.inspector.id] }));
    const row = okData(
      await req<QualityRowDto | null>(t, w.inspector.token, `${A.get}?agentserviceid=${chat}`),
    )!;
    const d = okData(await req<QualityDetailDto>(t, w.inspector.token, `${A.detail}?id=${row.id}`));
    expect(d.row).toMatchObject({ autopoints: 14, score: null });
    expect(d.findings.map((f) => f.rule).sort()).toEqual(Object.keys(byRule).sort());

    // Automation with the sensitive filter picks the conversation with a hit only.
    const hit = await seedConversation(t, {
      agentno: w.agent2.id,
      messages: ['hi', { text: 'x', calltype: 'out' }],
    });
    await t.db.kysely
      .insertInto('sensitive_hit')
      .values({
        id: 'h2',
        orgi: 'kefu',
        agentserviceid: hit,
        messageid: '',
        side: 'agent',
        action: 'block',
        words: 'x',
        createtime: created,
      })
      .execute();
    await seedConversation(t, { agentno: w.agent2.id, messages: ['hi'] });
    const auto = okData(
      await req<{ allotted: number }>(t, w.assigner.token, A.allotAutomation, {
        share: 10,
        begin: 0,
        filters: { sensitive: true },
        inspectors: [w.inspector2.id],
      }),
    );
    expect(auto.allotted).toBe(1);
    const got = await t.db.kysely
      .selectFrom('quality_inspection')
      .select('agentserviceid')
      .where('inspector', '=', w.inspector2.id)
      .execute();
    expect(got.map((r) => r.agentserviceid)).toEqual([hit]);
  });

  it('a live conversation is pre-scored after it ends, and the agent is told when a result is sent', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const agent = await socketAgent(srv, env.sockets);
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const r = ok(await call<VisitorNewResult>(v.s, 'new'));
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-visitor-1', message: '在吗' }));
    ok(
      await call<MessageDto>(agent.sock, 'message', {
        touser: v.userid,
        agentserviceid: r.agentserviceid,
        message: '在的',
        clientId: 'c-agent-01',
      }),
    );
    const boss = await addUserWithCodes(srv.tdb, ['A11', 'A11_A01', 'A11_A02', 'A09_A03_A12']);
    const post = (url: string, body: unknown) => api(srv, boss.token, url, body);
    await post(A.settingsSave, { greetings: ['您好'] });
    await api(srv, agent.token, `/api/talk/end?agentserviceid=${r.agentserviceid}`);
    const k = srv.tdb.db.kysely;
    await until(
      async () =>
        !!(await k
          .selectFrom('quality_conv')
          .select('scanned')
          .where('agentserviceid', '=', r.agentserviceid)
          .executeTakeFirst()),
    );
    const f = await k
      .selectFrom('quality_finding')
      .select(['rule', 'messageids'])
      .where('agentserviceid', '=', r.agentserviceid)
      .execute();
    expect(f.map((x) => x.rule)).toEqual(['greeting']);

    // Score and send: the agent's socket hears `quality`.
    const typeRes = await post(A.labelTypeSave, { name: 'card' });
    const typeid = (typeRes.json as { data: { id: string } }).data.id;
    const labelRes = await post(A.labelSave, { typeid, name: 'greet', points: 5 });
    const labelid = (labelRes.json as { data: { id: string } }).data.id;
    await post(A.allotManual, { ids: [r.agentserviceid], inspectors: [boss.id] });
    const rows = (await api<Page<QualityRowDto>>(srv, boss.token, A.list)).json.data.list;
    const heard = next<QualityNotice>(agent.sock, 'quality');
    await post(A.save, { id: rows[0]!.id, items: [{ labelid, score: 5 }], send: true });
    expect(await heard).toMatchObject({ type: 'result', inspectionid: rows[0]!.id, score: 95, pass: true });
  });
});
