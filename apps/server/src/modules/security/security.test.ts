import { describe, expect, it } from 'vitest';
import type {
  AuditLogDto,
  MySecurityDto,
  Page,
  SecurityPolicy,
  SessionDto,
  TotpSetupDto,
} from '@kefu/protocol';
import {
  call,
  expectError,
  insertRole,
  login,
  perTest,
  userWithCodes,
  type SeededApp,
} from '../../../test/factories.js';
import { insertUser } from '../../../test/harness.js';
import { grantPersonalSecurity } from '../../platform/db/migrations/0014_personal_security.js';
import { AGENT_ROLE_NAME } from '../seed/seed.service.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { base32Encode, codeAt, stepOf, verifyCode } from './totp.js';
import { ipAllowed } from './policy.js';

const env = perTest();

type StepAnswer = { token?: string; recovery?: string[]; enrol?: TotpSetupDto };

const post = <T>(
  t: SeededApp,
  url: string,
  body: Record<string, unknown>,
  token: string | null = null,
  ip?: string,
) =>
  t.app
    .inject({
      method: 'POST',
      url,
      payload: body,
      headers: token ? { authorization: token } : {},
      remoteAddress: ip,
    })
    .then((r) => ({
      status: r.statusCode,
      body: r.json<{ success: boolean; data: T; key?: string; fields?: Record<string, string> }>(),
    }));

const codeNow = (secret: string, offsetSteps = 0) => codeAt(secret, stepOf(Date.now()) + offsetSteps);

/** Starts a login with the password; answers the error (step key and ticket) or the token. */
async function begin(t: SeededApp, username: string, password: string, ip?: string) {
  return post<{ token: string }>(t, '/tokens', { username, password }, null, ip);
}

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors, accepts ±1 step, and each step once', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    expect(codeAt(secret, 1)).toBe('287082');
    expect(codeAt(secret, Math.floor(1_111_111_109 / 30))).toBe('081804');
    const now = 1_700_000_000_000;
    const step = stepOf(now);
    expect(verifyCode(secret, codeAt(secret, step), now)).toBe(step);
    expect(verifyCode(secret, codeAt(secret, step - 1), now)).toBe(step - 1);
    expect(verifyCode(secret, codeAt(secret, step - 2), now)).toBeNull();
    expect(verifyCode(secret, codeAt(secret, step), now, step)).toBeNull();
    expect(verifyCode(secret, 'abcdef', now)).toBeNull();
  });

  it('IP allow-list: addresses and CIDR ranges, IPv4-mapped IPv6, empty list allows all', () => {
    const allow = ['192.168.1.0/24', '10.0.0.7', '2001:db8::/32'];
    expect(ipAllowed('192.168.1.200', allow)).toBe(true);
    expect(ipAllowed('::ffff:192.168.1.5', allow)).toBe(true);
    expect(ipAllowed('192.168.2.1', allow)).toBe(false);
    expect(ipAllowed('10.0.0.7', allow)).toBe(true);
    expect(ipAllowed('2001:db8:1::1', allow)).toBe(true);
    expect(ipAllowed('2001:db9::1', allow)).toBe(false);
    expect(ipAllowed('anything', [])).toBe(true);
  });
});

describe('personal security (A09_A07_A01)', () => {
  it('two-factor: enrol with a code, then every login needs a code (or a recovery code, once); a wrong code is refused', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A01', 'A09_A07_A01']);
    const setup = await post<TotpSetupDto>(t, '/api/security/totp/setup', {}, u.token);
    expect(setup.body.data.uri).toContain(
      `otpauth://totp/kefu%3A${u.username}?secret=${setup.body.data.secret}`,
    );
    expectError(
      (await post(t, '/api/security/totp/enable', { code: '000000' }, u.token)) as never,
      'totp_invalid',
    );
    const enabled = await post<{ recovery: string[] }>(
      t,
      '/api/security/totp/enable',
      { code: codeNow(setup.body.data.secret) },
      u.token,
    );
    expect(enabled.body.data.recovery).toHaveLength(10);
    const me = await call<MySecurityDto>(t.app, u.token, 'GET', '/api/security/me');
    expect(me.body.data).toMatchObject({ totp: true, recoveryLeft: 10, totpRequired: false });

    // The password alone no longer signs in.
    const first = await begin(t, u.username, u.password);
    expect(first.body).toMatchObject({ success: false, key: 'totp_required' });
    const ticket = first.body.fields!.ticket!;
    expectError((await post(t, '/tokens/step', { ticket, code: '123456' })) as never, 'totp_invalid');
    // The code just used to enable is spent; the next step's code works.
    const good = await post<StepAnswer>(t, '/tokens/step', {
      ticket,
      code: codeNow(setup.body.data.secret, 1),
    });
    expect(good.body.success).toBe(true);
    expect((await call(t.app, good.body.data.token!, 'GET', '/api/agent')).status).toBe(200);
    // The ticket is spent.
    expectError(
      (await post(t, '/tokens/step', { ticket, code: codeNow(setup.body.data.secret) })) as never,
      'ticket_invalid',
    );

    // A recovery code works once.
    const rc = enabled.body.data.recovery[0]!;
    const again = await begin(t, u.username, u.password);
    const t2 = again.body.fields!.ticket!;
    expect((await post<StepAnswer>(t, '/tokens/step', { ticket: t2, code: rc })).body.success).toBe(true);
    const third = await begin(t, u.username, u.password);
    expectError(
      (await post(t, '/tokens/step', { ticket: third.body.fields!.ticket!, code: rc })) as never,
      'totp_invalid',
    );
    expect(
      (await call<MySecurityDto>(t.app, u.token, 'GET', '/api/security/me')).body.data.recoveryLeft,
    ).toBe(9);

    // Five wrong codes drop the ticket.
    const fourth = await begin(t, u.username, u.password);
    const t4 = fourth.body.fields!.ticket!;
    for (let i = 0; i < 4; i++)
      expectError((await post(t, '/tokens/step', { ticket: t4, code: '000000' })) as never, 'totp_invalid');
    expectError((await post(t, '/tokens/step', { ticket: t4, code: '000000' })) as never, 'ticket_invalid');

    // Turning it off needs a code.
    expectError(
      (await post(t, '/api/security/totp/disable', { code: '000000' }, u.token)) as never,
      'totp_invalid',
    );
    const off = await post(
      t,
      '/api/security/totp/disable',
      { code: enabled.body.data.recovery[1]! },
      u.token,
    );
    expect(off.body.success).toBe(true);
    expect((await begin(t, u.username, u.password)).body.success).toBe(true);
  });

  it('sessions: lists the signed-in devices and signs out the others', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A09_A07_A01']);
    const other = await login(t.app, u.username, u.password);
    const list = await call<SessionDto[]>(t.app, u.token, 'GET', '/api/security/sessions');
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.find((s) => s.current)?.id).toBe(hashToken(u.token));
    expect(list.body.data.every((s) => s.ip !== '')).toBe(true);
    const r = await post<{ revoked: number }>(t, '/api/security/sessions/revokeOthers', {}, u.token);
    expect(r.body.data.revoked).toBe(1);
    expect((await call(t.app, other, 'GET', '/api/agent')).status).toBe(401);
    expect((await call(t.app, u.token, 'GET', '/api/agent')).status).toBe(200);
    expect(
      (await call<SessionDto[]>(t.app, u.token, 'GET', '/api/security/sessions')).body.data,
    ).toHaveLength(1);
  });
});

describe('corporate security (A09_A07_A02)', () => {
  it('password policy: length and classes enforced on every password change; recorded with the state before', async () => {
    const t = await env.seeded();
    const saved = await post<SecurityPolicy>(
      t,
      '/api/security/policy/save',
      { minLength: 12, classes: 3 },
      t.adminToken,
    );
    expect(saved.body.data).toMatchObject({ minLength: 12, classes: 3, expireDays: 0 });
    const u = await userWithCodes(t, ['A01']);
    expectError(
      (await post(
        t,
        '/api/agent/my/updatePassword',
        { oldpassword: u.password, password: 'abcdefgh1234' },
        u.token,
      )) as never,
      'password_policy',
    );
    const ok = await post(
      t,
      '/api/agent/my/updatePassword',
      { oldpassword: u.password, password: 'Abcdefgh1234' },
      u.token,
    );
    expect(ok.body.success).toBe(true);
    const roles = await call<Array<{ id: string }>>(t.app, t.adminToken, 'GET', '/api/user/listRole');
    expectError(
      (await post(
        t,
        '/api/user/save',
        { username: 'weak1', uname: 'W', password: 'abcdefgh12', roles: [roles.body.data[0]!.id] },
        t.adminToken,
      )) as never,
      'password_policy',
    );
    const rec = await call<Page<AuditLogDto>>(
      t.app,
      t.adminToken,
      'GET',
      '/api/records/list?action=security.policy.save',
    );
    expect(JSON.parse(rec.body.data.list[0]!.before!)).toMatchObject({ minLength: 8, classes: 2 });
    for (const bad of [
      { minLength: 7 },
      { classes: 5 },
      { idleMinutes: -1 },
      { ipAllow: ['300.1.1.1'] },
      { twofactorRoles: ['nope'] },
    ])
      expect(
        (await post(t, '/api/security/policy/save', bad, t.adminToken)).body.success,
        JSON.stringify(bad),
      ).toBe(false);
  });

  it('login IP allow-list: refused outside it (and logged); an admin cannot lock out their own address', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A01']);
    expectError(
      (await post(t, '/api/security/policy/save', { ipAllow: ['10.9.0.0/16'] }, t.adminToken)) as never,
      'ip_not_allowed',
    );
    const saved = await post(
      t,
      '/api/security/policy/save',
      { ipAllow: ['127.0.0.1', '10.9.0.0/16'] },
      t.adminToken,
    );
    expect(saved.body.success).toBe(true);
    const refused = await begin(t, u.username, u.password, '203.0.113.9');
    expect(refused).toMatchObject({ status: 403, body: { key: 'ip_not_allowed' } });
    expect((await begin(t, u.username, u.password, '10.9.3.4')).body.success).toBe(true);
    const log = await t.db.kysely
      .selectFrom('login_log')
      .select('reason')
      .where('ip', '=', '203.0.113.9')
      .execute();
    expect(log.map((l) => l.reason)).toEqual(['ip_not_allowed']);
  });

  it('two-factor required for a role: the login enrols an authenticator first, then answers recovery codes', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A01', 'A09_A07_A01']);
    await post(t, '/api/security/policy/save', { twofactorRoles: [u.roleid] }, t.adminToken);
    const r = await begin(t, u.username, u.password);
    expect(r.body).toMatchObject({ key: 'totp_enrol_required' });
    const ticket = r.body.fields!.ticket!;
    const enrol = await post<StepAnswer>(t, '/tokens/step', { ticket });
    const secret = enrol.body.data.enrol!.secret;
    expectError((await post(t, '/tokens/step', { ticket, code: '000000' })) as never, 'totp_invalid');
    const done = await post<StepAnswer>(t, '/tokens/step', { ticket, code: codeNow(secret) });
    expect(done.body.data.recovery).toHaveLength(10);
    expect((await call(t.app, done.body.data.token!, 'GET', '/api/agent')).status).toBe(200);
    // It cannot be switched off while the role requires it.
    expectError(
      (await post(
        t,
        '/api/security/totp/disable',
        { code: done.body.data.recovery![0]! },
        done.body.data.token!,
      )) as never,
      'totp_enrol_required',
    );
    expect((await begin(t, u.username, u.password)).body.key).toBe('totp_required');
  });

  it('password expiry: an expired password must be replaced (under the policy) before the login finishes', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A01']);
    await post(t, '/api/security/policy/save', { expireDays: 30 }, t.adminToken);
    // Set 31 days ago.
    await t.db.kysely
      .updateTable('users')
      .set({ createtime: Date.now() - 31 * 86_400_000 })
      .where('id', '=', u.id)
      .execute();
    const r = await begin(t, u.username, u.password);
    expect(r.body.key).toBe('password_expired');
    const ticket = r.body.fields!.ticket!;
    expectError((await post(t, '/tokens/step', { ticket, password: 'short' })) as never, 'password_policy');
    const done = await post<StepAnswer>(t, '/tokens/step', { ticket, password: 'Renewed#2026' });
    expect(done.body.success).toBe(true);
    expectError((await begin(t, u.username, u.password)) as never, 'login_failed');
    expect((await begin(t, u.username, 'Renewed#2026')).body.success).toBe(true);
  });

  it('session idle timeout: a token unused for longer is ended at its next request; recent use keeps it', async () => {
    const t = await env.seeded();
    await post(t, '/api/security/policy/save', { idleMinutes: 5 }, t.adminToken);
    const u = await userWithCodes(t, ['A01']);
    const stale = await login(t.app, u.username, u.password);
    await t.db.kysely
      .updateTable('tokens')
      .set({ lastused: Date.now() - 6 * 60_000 })
      .where('id', '=', hashToken(stale))
      .execute();
    expect((await call(t.app, stale, 'GET', '/api/agent')).body).toMatchObject({ key: 'token_expired' });
    expect((await call(t.app, stale, 'GET', '/api/agent')).status).toBe(401);
    expect((await call(t.app, u.token, 'GET', '/api/agent')).status).toBe(200);
  });

  it('every stock role reaches personal security: an agent of the seeded 客服 role reads it and changes their password', async () => {
    const t = await env.seeded();
    const role = await t.db.kysely
      .selectFrom('role')
      .select('id')
      .where('name', '=', AGENT_ROLE_NAME)
      .executeTakeFirstOrThrow();
    const u = await insertUser(t.db);
    await t.db.kysely
      .insertInto('user_role')
      .values({ userid: u.id, roleid: role.id, orgi: 'kefu' })
      .execute();
    const token = await login(t.app, u.username, u.password);
    expect((await call(t.app, token, 'GET', '/api/security/me')).status).toBe(200);
    expect((await call(t.app, token, 'GET', '/api/security/sessions')).status).toBe(200);
    const changed = await call(t.app, token, 'POST', '/api/agent/my/updatePassword', {
      oldpassword: u.password,
      password: 'Agent#2026new',
    });
    expect(changed.body, JSON.stringify(changed.body)).toMatchObject({ success: true });
    expect(await login(t.app, u.username, 'Agent#2026new')).toBeTruthy();
  });

  it('migration 0014 gives personal security to every existing role, once', async () => {
    const t = await env.seeded();
    const bare = await insertRole(t.db, ['A01']);
    const held = await insertRole(t.db, ['A01', 'A09_A07_A01']);
    const codesOf = async (roleid: string) =>
      (await t.db.kysely.selectFrom('role_auth').select('code').where('roleid', '=', roleid).execute())
        .map((r) => r.code)
        .sort();
    await grantPersonalSecurity(t.db.kysely);
    await grantPersonalSecurity(t.db.kysely);
    expect(await codesOf(bare)).toEqual(['A01', 'A09_A07_A01']);
    expect(await codesOf(held)).toEqual(['A01', 'A09_A07_A01']);
  });

  it('refusals: the policy needs A09_A07_A02, the personal calls A09_A07_A01', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    for (const [m, url] of [
      ['GET', '/api/security/policy'],
      ['POST', '/api/security/policy/save'],
      ['GET', '/api/security/me'],
      ['GET', '/api/security/sessions'],
      ['POST', '/api/security/sessions/revokeOthers'],
      ['POST', '/api/security/totp/setup'],
      ['POST', '/api/security/totp/enable'],
      ['POST', '/api/security/totp/disable'],
    ] as const)
      expect(
        (await call(t.app, agent.token, m, url, m === 'POST' ? { code: '1' } : undefined)).status,
        url,
      ).toBe(403);
    expectError((await post(t, '/tokens/step', { ticket: 'forged' })) as never, 'ticket_invalid');
  });
});
