import { IDENTITY_API, type AuthMap, type BindPendingDto, type LoginOptionsDto } from '@kefu/protocol';
import { get, request } from '../../lib/api';

export interface SessionUser {
  id: string;
  orgi?: string;
  username: string;
  uname?: string;
  usertype: string;
  superuser?: boolean;
  organ?: string | null;
  organname?: string | null;
  /** Skill-group ids the user belongs to. */
  skill?: string[];
  language?: string;
  on_state?: string;
}

/** GET /api/agent */
export interface AgentInfo {
  user: SessionUser;
  organ: { id: string; name: string; skill?: boolean } | null;
  auth: AuthMap;
  superuser?: boolean;
}

export const fetchAgent = () => get<AgentInfo>('/agent');

export const login = (username: string, password: string) =>
  request<{ token: string; user: SessionUser }>('/tokens', {
    method: 'POST',
    body: { username, password },
    // The login form shows the server's message itself, and a 401 here is a wrong password, not an expired session.
    silent: true,
    noAuthRedirect: true,
  });

export const revokeToken = () =>
  request<null>('/tokens', { method: 'DELETE', silent: true, noAuthRedirect: true });

export const updatePassword = (oldpassword: string, password: string) =>
  request<null>('/agent/my/updatePassword', { method: 'POST', body: { oldpassword, password } });

export interface TokenInfo {
  title?: string;
  favlogo?: string;
}
export const fetchTokenInfo = () =>
  request<TokenInfo>('/tokens/info', { silent: true, noAuthRedirect: true });

// Self-registration and third-party login: public calls, silent (the pages show what they answer).
const quiet = { silent: true, noAuthRedirect: true } as const;

export const identityApi = {
  /** `orgi`: the tenant whose providers to offer (`/login?orgi=`); the default tenant without it. */
  options: (orgi?: string | null) =>
    request<LoginOptionsDto>(IDENTITY_API.options, { params: orgi ? { orgi } : undefined, ...quiet }),
  register: (body: {
    company: string;
    username: string;
    password: string;
    email?: string;
    mobile?: string;
    language?: 'zh' | 'en';
  }) =>
    request<{ orgi: string; username: string }>(IDENTITY_API.register, { method: 'POST', body, ...quiet }),
  start: (provider: string) =>
    request<{ url: string }>(IDENTITY_API.thirdStart, { method: 'POST', body: { provider }, ...quiet }),
  callback: (code: string, state: string) =>
    request<{ token: string; user: SessionUser } | BindPendingDto>(IDENTITY_API.thirdCallback, {
      method: 'POST',
      body: { code, state },
      ...quiet,
    }),
  bind: (body: { ticket: string; username: string; password: string }) =>
    request<{ token: string; user: SessionUser }>(IDENTITY_API.thirdBind, { method: 'POST', body, ...quiet }),
};
