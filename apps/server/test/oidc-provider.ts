import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real, small OpenID Connect provider on a loopback port, for the third-party login tests (server and
 * browser): discovery, JWKS, authorize (auto-approves `subject`, redirecting back with a code), token
 * (checks client, redirect_uri and the PKCE verifier; issues an RS256 id_token) and userinfo. `tamper`
 * makes the next id_tokens wrong in one chosen way. The same codes also serve the enterprise IMs' own
 * shapes: DingTalk (`/dingtalk/token` camel-case JSON, `/dingtalk/me` with x-acs-dingtalk-access-token) and
 * WeCom (`/wecom/gettoken` corporation token, `/wecom/getuserinfo` with it and the code, errors as errcode).
 */
export interface Tamper {
  aud?: string;
  iss?: string;
  /** Seconds from now (negative: already expired). */
  expIn?: number;
  nonce?: string;
  /** Signed with another key under the published kid. */
  badSignature?: boolean;
}

export interface LocalOidc {
  issuer: string;
  clientid: string;
  clientsecret: string;
  /** Who authorize approves next. */
  subject: string;
  name: string;
  tamper: Tamper;
  /** Userinfo leaves out the user id (an OAuth2 provider configured with the wrong id field, say). */
  omitUserId: boolean;
  /** The last authorize request's query. */
  lastAuthorize: URLSearchParams | null;
  /** The last token request's fields. */
  lastToken: URLSearchParams | null;
  /** How many corporation tokens WeCom's gettoken has handed out. */
  wecomTokens: number;
  /** Visits authorize as a browser would and answers where it redirects (the console's /thirdLogin?code&state). */
  authorize(url: string): Promise<URL>;
  close(): Promise<void>;
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function jwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const head = b64url({ alg: 'RS256', typ: 'JWT', kid });
  const body = b64url(claims);
  const sig = sign('RSA-SHA256', Buffer.from(`${head}.${body}`), key).toString('base64url');
  return `${head}.${body}.${sig}`;
}

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('json'))
    return new URLSearchParams(JSON.parse(text) as Record<string, string>);
  return new URLSearchParams(text);
}

export async function startLocalOidc(
  opts: { clientid?: string; clientsecret?: string } = {},
): Promise<LocalOidc> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const kid = randomBytes(6).toString('hex');
  const codes = new Map<string, { query: URLSearchParams; subject: string; name: string }>();
  const tokens = new Map<string, string>();

  const state: LocalOidc = {
    issuer: '',
    clientid: opts.clientid ?? 'kefu-client',
    clientsecret: opts.clientsecret ?? 'kefu-secret',
    subject: 'alice-sub',
    name: 'Alice',
    tamper: {},
    omitUserId: false,
    lastAuthorize: null,
    lastToken: null,
    wecomTokens: 0,
    async authorize(url: string) {
      const res = await fetch(url, { redirect: 'manual' });
      const to = res.headers.get('location');
      if (res.status !== 302 || !to) throw new Error(`authorize answered ${res.status}`);
      return new URL(to);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', state.issuer);
      const path = url.pathname;
      if (path === '/.well-known/openid-configuration')
        return json(res, 200, {
          issuer: state.issuer,
          authorization_endpoint: `${state.issuer}/authorize`,
          token_endpoint: `${state.issuer}/token`,
          userinfo_endpoint: `${state.issuer}/userinfo`,
          jwks_uri: `${state.issuer}/jwks`,
          response_types_supported: ['code'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
        });
      if (path === '/jwks')
        return json(res, 200, {
          keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
        });
      if (path === '/authorize') {
        const q = url.searchParams;
        state.lastAuthorize = q;
        if (q.get('client_id') !== state.clientid) return json(res, 400, { error: 'unauthorized_client' });
        const code = randomBytes(12).toString('hex');
        codes.set(code, { query: q, subject: state.subject, name: state.name });
        const back = new URL(q.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (path === '/token' && req.method === 'POST') {
        const f = await readBody(req);
        state.lastToken = f;
        const grant = codes.get(f.get('code') ?? '');
        codes.delete(f.get('code') ?? '');
        if (!grant) return json(res, 400, { error: 'invalid_grant' });
        if (f.get('client_id') !== state.clientid || f.get('client_secret') !== state.clientsecret)
          return json(res, 401, { error: 'invalid_client' });
        if (f.get('redirect_uri') !== grant.query.get('redirect_uri'))
          return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri' });
        const challenge = createHash('sha256')
          .update(f.get('code_verifier') ?? '')
          .digest('base64url');
        if (challenge !== grant.query.get('code_challenge'))
          return json(res, 400, { error: 'invalid_grant', error_description: 'pkce' });
        const t = state.tamper;
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          iss: t.iss ?? state.issuer,
          sub: grant.subject,
          aud: t.aud ?? state.clientid,
          exp: now + (t.expIn ?? 300),
          iat: now,
          nonce: t.nonce ?? grant.query.get('nonce'),
          name: grant.name,
        };
        const access = randomBytes(12).toString('hex');
        tokens.set(access, grant.subject);
        return json(res, 200, {
          access_token: access,
          token_type: 'Bearer',
          expires_in: 300,
          id_token: jwt(claims, t.badSignature ? other : privateKey, kid),
        });
      }
      if (path === '/dingtalk/token' && req.method === 'POST') {
        const f = await readBody(req);
        state.lastToken = f;
        const grant = codes.get(f.get('code') ?? '');
        codes.delete(f.get('code') ?? '');
        if (!grant || f.get('grantType') !== 'authorization_code')
          return json(res, 400, { code: 'invalidParameter', message: 'code' });
        if (f.get('clientId') !== state.clientid || f.get('clientSecret') !== state.clientsecret)
          return json(res, 400, { code: 'invalidParameter', message: 'client' });
        const access = randomBytes(12).toString('hex');
        tokens.set(access, grant.subject);
        return json(res, 200, { accessToken: access, refreshToken: 'r', expireIn: 7200 });
      }
      if (path === '/dingtalk/me') {
        const sub = tokens.get(String(req.headers['x-acs-dingtalk-access-token'] ?? ''));
        if (!sub) return json(res, 401, { code: 'InvalidAuthentication' });
        if (state.omitUserId) return json(res, 200, { nick: state.name });
        return json(res, 200, { nick: state.name, unionId: `union_${sub}`, openId: `open_${sub}` });
      }
      if (path === '/wecom/gettoken') {
        const q = url.searchParams;
        if (q.get('corpid') !== state.clientid || q.get('corpsecret') !== state.clientsecret)
          return json(res, 200, { errcode: 40001, errmsg: 'invalid credential' });
        const access = `corp_${randomBytes(8).toString('hex')}`;
        tokens.set(access, '');
        state.wecomTokens++;
        return json(res, 200, { errcode: 0, errmsg: 'ok', access_token: access, expires_in: 7200 });
      }
      if (path === '/wecom/getuserinfo') {
        const q = url.searchParams;
        if (tokens.get(q.get('access_token') ?? '') !== '')
          return json(res, 200, { errcode: 40014, errmsg: 'invalid access_token' });
        const grant = codes.get(q.get('code') ?? '');
        codes.delete(q.get('code') ?? '');
        if (!grant) return json(res, 200, { errcode: 40029, errmsg: 'invalid code' });
        if (state.omitUserId) return json(res, 200, { errcode: 0, errmsg: 'ok' });
        return json(res, 200, { errcode: 0, errmsg: 'ok', userid: `wx_${grant.subject}` });
      }
      if (path === '/userinfo') {
        const sub = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
        if (!sub) return json(res, 401, { error: 'invalid_token' });
        // Shaped like Feishu's answer, so the oauth2 kind's id path is exercised too.
        if (state.omitUserId) return json(res, 200, { code: 0, data: { name: state.name } });
        return json(res, 200, { code: 0, data: { open_id: `ou_${sub}`, name: state.name }, sub });
      }
      json(res, 404, { error: 'not_found' });
    })().catch((e: unknown) => json(res, 500, { error: String(e) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
