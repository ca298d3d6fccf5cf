import {
  CLIENT_TEXTS,
  CODES,
  ERROR_TOAST_THROTTLE_MS,
  LOGIN_REDIRECT_DELAY_MS,
  NETWORK_DELAY_LOG_MS,
  REQUEST_TIMEOUT_MS,
  SILENT_CODES,
  type ErrEnvelope,
  type Envelope,
} from '@kefu/protocol';

/** The request rules of spec sections 7 and 8, kept free of React so they can be unit-tested. */

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: Query;
  body?: unknown;
  /** Never toast this call's errors (the caller shows them itself). */
  silent?: boolean;
  /** A 401 from this call does not log the user out (the login call itself). */
  noAuthRedirect?: boolean;
  /** Resolve with the whole success envelope instead of its data (to show the server's msg). */
  envelope?: boolean;
  /** Caller's own cancellation (react-query passes one). */
  signal?: AbortSignal;
}

export class RequestError extends Error {
  readonly code: number;
  readonly key?: string;
  readonly fields?: Record<string, string>;
  readonly cancelled: boolean;
  readonly timeout: boolean;
  constructor(
    message: string,
    init: {
      code: number;
      key?: string;
      fields?: Record<string, string>;
      cancelled?: boolean;
      timeout?: boolean;
    },
  ) {
    super(message);
    this.name = 'RequestError';
    this.code = init.code;
    this.key = init.key;
    this.fields = init.fields;
    this.cancelled = init.cancelled ?? false;
    this.timeout = init.timeout ?? false;
  }
}

export interface RequestEnv {
  fetch: typeof fetch;
  getToken: () => string;
  /** Show an error toast (already throttled by the caller). */
  toast: (text: string) => void;
  /** Clear the token and go to /login; called LOGIN_REDIRECT_DELAY_MS after a 401. */
  onUnauthorized: () => void;
  /**
   * The current UI text of a server error key, or undefined when the key is unknown; may come
   * asynchronously (the console loads the error catalogue only when an error needs it).
   */
  keyText: (key: string) => string | undefined | Promise<string | undefined>;
  /** Browser path, to honour "no toast on the third-party login page". */
  currentPath: () => string;
  now: () => number;
  warn: (...args: unknown[]) => void;
}

export function apiUrl(path: string, params?: Query): string {
  const base = path.startsWith('/api') || path.startsWith('/tokens') ? path : `/api${path}`;
  if (!params) return base;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${base}${base.includes('?') ? '&' : '?'}${s}` : base;
}

export type Requester = <T>(path: string, opts?: RequestOptions) => Promise<T>;

export function createRequester(env: RequestEnv): Requester {
  /** path → controller of the call in flight; a new call to the same path aborts the old one. */
  const pending = new Map<string, AbortController>();
  let lastToastAt = Number.NEGATIVE_INFINITY;
  let redirectScheduled = false;

  const toast = (text: string, path: string, opts: RequestOptions) => {
    if (opts.silent || path.includes('sidebar')) return;
    const now = env.now();
    if (now - lastToastAt < ERROR_TOAST_THROTTLE_MS) return;
    lastToastAt = now;
    env.toast(text);
  };

  const unauthorized = async (body: ErrEnvelope | null, path: string, opts: RequestOptions) => {
    if (opts.noAuthRedirect) return;
    if (!redirectScheduled) {
      redirectScheduled = true;
      setTimeout(() => {
        redirectScheduled = false;
        env.onUnauthorized();
      }, LOGIN_REDIRECT_DELAY_MS);
    }
    if (env.currentPath().startsWith('/thirdLogin')) return;
    const text = (body?.key && (await env.keyText(body.key))) || body?.msg || CLIENT_TEXTS.notLoggedIn;
    toast(text, path, opts);
  };

  return async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
    const url = apiUrl(path, opts.params);
    const key = url.split('?')[0];

    pending.get(key)?.abort();
    const ctrl = new AbortController();
    pending.set(key, ctrl);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, REQUEST_TIMEOUT_MS);
    const onOuterAbort = () => ctrl.abort();
    opts.signal?.addEventListener('abort', onOuterAbort);

    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = env.getToken();
    if (token) headers.authorization = token;
    let payload: string | FormData | undefined;
    // A FormData body goes as multipart (the browser writes its boundary); anything else as JSON.
    if (opts.body instanceof FormData) payload = opts.body;
    else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(opts.body);
    }

    const started = env.now();
    let res: Response;
    try {
      res = await env.fetch(url, { method, headers, body: payload, signal: ctrl.signal });
    } catch (err) {
      if (timedOut || !ctrl.signal.aborted) {
        // Timed out, or no response at all (network down, server gone).
        toast(CLIENT_TEXTS.timeout, key, opts);
        throw new RequestError(CLIENT_TEXTS.timeout, { code: 0, timeout: true });
      }
      // Superseded by a newer call to the same path, or cancelled by the caller: silent.
      throw new RequestError(err instanceof Error ? err.message : 'cancelled', { code: 0, cancelled: true });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
      if (pending.get(key) === ctrl) pending.delete(key);
    }

    const elapsed = env.now() - started;
    if (elapsed > NETWORK_DELAY_LOG_MS) env.warn(`[request] ${method} ${key} took ${elapsed} ms`);

    let body: Envelope<T> | null;
    try {
      body = (await res.json()) as Envelope<T>;
    } catch {
      // Not JSON (proxy error page, empty body): treated as a server failure without message.
      body = null;
    }

    if (body && body.success === true) return opts.envelope ? (body as unknown as T) : body.data;

    const err: ErrEnvelope | null = body && body.success === false ? body : null;
    const code = err?.code ?? res.status;
    if (res.status === CODES.unauthorized || code === CODES.unauthorized) {
      await unauthorized(err, key, opts);
      throw new RequestError(err?.msg || CLIENT_TEXTS.notLoggedIn, {
        code: CODES.unauthorized,
        key: err?.key,
      });
    }
    const text = (err?.key && (await env.keyText(err.key))) || err?.msg || CLIENT_TEXTS.serverError;
    if (!SILENT_CODES.includes(code)) toast(text, key, opts);
    throw new RequestError(text, { code, key: err?.key, fields: err?.fields });
  };
}

export const isCancelled = (e: unknown): boolean => e instanceof RequestError && e.cancelled;
