import { STORAGE_KEYS } from '@kefu/protocol';

type StorageKey = keyof typeof STORAGE_KEYS;

/** Thin wrapper so a blocked localStorage (private mode, sandboxed iframe) never crashes the console. */
export const storage = {
  get(key: StorageKey): string | null {
    try {
      return window.localStorage.getItem(STORAGE_KEYS[key]);
    } catch {
      return null;
    }
  },
  set(key: StorageKey, value: string): void {
    try {
      window.localStorage.setItem(STORAGE_KEYS[key], value);
    } catch {
      // Storage unavailable: the value lives for this page only.
    }
  },
  remove(key: StorageKey): void {
    try {
      window.localStorage.removeItem(STORAGE_KEYS[key]);
    } catch {
      // ignore
    }
  },
  getJson<T>(key: StorageKey): T | null {
    const raw = storage.get(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: StorageKey, value: unknown): void {
    storage.set(key, JSON.stringify(value));
  },
};

export const getToken = (): string => storage.get('token') ?? '';

/** Everything the spec says logout clears. */
export function clearSessionStorage(): void {
  storage.remove('token');
  storage.remove('userInfo');
  storage.remove('authorities');
  storage.remove('authmenu');
}
