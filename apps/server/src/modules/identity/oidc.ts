import { createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from 'node:crypto';
import { badRequest } from '../../platform/http/errors.js';
import { TokenCache, tokenKey } from '../channels/tokens.js';

/**
 * The OpenID Connect / OAuth2 client side, with Node's crypto only: discovery, PKCE, the code exchange,
 * userinfo, and the id_token check (RS256 against the provider's JWKS; iss, aud, azp, exp, iat, nonce).
 * Every failure is the one key third_login_failed; the reason goes to the log only.
 */
export const HTTP_TIMEOUT_MS = 10_000;
/** Clock difference tolerated between us and the provider. */
export const SKEW_S = 60;
const CACHE_MS = 10 * 60_000;
/** An unknown key id refetches the JWKS (the provider rotated), at most this often. */
const JWKS_REFETCH_MS = 10_000;

export class OidcError extends Error {}
const fail = (reason: string): never => {
  throw new OidcError(reason);
};
export const thirdLoginFailed = () => badRequest('third_login_failed');

export interface Endpoints {
  issuer: string;
  authorize: string;
  token: string;
  userinfo: string;
  jwks: string;
}

async function fetchJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) }).catch(
    (e: unknown) => fail(`${url}: ${e instanceof Error ? e.message : String(e)}`),
  );
  const text = await res.text();
  if (!res.ok) fail(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  return fail(`${url}: not a JSON object`);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const discoveries = new Map<string, { at: number; doc: Endpoints }>();

/** The provider's endpoints from /.well-known/openid-configuration (cached ten minutes per issuer). */
export async function discover(issuer: string, now = Date.now()): Promise<Endpoints> {
  const hit = discoveries.get(issuer);
  if (hit && now - hit.at < CACHE_MS) return hit.doc;
  const doc = await fetchJson(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
  const ep: Endpoints = {
    issuer: str(doc.issuer),
    authorize: str(doc.authorization_endpoint),
    token: str(doc.token_endpoint),
    userinfo: str(doc.userinfo_endpoint),
    jwks: str(doc.jwks_uri),
  };
  // The document must name the issuer it was fetched for (OpenID Connect Discovery 1.0, section 4.3).
  if (ep.issuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) fail(`discovery issuer ${ep.issuer}`);
  if (!ep.authorize || !ep.token || !ep.jwks) fail('discovery lacks endpoints');
  discoveries.set(issuer, { at: now, doc: ep });
  return ep;
}

// ------------------------------------------------------------------------------------------- PKCE
const b64url = (b: Buffer) => b.toString('base64url');
export const newVerifier = (): string => b64url(randomBytes(32));
export const challengeOf = (verifier: string): string =>
  b64url(createHash('sha256').update(verifier).digest());
export const newNonce = (): string => b64url(randomBytes(18));

// ---------------------------------------------------------------------------------- code exchange
export interface TokenRequest {
  url: string;
  style: 'form' | 'json' | 'dingtalk';
  clientid: string;
  clientsecret: string;
  code: string;
  redirect: string;
  verifier: string;
}

/** The authorization code for tokens (client_secret_post; the verifier proves we started this login). */
export async function exchangeCode(r: TokenRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, string> = {
    grant_type: 'authorization_code',
    code: r.code,
    redirect_uri: r.redirect,
    client_id: r.clientid,
    code_verifier: r.verifier,
  };
  if (r.clientsecret) fields.client_secret = r.clientsecret;
  const json = r.style !== 'form';
  // DingTalk's userAccessToken call: its own camel-case names, no redirect or PKCE fields.
  const sent =
    r.style === 'dingtalk'
      ? { clientId: r.clientid, clientSecret: r.clientsecret, code: r.code, grantType: 'authorization_code' }
      : fields;
  const body = await fetchJson(r.url, {
    method: 'POST',
    headers: {
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: json ? JSON.stringify(sent) : new URLSearchParams(sent).toString(),
  });
  // Some OAuth2-shaped providers wrap the answer in `data`.
  const data = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : {};
  return { ...data, ...body };
}

export async function userinfo(
  url: string,
  accessToken: string,
  style: TokenRequest['style'] = 'form',
): Promise<Record<string, unknown>> {
  if (!accessToken) fail('no access_token');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (style === 'dingtalk') headers['x-acs-dingtalk-access-token'] = accessToken;
  else headers.authorization = `Bearer ${accessToken}`;
  return fetchJson(url, { headers });
}

/** WeCom answers errors as HTTP 200 with a non-zero errcode. */
function wecomChecked(body: Record<string, unknown>, what: string): Record<string, unknown> {
  if (body.errcode !== undefined && Number(body.errcode) !== 0)
    fail(`wecom ${what}: errcode ${String(body.errcode)} ${str(body.errmsg)}`);
  return body;
}

const WECOM_TOKEN_ERRORS = new Set([40001, 40014, 42001]);
/** The corporation's access tokens, one per (corp id, secret), refreshed before they expire. */
const wecomTokens = new TokenCache(Date.now);

/**
 * WeCom web login: the code is resolved by the userinfo URL (auth/getuserinfo) with the corporation's
 * access token, fetched from the token URL (gettoken) with corpid and corpsecret, and cached.
 */
export async function wecomUserinfo(r: {
  tokenurl: string;
  userinfourl: string;
  corpid: string;
  secret: string;
  code: string;
}): Promise<Record<string, unknown>> {
  const key = tokenKey('wecom-login', r.corpid, r.secret);
  const token = await wecomTokens.get({
    key,
    async fetch() {
      const u = new URL(r.tokenurl);
      u.searchParams.set('corpid', r.corpid);
      u.searchParams.set('corpsecret', r.secret);
      const b = wecomChecked(await fetchJson(u.toString()), 'gettoken');
      return { token: str(b.access_token), expiresIn: Number(b.expires_in) || 7200 };
    },
  });
  if (!token) fail('wecom gettoken: no access_token');
  const u = new URL(r.userinfourl);
  u.searchParams.set('access_token', token);
  u.searchParams.set('code', r.code);
  const body = await fetchJson(u.toString());
  // An invalid or expired corporation token is dropped, so the next login fetches a new one.
  if (WECOM_TOKEN_ERRORS.has(Number(body.errcode))) await wecomTokens.invalidate(key, token);
  return wecomChecked(body, 'getuserinfo');
}

/** A value at a dotted path (`data.open_id`); ids may be numbers. */
export function pathValue(obj: unknown, path: string): string {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object') return '';
    v = (v as Record<string, unknown>)[part];
  }
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}

// ------------------------------------------------------------------------------------------ JWKS
const jwksCache = new Map<string, { at: number; keys: JsonWebKey[] }>();

async function keyFor(jwksUrl: string, kid: string, now: number) {
  let entry = jwksCache.get(jwksUrl);
  const find = () => entry?.keys.find((k) => (kid ? k.kid === kid : k.kty === 'RSA'));
  if (!entry || now - entry.at > CACHE_MS || (!find() && now - entry.at > JWKS_REFETCH_MS)) {
    const doc = await fetchJson(jwksUrl);
    entry = { at: now, keys: Array.isArray(doc.keys) ? (doc.keys as JsonWebKey[]) : [] };
    jwksCache.set(jwksUrl, entry);
  }
  const jwk = find() ?? fail(`no key ${kid} in JWKS`);
  if (jwk.kty !== 'RSA') fail('key is not RSA');
  return createPublicKey({ key: jwk, format: 'jwk' });
}

export interface IdTokenCheck {
  jwks: string;
  issuer: string;
  clientid: string;
  nonce: string;
  now?: number;
}

const part = (s: string | undefined): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(Buffer.from(s ?? '', 'base64url').toString('utf8'));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : fail('token part not an object');
  } catch (e) {
    if (e instanceof OidcError) throw e;
    return fail('token part not JSON');
  }
};

/** Verifies an id_token and answers its claims (OpenID Connect Core 1.0, 3.1.3.7). Only RS256 is accepted. */
export async function verifyIdToken(token: string, c: IdTokenCheck): Promise<Record<string, unknown>> {
  const now = c.now ?? Date.now();
  const pieces = token.split('.');
  if (pieces.length !== 3) fail('id_token is not a JWS');
  const [h, p, s] = pieces as [string, string, string];
  const header = part(h);
  // Pinning the algorithm refuses `none` and HS256-with-the-public-key forgeries.
  if (header.alg !== 'RS256') fail(`alg ${String(header.alg)}`);
  const key = await keyFor(c.jwks, str(header.kid), now);
  if (!verify('RSA-SHA256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url')))
    fail('bad signature');
  const claims = part(p);
  if (claims.iss !== c.issuer) fail(`iss ${String(claims.iss)}`);
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(c.clientid)) fail(`aud ${JSON.stringify(claims.aud)}`);
  if (aud.length > 1 && claims.azp !== c.clientid) fail('azp');
  const t = Math.floor(now / 1000);
  if (typeof claims.exp !== 'number' || claims.exp + SKEW_S < t) fail('expired');
  if (typeof claims.iat === 'number' && claims.iat - SKEW_S > t) fail('issued in the future');
  if (!c.nonce || claims.nonce !== c.nonce) fail('nonce');
  if (!str(claims.sub)) fail('no sub');
  return claims;
}
