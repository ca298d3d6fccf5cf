import { DEFAULT_LANGUAGE } from '@kefu/protocol';

export interface LanguageOption {
  language: string;
  name: string;
}

/** "zh-CN" → "zh", "en_US" → "en". */
export const dropRegion = (lang: string): string => lang.trim().split(/[-_]/)[0].toLowerCase();

/**
 * Spec section 1: the url parameter l, else the saved language, else zh; region suffix dropped;
 * if the server's list does not contain it, the first listed language.
 */
export function pickLanguage(input: {
  urlParam?: string | null;
  saved?: string | null;
  list?: readonly LanguageOption[];
}): string {
  const raw = input.urlParam || input.saved || DEFAULT_LANGUAGE;
  const lang = dropRegion(raw) || DEFAULT_LANGUAGE;
  const list = input.list ?? [];
  if (list.length > 0 && !list.some((l) => dropRegion(l.language) === lang))
    return dropRegion(list[0].language);
  return lang;
}

/** The server sends texts as name/text pairs; i18next wants a flat map. */
export function pairsToResource(list: readonly { name: string; text: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, text } of list) out[name] = text;
  return out;
}
