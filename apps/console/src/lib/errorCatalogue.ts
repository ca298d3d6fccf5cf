import { ERROR_MESSAGES } from '@kefu/protocol';

/**
 * The protocol's error texts, loaded by lib/api only when a server error needs one: the whole
 * catalogue is too big for the login page's first load (bench B7).
 */
export function catalogueText(key: string, lang: string): string | undefined {
  const m = (ERROR_MESSAGES as Record<string, { zh: string; en: string } | undefined>)[key];
  if (!m) return undefined;
  return lang.startsWith('en') ? m.en : m.zh;
}
