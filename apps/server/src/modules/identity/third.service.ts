import type { z } from 'zod';
import type { BindPendingDto, thirdBindSchema, thirdCallbackSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { admit, checkPassword, loginLogger, type LoginMeta } from '../auth/auth.service.js';
import type { LoginDto } from '../auth/auth.presenter.js';
import type { LoginLimiter } from '../auth/login-limiter.js';
import { issueTicket, readTicket } from '../security/tickets.js';
import {
  OidcError,
  challengeOf,
  discover,
  exchangeCode,
  newNonce,
  newVerifier,
  pathValue,
  thirdLoginFailed,
  userinfo,
  verifyIdToken,
  wecomUserinfo,
  type Endpoints,
} from './oidc.js';
import * as repo from './identity.repository.js';

const STATE_TICKET = 'oidc-state';
const BIND_TICKET = 'third-bind';
const STATE_TTL_MS = 10 * 60_000;
const BIND_TTL_MS = 10 * 60_000;

interface StatePayload {
  provider: string;
  nonce: string;
  verifier: string;
  redirect: string;
}
interface BindPayload {
  provider: string;
  orgi: string;
  subject: string;
}

type ProviderRow = NonNullable<Awaited<ReturnType<typeof repo.findProvider>>>;

async function endpoints(p: ProviderRow): Promise<Endpoints> {
  if (p.kind !== 'oidc')
    return { issuer: '', authorize: p.authorizeurl, token: p.tokenurl, userinfo: p.userinfourl, jwks: '' };
  const d = await discover(p.issuer);
  // Explicit endpoints override discovery (a provider behind a gateway, say).
  return {
    ...d,
    authorize: p.authorizeurl || d.authorize,
    token: p.tokenurl || d.token,
    userinfo: p.userinfourl || d.userinfo,
  };
}

async function enabledProvider(ctx: AppContext, id: string): Promise<ProviderRow> {
  const p = await repo.findProvider(ctx.db.kysely, id);
  if (!p?.enabled) throw notFound();
  return p;
}

/** Where the reason of a refused identity goes (the request's log); the browser only hears third_login_failed. */
export type Warn = (reason: string) => void;

/** The provider answered, but its userinfo lacks the configured id field: a setting to fix, said so. */
class MissingSubject extends OidcError {}

function refuse(warn: Warn, e: unknown): never {
  if (!(e instanceof OidcError)) throw e;
  warn(e.message);
  throw e instanceof MissingSubject ? badRequest('third_identity_missing') : thirdLoginFailed();
}

/** The authorization URL (code flow with PKCE S256, state and nonce kept server-side in a hashed ticket). */
export async function start(
  ctx: AppContext,
  providerId: string,
  redirect: string,
  warn: Warn,
): Promise<{ url: string }> {
  const p = await enabledProvider(ctx, providerId);
  const ep = await endpoints(p).catch((e: unknown) => refuse(warn, e));
  const state: StatePayload = { provider: p.id, nonce: newNonce(), verifier: newVerifier(), redirect };
  const ticket = await issueTicket(ctx.db.kysely, STATE_TICKET, state, STATE_TTL_MS);
  const url = new URL(ep.authorize);
  const q = url.searchParams;
  q.set('response_type', 'code');
  q.set('client_id', p.clientid);
  // WeCom's login page names the corporation `appid` (its agentid comes with the configured URL).
  if (p.tokenstyle === 'wecom') q.set('appid', p.clientid);
  q.set('redirect_uri', redirect);
  if (p.scope) q.set('scope', p.scope);
  q.set('state', ticket);
  q.set('nonce', state.nonce);
  q.set('code_challenge', challengeOf(state.verifier));
  q.set('code_challenge_method', 'S256');
  return { url: url.toString() };
}

/** Who the provider says this is: the subject and a name to show, from the id_token or userinfo. */
async function identify(p: ProviderRow, s: StatePayload, code: string) {
  const ep = await endpoints(p);
  if (p.kind === 'oauth2' && p.tokenstyle === 'wecom') {
    const info = await wecomUserinfo({
      tokenurl: ep.token,
      userinfourl: ep.userinfo,
      corpid: p.clientid,
      secret: p.clientsecret,
      code,
    });
    return fromUserinfo(p, info);
  }
  const style = p.tokenstyle === 'json' || p.tokenstyle === 'dingtalk' ? p.tokenstyle : 'form';
  const tokens = await exchangeCode({
    url: ep.token,
    style,
    clientid: p.clientid,
    clientsecret: p.clientsecret,
    code,
    redirect: s.redirect,
    verifier: s.verifier,
  });
  // DingTalk answers camelCase (accessToken).
  const access = String(tokens.access_token ?? tokens.accessToken ?? '');
  if (p.kind === 'oidc') {
    if (typeof tokens.id_token !== 'string') throw new OidcError('no id_token');
    const claims = await verifyIdToken(tokens.id_token, {
      jwks: ep.jwks,
      issuer: ep.issuer,
      clientid: p.clientid,
      nonce: s.nonce,
    });
    const display = [claims.name, claims.preferred_username, claims.email].find((v) => typeof v === 'string');
    return { subject: String(claims.sub), display: String(display ?? claims.sub) };
  }
  return fromUserinfo(p, await userinfo(ep.userinfo, access, style));
}

/** The subject at the configured path, and a name to show. */
function fromUserinfo(p: ProviderRow, info: Record<string, unknown>) {
  const subject = pathValue(info, p.idfield || 'sub');
  if (!subject) throw new MissingSubject(`no ${p.idfield} in userinfo: ${Object.keys(info).join(',')}`);
  const names = p.namefield ? [p.namefield] : ['name', 'data.name', 'nickname', 'email', 'data.en_name'];
  return { subject, display: names.map((f) => pathValue(info, f)).find(Boolean) ?? subject };
}

/**
 * The provider sent the browser back with a code: the state is taken (once), the code exchanged and the
 * identity checked. A bound identity logs in like a password would (two-factor and the IP allow-list
 * apply, as steps of /tokens/step); an unbound one answers a ticket for the binding variant.
 */
export async function callback(
  ctx: AppContext,
  input: z.output<typeof thirdCallbackSchema>,
  meta: LoginMeta,
  warn: Warn,
): Promise<LoginDto | BindPendingDto> {
  const k = ctx.db.kysely;
  const t = await readTicket<StatePayload>(k, STATE_TICKET, input.state);
  if (!t || !(await repo.takeTicket(k, t.id))) throw thirdLoginFailed();
  const p = await enabledProvider(ctx, t.payload.provider);
  const who = await identify(p, t.payload, input.code).catch((e: unknown) => refuse(warn, e));
  const user = await repo.findIdentity(k, p.id, who.subject);
  if (user && user.orgi === p.orgi) return admit(ctx, user, user.username, meta);
  const bind: BindPayload = { provider: p.id, orgi: p.orgi, subject: who.subject };
  return {
    bind: await issueTicket(k, BIND_TICKET, bind, BIND_TTL_MS),
    provider: p.name,
    display: who.display,
  };
}

/**
 * /thirdLogin/bind: the identity of the ticket is bound to an account of the provider's tenant once its
 * password is confirmed and the login completes (a second step, if the account has one, comes first).
 */
export async function bind(
  ctx: AppContext,
  limiter: LoginLimiter,
  input: z.output<typeof thirdBindSchema>,
  meta: LoginMeta,
): Promise<LoginDto> {
  const k = ctx.db.kysely;
  const t = await readTicket<BindPayload>(k, BIND_TICKET, input.ticket);
  if (!t) throw badRequest('ticket_invalid');
  const b = t.payload;
  const user = await checkPassword(ctx, limiter, input, meta);
  if (user.orgi !== b.orgi) {
    // An account of another tenant reads like an unknown one.
    await loginLogger(ctx, input.username, meta)(user.id, 'third_login_failed', user.orgi);
    throw badRequest('login_failed');
  }
  const bound = await repo.findIdentity(k, b.provider, b.subject);
  if (bound && bound.id !== user.id) throw badRequest('identity_bound');
  if (!(await repo.takeTicket(k, t.id))) throw badRequest('ticket_invalid');
  return admit(ctx, user, input.username, meta, { provider: b.provider, subject: b.subject });
}
