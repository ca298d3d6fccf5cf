import {
  IDENTITY_API,
  type IdentityProviderDto,
  type MyIdentityDto,
  type LoginStepResult,
  type MySecurityDto,
  type SecurityPolicy,
  type SessionDto,
  type TotpSetupDto,
} from '@kefu/protocol';
import { get, post, request } from '../../lib/api';

export const securityApi = {
  me: (signal?: AbortSignal) => get<MySecurityDto>('/security/me', undefined, signal),
  sessions: (signal?: AbortSignal) => get<SessionDto[]>('/security/sessions', undefined, signal),
  revokeOthers: () => post<{ revoked: number }>('/security/sessions/revokeOthers'),
  totpSetup: () => post<TotpSetupDto>('/security/totp/setup'),
  totpEnable: (code: string) => post<{ recovery: string[] }>('/security/totp/enable', { code }),
  totpDisable: (code: string) => post<null>('/security/totp/disable', { code }),
  policy: (signal?: AbortSignal) =>
    get<{ policy: SecurityPolicy; ip: string }>('/security/policy', undefined, signal),
  savePolicy: (p: Partial<SecurityPolicy>) => post<SecurityPolicy>('/security/policy/save', p),
  /** The login's next step; silent: the login page shows what it answers. */
  step: (b: { ticket: string; code?: string; password?: string }) =>
    request<LoginStepResult>('/tokens/step', { method: 'POST', body: b, silent: true, noAuthRedirect: true }),
  providers: (signal?: AbortSignal) => get<IdentityProviderDto[]>(IDENTITY_API.providers, undefined, signal),
  saveProvider: (p: Record<string, unknown>) => post<IdentityProviderDto>(IDENTITY_API.providerSave, p),
  deleteProvider: (id: string) => post<null>(IDENTITY_API.providerDelete, { id }),
  identities: (signal?: AbortSignal) => get<MyIdentityDto[]>(IDENTITY_API.mine, undefined, signal),
  unbind: (provider: string) => post<null>(IDENTITY_API.unbind, { provider }),
};
