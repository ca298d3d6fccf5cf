import { zh } from './i18n.zh.js';
import { en } from './i18n.en.js';

export type TextKey = keyof typeof zh;
export type Lang = 'zh' | 'en';

/** `?l=` wins, then the browser language; anything but English is Chinese (the default). */
export function pickLang(search: string, navigatorLang: string | undefined): Lang {
  const l = new URLSearchParams(search).get('l') ?? navigatorLang ?? 'zh';
  return l.toLowerCase().split(/[-_]/)[0] === 'en' ? 'en' : 'zh';
}

let current: Lang = 'zh';
export const setLang = (l: Lang): void => {
  current = l;
};
export const lang = (): Lang => current;

/** Text of `key`; `{name}` placeholders are filled from `vars`. */
export function t(key: TextKey, vars?: Record<string, string | number>): string {
  const s = (current === 'en' ? en : zh)[key];
  return vars ? s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : s;
}
