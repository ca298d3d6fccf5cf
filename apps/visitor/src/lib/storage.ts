import { randomId } from './ids.js';

/** localStorage that never throws (private mode, disabled storage, quota). */
export const store = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* storage unavailable: the widget still works for this page */
    }
  },
  remove(key: string): void {
    try {
      localStorage.removeItem(key);
    } catch {
      /* ignore */
    }
  },
};

export interface VisitorIdentity {
  userid: string;
  token: string;
}

const identityKey = (appid: string) => `kefu:visitor:${appid}`;

/** The visitor id (32 chars) and credential for this access point; a fresh id when none or malformed. */
export function loadIdentity(appid: string): VisitorIdentity {
  try {
    const raw = JSON.parse(store.get(identityKey(appid)) ?? 'null') as Partial<VisitorIdentity> | null;
    if (raw && typeof raw.userid === 'string' && /^[A-Za-z0-9_-]{32}$/.test(raw.userid))
      return { userid: raw.userid, token: typeof raw.token === 'string' ? raw.token : '' };
  } catch {
    /* corrupt: start over */
  }
  return { userid: randomId(32), token: '' };
}

export const saveIdentity = (appid: string, id: VisitorIdentity): void =>
  store.set(identityKey(appid), JSON.stringify(id));

export const forgetIdentity = (appid: string): void => store.remove(identityKey(appid));

const infoKey = (appid: string) => `kefu:info:${appid}`;

/** The pre-chat form values, if saved less than `ttlSeconds` ago. */
export function loadRemembered(
  appid: string,
  ttlSeconds: number,
  now = Date.now(),
): Record<string, string> | null {
  try {
    const raw = JSON.parse(store.get(infoKey(appid)) ?? 'null') as { at?: number; values?: unknown } | null;
    if (!raw || typeof raw.at !== 'number' || typeof raw.values !== 'object' || raw.values === null)
      return null;
    if (now - raw.at > ttlSeconds * 1000) {
      store.remove(infoKey(appid));
      return null;
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw.values)) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    return null;
  }
}

export function remember(
  appid: string,
  values: Record<string, string>,
  ttlSeconds: number,
  now = Date.now(),
): void {
  if (ttlSeconds > 0) store.set(infoKey(appid), JSON.stringify({ at: now, values }));
}
