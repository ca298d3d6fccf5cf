import type {
  LoginStepResult,
  MySecurityDto,
  SecurityPolicy,
  SessionDto,
  TotpSetupDto,
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
};
