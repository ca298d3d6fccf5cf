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
import { routingOf } from './skill-policy.js';

const env = perTest();

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
    expect(routingOf(cfg, 'g1', 'v')).toEqual({ distribution: 'least-busy', lastAgentOf: null });
    expect(routingOf(cfg, 'g2', 'v')).toEqual({ distribution: 'idle-first', lastAgentOf: 'v' });
    expect(routingOf(cfg, null, 'v')).toEqual({ distribution: 'idle-first', lastAgentOf: 'v' });
  });

  it('a chat routed to the group follows its distribution (least-busy) until set back to inherit (idle-first)', async () => {
    const srv = await env.live();
    const admin = (await addUserWithCodes(srv.tdb, ['A09_A02_A01'])).token;
    const organ = await addOrgan(srv.tdb);
    const appid = await addAccessPoint(srv.tdb);
    // A: 2 chats of 10 seats (load 0.2); B: 1 chat of 2 seats (load 0.5).
    const a = await socketAgent(srv, env.sockets, { organ, maxusers: 10 });
    const b = await socketAgent(srv, env.sockets, { organ, maxusers: 2 });
    const chat = async (agent?: string) => {
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
});
