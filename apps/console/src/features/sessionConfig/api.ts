import {
  TRANSFER_PROMPT_DEFAULT_MS,
  type OkEnvelope,
  type SessionConfigDto,
  type SessionConfigSection,
} from '@kefu/protocol';
import { get, request } from '../../lib/api';

export const sessionConfigApi = {
  /** Spec section 4 step 4: loaded at start-up by every logged-in user. */
  load: (signal?: AbortSignal) => get<SessionConfigDto>('/sessionConfig', undefined, signal),
  /** One setup section (prompt, allocation, lineUp, other); resolves with the saved config and the server's msg. */
  save: (section: SessionConfigSection, body: Record<string, unknown>) =>
    request<OkEnvelope<SessionConfigDto>>(`/sessionConfig/${section}/save`, {
      method: 'POST',
      body,
      envelope: true,
    }),
};

/** How long a transfer prompt stays: the request's own timeout, else the session config's, else 5 s. */
export function transferPromptMs(requestTimeout: number | undefined, cfg: SessionConfigDto | null): number {
  if (requestTimeout && requestTimeout > 0) return requestTimeout;
  if (cfg && cfg.transtiptimeout > 0) return cfg.transtiptimeout * 1000;
  return TRANSFER_PROMPT_DEFAULT_MS;
}
