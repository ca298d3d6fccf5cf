import type { OkEnvelope } from '@kefu/protocol';
import { createRequester, type Query } from './request';
import { getToken } from './storage';
import { notify } from './notify';
import { i18n } from './i18n';

/** Set by the session module: clears the token and sends the user to /login. */
let unauthorizedHandler: () => void = () => window.location.assign('/login');
export const onUnauthorized = (fn: () => void): void => {
  unauthorizedHandler = fn;
};

async function keyText(key: string): Promise<string | undefined> {
  const k = `error.${key}`;
  if (i18n.isInitialized && i18n.exists(k)) return i18n.t(k);
  return (await import('./errorCatalogue')).catalogueText(key, i18n.language ?? 'zh');
}

export const request = createRequester({
  fetch: (input, init) => window.fetch(input, init),
  getToken,
  toast: (text) => notify.error(text),
  onUnauthorized: () => unauthorizedHandler(),
  keyText,
  currentPath: () => window.location.pathname,
  now: () => Date.now(),
  warn: (...args) => console.warn(...args),
});

export const get = <T>(path: string, params?: Query, signal?: AbortSignal) =>
  request<T>(path, { params, signal });
export const post = <T>(path: string, body: unknown = {}) => request<T>(path, { method: 'POST', body });

/** A write whose success message the user should see: resolves with the server's msg. */
export const postForMsg = async (path: string, body: unknown = {}): Promise<string> =>
  (await request<OkEnvelope<unknown>>(path, { method: 'POST', body, envelope: true })).msg;
