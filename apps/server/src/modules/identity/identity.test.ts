import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IDENTITY_API,
  type BindPendingDto,
  type IdentityProviderDto,
  type LoginOptionsDto,
  type MyIdentityDto,
  type TotpSetupDto,
} from '@kefu/protocol';
import {
  call,
  expectError,
  login,
  perTest,
  userWithCodes,
  type Res,
  type SeededApp,
} from '../../../test/factories.js';
import { createTestDb } from '../../../test/harness.js';
import { startLocalOidc, type LocalOidc } from '../../../test/oidc-provider.js';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../platform/db/database.js';
import { seed } from '../seed/seed.service.js';
import { codeAt, stepOf } from '../security/totp.js';

const env = perTest();
let oidc: LocalOidc | undefined;
afterEach(async () => {
  await oidc?.close();
  oidc = undefined;
});

type Answer = { token?: string } & Partial<BindPendingDto>;

async function withProvider(t: SeededApp, extra: Record<string, unknown> = {}) {
  oidc = await startLocalOidc();
  const saved = await call<IdentityProviderDto>(t.app, t.adminToken, 'POST', IDENTITY_API.providerSave, {
    name: 'Local SSO',
    kind: 'oidc',
    issuer: oidc.issuer,
    clientid: oidc.clientid,
    clientsecret: oidc.clientsecret,
    ...extra,
  });
  expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ success: true });
  return { oidc, provider: saved.body.data };
}

/** Start → the provider's authorize page (auto-approves) → the callback, as the console does. */
async function viaProvider(t: SeededApp, o: LocalOidc, provider: string, mutate?: (back: URL) => void) {
  const s = await call<{ url: string }>(t.app, null, 'POST', IDENTITY_API.thirdStart, { provider });
  expect(s.body.success, JSON.stringify(s.body)).toBe(true);
  const back = await o.authorize(s.body.data.url);
  mutate?.(back);
  return call<Answer>(t.app, null, 'POST', IDENTITY_API.thirdCallback, {
    code: back.searchParams.get('code'),
    state: back.searchParams.get('state'),
  });
}

describe('self-registration (/register)', () => {
  it('is refused while KEFU_SELF_REGISTER is off (the default)', async () => {
    const t = await env.seeded();
    const opts = await call<LoginOptionsDto>(t.app, null, 'GET', IDENTITY_API.options);
    expect(opts.body.data.register).toBe(false);
    const r = await call(t.app, null, 'POST', IDENTITY_API.register, {
      company: 'Acme',
      username: 'acme',
      password: 'Acme#2026pass',
    });
    expectError(r, 'register_disabled', 403);
    expect(
      (await call(t.app, null, 'POST', '/tokens', { username: 'acme', password: 'Acme#2026pass' })).body
        .success,
    ).toBe(false);
  });

  it('creates a tenant with its administrator, who logs in and sees only its own tenant; duplicates, weak passwords and floods are refused', async () => {
    const t = await env.seeded({ selfRegister: true, registerRateLimit: 4 });
    const opts = await call<LoginOptionsDto>(t.app, null, 'GET', IDENTITY_API.options);
    expect(opts.body.data.register).toBe(true);
    const body = {
      company: 'Acme Ltd',
      username: 'acme.admin',
      password: 'Acme#2026pass',
      email: 'it@acme.test',
    };
    const r = await call<{ orgi: string; username: string }>(
      t.app,
      null,
      'POST',
      IDENTITY_API.register,
      body,
    );
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true, data: { username: 'acme.admin' } });
    const orgi = r.body.data.orgi;
    expect(orgi).not.toBe(t.config.orgi);

    const token = await login(t.app, 'acme.admin', 'Acme#2026pass');
    const me = await call<{ user: { orgi: string; usertype: string } }>(t.app, token, 'GET', '/api/agent');
    expect(me.body.data.user).toMatchObject({ orgi, usertype: '0' });
    const users = await call<{ list: Array<{ username: string }> }>(t.app, token, 'GET', '/api/user/page');
    expect(users.body.data.list.map((u) => u.username)).toEqual(['acme.admin']);
    const roles = await t.db.kysely.selectFrom('role').select('name').where('orgi', '=', orgi).execute();
    expect(roles.map((x) => x.name).sort()).toEqual(['客服', '管理员'].sort());
    const organs = await t.db.kysely.selectFrom('organ').select('skill').where('orgi', '=', orgi).execute();
    expect(organs).toEqual([{ skill: 1 }]);
    const org = await t.db.kysely
      .selectFrom('organization')
      .select('name')
      .where('id', '=', orgi)
      .executeTakeFirst();
    expect(org?.name).toBe('Acme Ltd');

    // The same company (any case), a username of any tenant, a weak password: refused, nothing written.
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.register, {
        ...body,
        company: 'ACME LTD',
        username: 'other1',
      }),
      'company_repeat',
    );
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.register, { ...body, company: 'Beta', username: 'admin' }),
      'username_repeat',
    );
    // Limit 4 per hour: the fourth is the weak password, the fifth is refused before anything is checked.
    const weak = await call(t.app, null, 'POST', IDENTITY_API.register, {
      company: 'Gamma',
      username: 'gamma',
      password: 'short',
    });
    expectError(weak, 'password_policy');
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.register, {
        company: 'Delta',
        username: 'delta',
        password: 'Delta#2026pass',
      }),
      'register_rate_limited',
      429,
    );
    const orgs = await t.db.kysely.selectFrom('organization').select('name').execute();
    expect(orgs.map((o) => o.name).sort()).toEqual(['Acme Ltd', '在线客服'].sort());
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.register, { company: '', username: 'x y', password: '' }),
      'required',
    );
  });
});

describe('third-party login (/thirdLogin)', () => {
  it('unbound identity → binding: a wrong password is refused, the right one binds and logs in; then the identity logs straight in; unbind', async () => {
    const t = await env.seeded();
    const { oidc: o, provider } = await withProvider(t);
    expect(provider).toMatchObject({ hassecret: true, scope: 'openid profile email' });
    expect(JSON.stringify(provider)).not.toContain(o.clientsecret);
    const opts = await call<LoginOptionsDto>(t.app, null, 'GET', IDENTITY_API.options);
    expect(opts.body.data.providers).toEqual([{ id: provider.id, name: 'Local SSO' }]);

    const first = await viaProvider(t, o, provider.id);
    // PKCE and nonce went to the provider; the verifier came back at the token call.
    expect(o.lastAuthorize?.get('code_challenge_method')).toBe('S256');
    expect(o.lastAuthorize?.get('nonce')).toBeTruthy();
    expect(o.lastToken?.get('code_verifier')).toBeTruthy();
    expect(first.body.data).toMatchObject({ provider: 'Local SSO', display: 'Alice' });
    const ticket = first.body.data.bind as string;

    const agent = await userWithCodes(t, ['A01', 'A09_A07_A01']);
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.thirdBind, {
        ticket,
        username: agent.username,
        password: 'wrong#Pass1',
      }),
      'login_failed',
    );
    const bound = await call<{ token: string }>(t.app, null, 'POST', IDENTITY_API.thirdBind, {
      ticket,
      username: agent.username,
      password: agent.password,
    });
    expect(bound.body, JSON.stringify(bound.body)).toMatchObject({ success: true });
    // The ticket is spent.
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.thirdBind, {
        ticket,
        username: agent.username,
        password: agent.password,
      }),
      'ticket_invalid',
    );

    const again = await viaProvider(t, o, provider.id);
    expect(again.body.data.token).toBeTruthy();
    const who = await call<{ user: { id: string } }>(t.app, again.body.data.token ?? '', 'GET', '/api/agent');
    expect(who.body.data.user.id).toBe(agent.id);

    const mine = await call<MyIdentityDto[]>(t.app, agent.token, 'GET', IDENTITY_API.mine);
    expect(mine.body.data).toMatchObject([
      { provider: provider.id, providername: 'Local SSO', subject: 'alice-sub' },
    ]);
    expect(
      (await call(t.app, agent.token, 'POST', IDENTITY_API.unbind, { provider: provider.id })).body.success,
    ).toBe(true);
    expect((await call<MyIdentityDto[]>(t.app, agent.token, 'GET', IDENTITY_API.mine)).body.data).toEqual([]);
    expect((await viaProvider(t, o, provider.id)).body.data.bind).toBeTruthy();
  });

  it('refuses a forged state, a replayed state, a wrong nonce, audience or issuer, an expired token and a bad signature', async () => {
    const t = await env.seeded();
    const { oidc: o, provider } = await withProvider(t);
    expectError(
      await viaProvider(t, o, provider.id, (b) => b.searchParams.set('state', 'forged-state-value')),
      'third_login_failed',
    );
    // Replay: the same state twice.
    const s = await call<{ url: string }>(t.app, null, 'POST', IDENTITY_API.thirdStart, {
      provider: provider.id,
    });
    const back = await o.authorize(s.body.data.url);
    const cb = { code: back.searchParams.get('code'), state: back.searchParams.get('state') };
    expect(
      (await call<Answer>(t.app, null, 'POST', IDENTITY_API.thirdCallback, cb)).body.data.bind,
    ).toBeTruthy();
    expectError(await call(t.app, null, 'POST', IDENTITY_API.thirdCallback, cb), 'third_login_failed');

    for (const tamper of [
      { nonce: 'not-the-nonce' },
      { aud: 'someone-else' },
      { iss: 'http://evil.example' },
      { expIn: -3600 },
      { badSignature: true },
    ]) {
      o.tamper = tamper;
      const r = await viaProvider(t, o, provider.id);
      expectError(r, 'third_login_failed');
      expect(r.body.data ?? null, JSON.stringify(tamper)).toBeNull();
    }
    o.tamper = {};
    expect((await viaProvider(t, o, provider.id)).body.data.bind).toBeTruthy();
  });

  it('a bound identity still needs the account’s two-factor code, and the IP allow-list applies', async () => {
    const t = await env.seeded();
    const { oidc: o, provider } = await withProvider(t);
    const u = await userWithCodes(t, ['A01', 'A09_A07_A01']);
    const setup = await call<TotpSetupDto>(t.app, u.token, 'POST', '/api/security/totp/setup', {});
    const code = codeAt(setup.body.data.secret, stepOf(Date.now()));
    expect((await call(t.app, u.token, 'POST', '/api/security/totp/enable', { code })).body.success).toBe(
      true,
    );

    // Binding an account with two-factor: the password opens the code step, the identity is bound only after it.
    const first = await viaProvider(t, o, provider.id);
    const step = await call(t.app, null, 'POST', IDENTITY_API.thirdBind, {
      ticket: first.body.data.bind,
      username: u.username,
      password: u.password,
    });
    expectError(step, 'totp_required');
    const none = await t.db.kysely.selectFrom('user_identity').selectAll().execute();
    expect(none).toEqual([]);
    const stepTicket = step.body.fields?.ticket ?? '';
    expectError(
      await call(t.app, null, 'POST', '/tokens/step', { ticket: stepTicket, code: '000000' }),
      'totp_invalid',
    );
    const next = codeAt(setup.body.data.secret, stepOf(Date.now()) + 1);
    const done = await call<{ token: string }>(t.app, null, 'POST', '/tokens/step', {
      ticket: stepTicket,
      code: next,
    });
    expect(done.body, JSON.stringify(done.body)).toMatchObject({ success: true });
    expect(await t.db.kysely.selectFrom('user_identity').select('userid').execute()).toEqual([
      { userid: u.id },
    ]);

    // The bound identity logs in only through the code step too.
    expectError(await viaProvider(t, o, provider.id), 'totp_required');
    // And not at all from outside the allow-list.
    const saved = await call(t.app, t.adminToken, 'POST', '/api/security/policy/save', {
      ipAllow: ['127.0.0.1'],
    });
    expect(saved.body.success).toBe(true);
    const s = await call<{ url: string }>(t.app, null, 'POST', IDENTITY_API.thirdStart, {
      provider: provider.id,
    });
    const back = await o.authorize(s.body.data.url);
    const outside = await t.app.inject({
      method: 'POST',
      url: IDENTITY_API.thirdCallback,
      payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      remoteAddress: '192.0.2.5',
    });
    expectError({ status: outside.statusCode, body: outside.json() }, 'ip_not_allowed', 403);
  });

  it('oauth2 kind (WeCom/DingTalk/Feishu-shaped): code → access token → userinfo, id taken at a dotted path', async () => {
    const t = await env.seeded();
    oidc = await startLocalOidc();
    const saved = await call<IdentityProviderDto>(t.app, t.adminToken, 'POST', IDENTITY_API.providerSave, {
      name: 'Feishu',
      kind: 'oauth2',
      clientid: oidc.clientid,
      clientsecret: oidc.clientsecret,
      authorizeurl: `${oidc.issuer}/authorize`,
      tokenurl: `${oidc.issuer}/token`,
      userinfourl: `${oidc.issuer}/userinfo`,
      idfield: 'data.open_id',
      namefield: 'data.name',
      tokenstyle: 'json',
    });
    expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
    expect(saved.body.data).toMatchObject({ idfield: 'data.open_id', namefield: 'data.name' });
    const provider = saved.body.data.id;
    oidc.subject = 'bob';
    oidc.name = 'Bob';
    const identities = () => t.db.kysely.selectFrom('user_identity').select('subject').execute();
    // A forged state is refused before any exchange; the state is PKCE-bound (the provider checks the verifier).
    expectError(
      await viaProvider(t, oidc, provider, (back) => back.searchParams.set('state', 'forged')),
      'third_login_failed',
    );
    expect(oidc.lastToken).toBeNull();
    // Userinfo without the configured id field: said so, nothing bound, no ticket to bind with.
    oidc.omitUserId = true;
    const noId = await viaProvider(t, oidc, provider);
    expectError(noId, 'third_identity_missing');
    expect(noId.body.data).toBeFalsy();
    expect(await identities()).toEqual([]);
    oidc.omitUserId = false;
    expect(oidc.lastToken?.get('code_verifier')).toBeTruthy();
    const r = await viaProvider(t, oidc, provider);
    expect(r.body.data).toMatchObject({ provider: 'Feishu', display: 'Bob' });
    expect(oidc.lastAuthorize?.get('code_challenge_method')).toBe('S256');
    const bound = await call(t.app, null, 'POST', IDENTITY_API.thirdBind, {
      ticket: r.body.data.bind,
      username: 'admin',
      password: 'Admin#12345',
    });
    expect(bound.body.success, JSON.stringify(bound.body)).toBe(true);
    const rows = await t.db.kysely.selectFrom('user_identity').select('subject').execute();
    expect(rows).toEqual([{ subject: 'ou_bob' }]);
  });

  it('oauth2 without a broker, DingTalk- and WeCom-shaped: their own token calls; a missing id binds nothing', async () => {
    const t = await env.seeded();
    oidc = await startLocalOidc();
    const o = oidc;
    const save = async (name: string, tokenstyle: string, base: string, extra: Record<string, unknown>) => {
      const r = await call<IdentityProviderDto>(t.app, t.adminToken, 'POST', IDENTITY_API.providerSave, {
        name,
        kind: 'oauth2',
        clientid: o.clientid,
        clientsecret: o.clientsecret,
        authorizeurl: `${o.issuer}/authorize`,
        tokenurl: `${o.issuer}/${base}/${tokenstyle === 'wecom' ? 'gettoken' : 'token'}`,
        userinfourl: `${o.issuer}/${base}/${tokenstyle === 'wecom' ? 'getuserinfo' : 'me'}`,
        tokenstyle,
        ...extra,
      });
      expect(r.body.success, JSON.stringify(r.body)).toBe(true);
      return r.body.data.id;
    };
    const ding = await save('DingTalk', 'dingtalk', 'dingtalk', { idfield: 'unionId', namefield: 'nick' });
    const wecom = await save('WeCom', 'wecom', 'wecom', { idfield: 'userid' });
    const identities = () => t.db.kysely.selectFrom('user_identity').select('subject').execute();
    o.subject = 'carol';
    o.name = 'Carol';

    const d = await viaProvider(t, o, ding);
    expect(d.body.data, JSON.stringify(d.body)).toMatchObject({ provider: 'DingTalk', display: 'Carol' });
    expect(o.lastToken?.get('clientId')).toBe(o.clientid);
    o.omitUserId = true;
    expectError(await viaProvider(t, o, ding), 'third_identity_missing');
    expectError(await viaProvider(t, o, wecom), 'third_identity_missing');
    o.omitUserId = false;

    const w = await viaProvider(t, o, wecom);
    expect(w.body.data, JSON.stringify(w.body)).toMatchObject({ provider: 'WeCom', display: 'wx_carol' });
    // WeCom's login page gets the corporation as appid; its token is fetched once and reused.
    expect(o.lastAuthorize?.get('appid')).toBe(o.clientid);
    expect(o.wecomTokens).toBe(1);
    // A forged state never reaches the platform.
    expectError(
      await viaProvider(t, o, wecom, (back) => back.searchParams.set('state', 'forged')),
      'third_login_failed',
    );
    expect(await identities()).toEqual([]);
    const bound = await call(t.app, null, 'POST', IDENTITY_API.thirdBind, {
      ticket: w.body.data.bind,
      username: 'admin',
      password: 'Admin#12345',
    });
    expect(bound.body.success, JSON.stringify(bound.body)).toBe(true);
    expect(await identities()).toEqual([{ subject: 'wx_carol' }]);
    const again = await viaProvider(t, o, wecom);
    expect(again.body.data.token, JSON.stringify(again.body)).toBeTruthy();
    expect(o.wecomTokens).toBe(1);
  });

  it('a registered tenant offers its own providers at /login?orgi=, which bind only its own accounts', async () => {
    const t = await env.seeded({ selfRegister: true });
    const reg = await call<{ orgi: string }>(t.app, null, 'POST', IDENTITY_API.register, {
      company: 'Beta Co',
      username: 'beta.admin',
      password: 'Beta#2026pass',
    });
    const orgi = reg.body.data.orgi;
    const betaToken = await login(t.app, 'beta.admin', 'Beta#2026pass');
    oidc = await startLocalOidc();
    const saved = await call<IdentityProviderDto>(t.app, betaToken, 'POST', IDENTITY_API.providerSave, {
      name: 'Beta SSO',
      kind: 'oidc',
      issuer: oidc.issuer,
      clientid: oidc.clientid,
      clientsecret: oidc.clientsecret,
    });
    expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
    const mine = await call<LoginOptionsDto>(t.app, null, 'GET', `${IDENTITY_API.options}?orgi=${orgi}`);
    expect(mine.body.data.providers.map((p) => p.name)).toEqual(['Beta SSO']);
    const deflt = await call<LoginOptionsDto>(t.app, null, 'GET', IDENTITY_API.options);
    expect(deflt.body.data.providers).toEqual([]);
    // The default tenant's admin cannot see or bind through it.
    expect(
      (await call<IdentityProviderDto[]>(t.app, t.adminToken, 'GET', IDENTITY_API.providers)).body.data,
    ).toEqual([]);
    const r = await viaProvider(t, oidc, saved.body.data.id);
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.thirdBind, {
        ticket: r.body.data.bind,
        username: 'admin',
        password: 'Admin#12345',
      }),
      'login_failed',
    );
    const ok = await call<{ user: { orgi: string } }>(t.app, null, 'POST', IDENTITY_API.thirdBind, {
      ticket: r.body.data.bind,
      username: 'beta.admin',
      password: 'Beta#2026pass',
    });
    expect(ok.body.data.user.orgi).toBe(orgi);
  });

  it('provider settings: validated, secret kept when left blank, recorded; refused without A09_A07_A02', async () => {
    const t = await env.seeded();
    const { provider } = await withProvider(t);
    expectError(
      await call(t.app, t.adminToken, 'POST', IDENTITY_API.providerSave, {
        name: 'x',
        kind: 'oidc',
        clientid: 'c',
      }),
      'required',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', IDENTITY_API.providerSave, {
        name: 'x',
        kind: 'saml',
        clientid: 'c',
      }),
      'invalid_field',
    );
    const upd = await call<IdentityProviderDto>(t.app, t.adminToken, 'POST', IDENTITY_API.providerSave, {
      ...provider,
      name: 'Renamed',
      clientsecret: '',
      enabled: false,
    });
    expect(upd.body.data).toMatchObject({ name: 'Renamed', hassecret: true, enabled: false });
    const row = await t.db.kysely.selectFrom('identity_provider').select('clientsecret').executeTakeFirst();
    expect(row?.clientsecret).toBe('kefu-secret');
    // Disabled: not offered, cannot start.
    expect(
      (await call<LoginOptionsDto>(t.app, null, 'GET', IDENTITY_API.options)).body.data.providers,
    ).toEqual([]);
    expectError(
      await call(t.app, null, 'POST', IDENTITY_API.thirdStart, { provider: provider.id }),
      'not_found',
      404,
    );
    const audit = await t.db.kysely.selectFrom('audit_log').select(['action', 'before', 'after']).execute();
    const saves = audit.filter((a) => a.action.includes('identity.providers.save'));
    expect(saves.length).toBe(2);
    expect(JSON.stringify(saves)).not.toContain('kefu-secret');

    const agent = await userWithCodes(t, ['A01', 'A09_A07_A01']);
    for (const [m, url] of [
      ['GET', IDENTITY_API.providers],
      ['POST', IDENTITY_API.providerSave],
      ['POST', IDENTITY_API.providerDelete],
    ] as const)
      expect(
        (await call(t.app, agent.token, m, url, m === 'POST' ? { id: provider.id } : undefined)).status,
        url,
      ).toBe(403);
    const plain = await userWithCodes(t, ['A01']);
    expect((await call(t.app, plain.token, 'GET', IDENTITY_API.mine)).status).toBe(403);
    expect(
      (await call(t.app, plain.token, 'POST', IDENTITY_API.unbind, { provider: provider.id })).status,
    ).toBe(403);
    expect(
      (await call(t.app, t.adminToken, 'POST', IDENTITY_API.providerDelete, { id: provider.id })).body
        .success,
    ).toBe(true);
    expect(await t.db.kysely.selectFrom('identity_provider').selectAll().execute()).toEqual([]);
  });
});

const PG = process.env.TEST_PG_URL;
const REDIS = process.env.REDIS_URL;
/** An address of its own, so earlier runs on the same Redis within the hour do not count. */
const freshAddress = () => `2001:db8:${randomBytes(6).toString('hex').match(/..../g)?.join(':')}::1`;

describe.skipIf(!PG || !REDIS)('registration limit across two nodes (PostgreSQL + Redis)', () => {
  it('two nodes on one Redis share one window per address', async () => {
    const tdb = await createTestDb({ selfRegister: true, registerRateLimit: 2, redisUrl: REDIS });
    const dbB = openDatabase(tdb.config);
    const a = (await buildApp({ config: tdb.config, db: tdb.db })).app;
    const b = (await buildApp({ config: tdb.config, db: dbB })).app;
    try {
      await seed(tdb.db, tdb.config);
      await Promise.all([a.ready(), b.ready()]);
      const remoteAddress = freshAddress();
      const reg = (app: FastifyInstance, n: number) =>
        app.inject({
          method: 'POST',
          url: IDENTITY_API.register,
          payload: { company: `Shared ${n}`, username: `shared${n}`, password: 'Shared#2026pass' },
          remoteAddress,
        });
      const answers: Res[] = [];
      for (const [i, app] of [a, b, a, b].entries()) {
        const r = await reg(app, i);
        answers.push({ status: r.statusCode, body: r.json<Res['body']>() });
      }
      expect(answers.slice(0, 2).map((x) => x.body.success)).toEqual([true, true]);
      // Node A counted B's registration, and B counted A's: each refuses the third and fourth.
      for (const x of answers.slice(2)) expectError(x, 'register_rate_limited', 429);
      const orgs = await tdb.db.kysely.selectFrom('organization').select('name').execute();
      expect(orgs.map((o) => o.name).sort()).toEqual(['Shared 0', 'Shared 1', '在线客服'].sort());
      // Another address still registers.
      const other = await b.inject({
        method: 'POST',
        url: IDENTITY_API.register,
        payload: { company: 'Shared other', username: 'sharedother', password: 'Shared#2026pass' },
        remoteAddress: freshAddress(),
      });
      expect(other.json<{ success: boolean }>().success).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await dbB.close();
      await tdb.drop();
    }
  });
});
