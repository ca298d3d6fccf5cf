import { describe, expect, it } from 'vitest';
import type { SkillPolicyDto, VisitorNewResult } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import {
  addAccessPoint,
  addOrgan,
  addUserWithCodes,
  api,
  call as emit,
  ok,
  socketAgent,
  visitorReady,
} from '../../../test/live.js';
import { policyChain, routingOf } from './skill-policy.js';

const env = perTest();

/** A new visitor chat for the group (to `agent` when named); the agent it was given to. */
const chatTo =
  (srv: Awaited<ReturnType<typeof env.live>>, appid: string, organ: string) => async (agent?: string) => {
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const r = ok(await emit<VisitorNewResult>(v.s, 'new', { skill: organ, ...(agent ? { agent } : {}) }));
    const s = await srv.tdb.db.kysely
      .selectFrom('agent_service')
      .select('agentno')
      .where('id', '=', r.agentserviceid)
      .executeTakeFirstOrThrow();
    return s.agentno;
  };

describe('imAgent skill/save (a skill group routing policy)', () => {
  it('saved, read back, cleared by inherit; department codes required; bad input refused; audited', async () => {
    const t = await env.seeded();
    const organ = await addOrgan(t);
    const save = (body: Record<string, unknown>, token = t.adminToken) =>
      call<SkillPolicyDto>(t.app, token, 'POST', '/api/imAgent/skill/save', body);
    const read = async () =>
      (await call<SkillPolicyDto>(t.app, t.adminToken, 'GET', `/api/imAgent/skill?organid=${organ}`)).body
        .data;
    expect(await read()).toEqual({ organid: organ, distribution: 'inherit', lastagent: 'inherit' });
    const saved = await save({ organid: organ, distribution: 'least-busy', lastagent: 'off' });
    expect(saved.body.data).toEqual({ organid: organ, distribution: 'least-busy', lastagent: 'off' });
    expect(await read()).toEqual(saved.body.data);
    // The tenant's own assignment rules are untouched.
    const cfg = (
      await call<{ distribution: string; lastagent: boolean }>(
        t.app,
        t.adminToken,
        'GET',
        '/api/sessionConfig',
      )
    ).body.data;
    expect(cfg).toMatchObject({ distribution: 'idle-first', lastagent: true });

    expectError(await save({ organid: organ, distribution: 'random' }), 'invalid_field');
    expectError(await save({ organid: organ, lastagent: 'yes' }), 'invalid_field');
    expectError(await save({ distribution: 'least-busy' }), 'required');
    expectError(await save({ organid: 'no-such-group' }), 'not_found', 404);
    const agent = await userWithCodes(t, ['A01']);
    expectError(await save({ organid: organ, distribution: 'idle-first' }, agent.token), 'forbidden', 403);
    expect((await call(t.app, agent.token, 'GET', `/api/imAgent/skill?organid=${organ}`)).status).toBe(403);
    expect(await read()).toEqual({ organid: organ, distribution: 'least-busy', lastagent: 'off' });

    await save({ organid: organ });
    expect(await read()).toEqual({ organid: organ, distribution: 'inherit', lastagent: 'inherit' });
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('target')
      .where('action', '=', 'imAgent.skill.save')
      .execute();
    expect(audit.map((a) => a.target)).toEqual([organ, organ]);
  });

  it('routingOf: the group policy over the tenant rules, other groups follow the tenant', () => {
    const cfg = {
      distribution: 'idle-first' as const,
      lastagent: true,
      skillpolicy: { g1: { distribution: 'least-busy' as const, lastagent: false } },
    };
    expect(routingOf(cfg, ['g1'], 'v')).toEqual({ distribution: 'least-busy', lastAgentOf: null });
    expect(routingOf(cfg, ['g2'], 'v')).toEqual({ distribution: 'idle-first', lastAgentOf: 'v' });
    expect(routingOf(cfg, [], 'v')).toEqual({ distribution: 'idle-first', lastAgentOf: 'v' });
    // A group without its own policy takes its parent department's; each part from the nearest that sets it.
    expect(routingOf(cfg, ['g2', 'g1'], 'v')).toEqual({ distribution: 'least-busy', lastAgentOf: null });
    const mixed = { ...cfg, skillpolicy: { ...cfg.skillpolicy, g2: { lastagent: true } } };
    expect(routingOf(mixed, ['g2', 'g1'], 'v')).toEqual({ distribution: 'least-busy', lastAgentOf: 'v' });
  });

  it('policyChain: the group and its parents up to the nearest policy; none read without group policies', async () => {
    const t = await env.seeded();
    const top = await addOrgan(t);
    const mid = await addOrgan(t);
    const leaf = await addOrgan(t);
    await t.db.kysely.updateTable('organ').set({ parentid: top }).where('id', '=', mid).execute();
    await t.db.kysely.updateTable('organ').set({ parentid: mid }).where('id', '=', leaf).execute();
    const k = t.db.kysely;
    expect(await policyChain(k, {}, 'kefu', leaf)).toEqual([leaf]);
    expect(await policyChain(k, {}, 'kefu', null)).toEqual([]);
    const onTop = { skillpolicy: { [top]: { distribution: 'least-busy' as const, lastagent: false } } };
    expect(await policyChain(k, onTop, 'kefu', leaf)).toEqual([leaf, mid, top]);
    const onMid = { skillpolicy: { [mid]: { distribution: 'least-busy' as const, lastagent: false } } };
    expect(await policyChain(k, onMid, 'kefu', leaf)).toEqual([leaf, mid]);
    // A cycle written by hand does not loop.
    await t.db.kysely.updateTable('organ').set({ parentid: leaf }).where('id', '=', top).execute();
    expect(await policyChain(k, { skillpolicy: { other: { lastagent: true } } }, 'kefu', leaf)).toEqual([
      leaf,
      mid,
      top,
    ]);
  });

  it('a chat routed to the group follows its distribution (least-busy) until set back to inherit (idle-first)', async () => {
    const srv = await env.live();
    const admin = (await addUserWithCodes(srv.tdb, ['A09_A02_A01'])).token;
    const organ = await addOrgan(srv.tdb);
    const appid = await addAccessPoint(srv.tdb);
    // A: 2 chats of 10 seats (load 0.2); B: 1 chat of 2 seats (load 0.5).
    const a = await socketAgent(srv, env.sockets, { organ, maxusers: 10 });
    const b = await socketAgent(srv, env.sockets, { organ, maxusers: 2 });
    const chat = chatTo(srv, appid, organ);
    expect([await chat(a.id), await chat(a.id), await chat(b.id)]).toEqual([a.id, a.id, b.id]);
    const set = async (distribution: string) =>
      expect(
        (await api(srv, admin, '/api/imAgent/skill/save', { organid: organ, distribution })).json.success,
      ).toBe(true);
    await set('least-busy');
    expect(await chat()).toBe(a.id);
    // Back to the tenant's idle-first: the fewest chats (B: 1 against A: 3).
    await set('inherit');
    expect(await chat()).toBe(b.id);
  });

  it('a group without its own policy follows its parent department, until it sets its own', async () => {
    const srv = await env.live();
    const admin = (await addUserWithCodes(srv.tdb, ['A09_A02_A01'])).token;
    const parent = await addOrgan(srv.tdb);
    const organ = await addOrgan(srv.tdb);
    await srv.tdb.db.kysely.updateTable('organ').set({ parentid: parent }).where('id', '=', organ).execute();
    const appid = await addAccessPoint(srv.tdb);
    const a = await socketAgent(srv, env.sockets, { organ, maxusers: 10 });
    const b = await socketAgent(srv, env.sockets, { organ, maxusers: 2 });
    const chat = chatTo(srv, appid, organ);
    const set = async (organid: string, distribution: string) =>
      expect((await api(srv, admin, '/api/imAgent/skill/save', { organid, distribution })).json.success).toBe(
        true,
      );
    // A: 2 chats of 10 seats (load 0.2); B: none of 2.
    expect([await chat(a.id), await chat(a.id)]).toEqual([a.id, a.id]);
    // The parent's least-busy: the lower load — but B is idle (0), so give B one chat first.
    expect(await chat(b.id)).toBe(b.id);
    await set(parent, 'least-busy');
    // Least-busy (the parent's): A at 0.2 beats B at 0.5; the tenant's idle-first would pick B (fewer chats).
    expect(await chat()).toBe(a.id);
    // The group's own rule wins over the parent's.
    await set(organ, 'idle-first');
    expect(await chat()).toBe(b.id);
  });
});
