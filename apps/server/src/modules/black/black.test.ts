import { describe, expect, it } from 'vitest';
import type { BlackEntryDto, LeaveMessageOffer, Page, VisitorNewResult } from '@kefu/protocol';
import { call, count, expectError, userWithCodes, perTest } from '../../../test/factories.js';
import { addAccessPoint, call as emit, next, visitorReady } from '../../../test/live.js';
import { insertUser } from '../../../test/harness.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { isVisitorBlocked } from './black.repository.js';

const env = perTest();

describe('blacklist admin', () => {
  it('save, addIp, list, delete, clean; bad input stores nothing; code A09_A03_A10', async () => {
    const t = await env.seeded();
    const admin = (url: string, body?: Record<string, unknown>) =>
      call<BlackEntryDto>(t.app, t.adminToken, body ? 'POST' : 'GET', url, body);
    const u = await admin('/api/black/save', { userid: 'visitor-1', controltime: 0, description: 'spam' });
    expect(u.body.data).toMatchObject({ kind: 'user', value: 'visitor-1', endtime: null, expired: false });
    const again = await admin('/api/black/save', { userid: 'visitor-1', controltime: 2 });
    expect(again.body.data.endtime).toBeGreaterThan(Date.now());
    const ip = await admin('/api/black/addIp', { ip: '203.0.113.7', controltime: 24 });
    expect(ip.body.data).toMatchObject({ kind: 'ip', value: '203.0.113.7' });
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['/api/black/addIp', { ip: '999.1.1.1' }, 'ip_format'],
      ['/api/black/addIp', { ip: 'abc' }, 'ip_format'],
      ['/api/black/addIp', { ip: '' }, 'required'],
      ['/api/black/save', { userid: '' }, 'required'],
      ['/api/black/save', { userid: 'x', controltime: -1 }, 'invalid_field'],
      ['/api/black/save', { userid: 'x', description: 'd'.repeat(256) }, 'too_long'],
    ];
    for (const [url, body, key] of bad) expectError(await admin(url, body), key);
    expect((await count(t.db, 'blacklist')) + (await count(t.db, 'blacklist_ip'))).toBe(2);
    const list = await call<Page<BlackEntryDto>>(t.app, t.adminToken, 'GET', '/api/black/list?kind=ip');
    expect(list.body.data.list.map((e) => e.value)).toEqual(['203.0.113.7']);
    expect(
      (await call<Page<BlackEntryDto>>(t.app, t.adminToken, 'GET', '/api/black/list')).body.data.total,
    ).toBe(2);

    await t.db.kysely
      .updateTable('blacklist')
      .set({ endtime: Date.now() - 1 })
      .execute();
    const cleaned = await call<{ removed: number }>(t.app, t.adminToken, 'POST', '/api/black/clean');
    expect(cleaned.body.data.removed).toBe(1);
    await admin('/api/black/delete', { id: ip.body.data.id });
    expect((await count(t.db, 'blacklist')) + (await count(t.db, 'blacklist_ip'))).toBe(0);
    expectError(await admin('/api/black/delete', { id: ip.body.data.id }), 'not_found', 404);
    const agent = await userWithCodes(t, ['A01']);
    expect((await call(t.app, agent.token, 'GET', '/api/black/list')).status).toBe(403);
  });

  it('expiry: an entry blocks until its end time', async () => {
    const t = await env.seeded();
    await call(t.app, t.adminToken, 'POST', '/api/black/save', { userid: 'v-exp', controltime: 1 });
    const now = Date.now();
    expect(await isVisitorBlocked(t.db.kysely, 'kefu', 'v-exp', now)).toBe(true);
    expect(await isVisitorBlocked(t.db.kysely, 'kefu', 'v-exp', now + 3_600_000 + 5_000)).toBe(false);
    expect(await isVisitorBlocked(t.db.kysely, 'kefu', 'someone', now)).toBe(false);
  });

  it('an IP entry blocks the visitor who last connected from it, in either IPv4 spelling, until it ends', async () => {
    const t = await env.seeded();
    const k = t.db.kysely;
    const now = Date.now();
    const visitor = (id: string, ip: string) =>
      k
        .insertInto('visitor')
        .values({ id, orgi: 'kefu', appid: 'ap', token_hash: 'x', ip, createtime: now, updatetime: now })
        .execute();
    await visitor('v-mapped', '::ffff:203.0.113.7');
    await visitor('v-plain', '198.51.100.9');
    await visitor('v-noip', '');
    const entry = (ip: string, endtime: number | null) =>
      k
        .insertInto('blacklist_ip')
        .values({ id: `b-${ip}`, orgi: 'kefu', ip, creater: 'admin', endtime, createtime: now })
        .execute();
    await entry('203.0.113.7', null);
    await entry('::ffff:198.51.100.9', now + 1_000);
    await entry('', null);
    expect(await isVisitorBlocked(k, 'kefu', 'v-mapped', now)).toBe(true);
    expect(await isVisitorBlocked(k, 'other', 'v-mapped', now)).toBe(false);
    expect(await isVisitorBlocked(k, 'kefu', 'v-plain', now)).toBe(true);
    expect(await isVisitorBlocked(k, 'kefu', 'v-plain', now + 2_000)).toBe(false);
    expect(await isVisitorBlocked(k, 'kefu', 'v-noip', now)).toBe(false);
  });
});

describe('engine: a blacklisted visitor cannot start a chat', () => {
  it('by visitor id and by IP, with the leave-message offer; expired entries no longer block', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const admin = await issueToken(
      srv.tdb.db.kysely,
      (await insertUser(srv.tdb.db, { usertype: '0' })).id,
      'kefu',
      3_600_000,
    );
    const post = (url: string, payload: Record<string, unknown>) =>
      srv.app
        .inject({ method: 'POST', url, headers: { authorization: admin }, payload })
        .then((r) => r.json<{ success: boolean }>());

    const v1 = await visitorReady(srv.url, appid);
    env.sockets.push(v1.s);
    expect((await post('/api/black/save', { userid: v1.userid, controltime: 1 })).success).toBe(true);
    const offer = next<LeaveMessageOffer>(v1.s, 'leavemsg');
    const r1 = await emit<VisitorNewResult>(v1.s, 'new');
    expect(r1.success).toBe(false);
    if (!r1.success) expect(r1.key).toBe('visitor_blacklisted');
    expect((await offer).reason).toBe('blacklist');
    expect(await count(srv.tdb.db, 'agent_service')).toBe(0);

    // Two hours later the one-hour entry has expired.
    await srv.clock.advance(2 * 3_600_000);
    expect((await emit<VisitorNewResult>(v1.s, 'new')).success).toBe(true);

    const v2 = await visitorReady(srv.url, appid);
    env.sockets.push(v2.s);
    const ip = (
      await srv.tdb.db.kysely
        .selectFrom('visitor')
        .select('ip')
        .where('id', '=', v2.userid)
        .executeTakeFirstOrThrow()
    ).ip;
    expect((await post('/api/black/addIp', { ip: ip.replace(/^::ffff:/, ''), controltime: 0 })).success).toBe(
      true,
    );
    const r2 = await emit<VisitorNewResult>(v2.s, 'new');
    expect(r2.success).toBe(false);
    if (!r2.success) expect(r2.key).toBe('visitor_blacklisted');
    expect(await count(srv.tdb.db, 'agent_service')).toBe(1);
  });
});
