import type { DeliveryError } from '@kefu/protocol';
import { WireError, parseJsonObject } from './wire.js';

/**
 * How a platform call failed: `token` — refresh the token and retry once; `transient` — retry later with
 * back-off (network, 5xx, busy, rate limits, a truncated answer); `permanent` — retrying cannot help, the
 * message fails with `error` shown to the agent.
 */
export class PlatformError extends Error {
  constructor(
    readonly kind: 'token' | 'transient' | 'permanent',
    readonly code: string,
    readonly detail: string,
    readonly error: DeliveryError = 'channel_send_failed',
  ) {
    super(`${kind} ${code}: ${detail}`);
  }
}

/** A platform's error codes sorted into the three kinds (anything unknown is permanent). */
export interface ErrorTable {
  token: readonly number[];
  transient: readonly number[];
  permanent: Readonly<Record<number, DeliveryError>>;
}

/** Every WeChat flavour: WeCom/KF, official account, mini-program (and Baidu's look-alike codes). */
export const WECHAT_ERRORS: ErrorTable = {
  token: [40001, 40014, 41001, 42001, 42007],
  transient: [-1, 45009, 45033, 45011],
  permanent: {
    45015: 'channel_window_closed',
    45047: 'channel_quota_exhausted',
    95001: 'channel_quota_exhausted',
    95002: 'channel_window_closed',
    95018: 'channel_session_invalid',
    95000: 'channel_config',
    95004: 'channel_config',
    95017: 'channel_config',
    40164: 'channel_config',
    48001: 'channel_config',
    40003: 'channel_user_blocked',
    40201: 'channel_user_blocked',
    90001: 'channel_quota_exhausted',
    90002: 'channel_config',
    30022: 'channel_user_blocked',
  },
};

export interface HttpCall {
  method?: 'GET' | 'POST';
  json?: unknown;
  form?: Record<string, string>;
  body?: FormData;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** A platform answer: its JSON (long integers as strings) or, for a download, the bytes. */
export async function platformFetch(url: string, c: HttpCall = {}): Promise<Response> {
  const headers: Record<string, string> = { ...c.headers };
  let body: string | FormData | undefined;
  if (c.json !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    body = JSON.stringify(c.json);
  } else if (c.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(c.form).toString();
  } else if (c.body) body = c.body;
  try {
    return await fetch(url, {
      method: c.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: AbortSignal.timeout(c.timeoutMs ?? 10_000),
    });
  } catch (err) {
    throw new PlatformError('transient', 'network', (err as Error).message);
  }
}

/** The JSON object of a platform answer; HTTP 5xx and unreadable bodies are transient. */
export async function platformJson(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text().catch(() => '');
  if (res.status >= 500 || res.status === 429)
    throw new PlatformError('transient', `http ${res.status}`, text.slice(0, 200));
  if (res.status >= 400) throw new PlatformError('permanent', `http ${res.status}`, text.slice(0, 200));
  try {
    return parseJsonObject(text);
  } catch (err) {
    if (err instanceof WireError) throw new PlatformError('transient', 'bad json', text.slice(0, 200));
    throw err;
  }
}

/** Throws the PlatformError of a non-zero `errcode` (WeChat style) as the table sorts it. */
export function checkErrcode(
  o: Record<string, unknown>,
  table: ErrorTable,
  codeKey = 'errcode',
  msgKey = 'errmsg',
): void {
  const raw = o[codeKey];
  const code = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : 0;
  if (!code) return;
  const detail = `${code} ${typeof o[msgKey] === 'string' ? (o[msgKey] as string) : ''}`.trim();
  if (table.token.includes(code)) throw new PlatformError('token', String(code), detail);
  if (table.transient.includes(code)) throw new PlatformError('transient', String(code), detail);
  throw new PlatformError('permanent', String(code), detail, table.permanent[code] ?? 'channel_send_failed');
}
