import { DEFAULT_LANGUAGE, LANGUAGES } from '@kefu/protocol';

type Lang = (typeof LANGUAGES)[number];

/**
 * Spec section 1: a region suffix is dropped ('en-US' → 'en'); a language that is not listed falls
 * back to the first listed one; no language at all means zh.
 */
export function resolveLanguage(requested: string | undefined): Lang {
  const base = (requested || DEFAULT_LANGUAGE).trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l.language === base) ?? LANGUAGES[0];
}

export function languageTexts(requested: string | undefined): {
  language: string;
  list: { name: string; text: string }[];
} {
  const lang = resolveLanguage(requested);
  const list = Object.entries(lang.texts as Record<string, string>).map(([name, text]) => ({ name, text }));
  return { language: lang.language, list };
}

export const languageList = (): { language: string; name: string }[] =>
  LANGUAGES.map((l) => ({ language: l.language, name: l.name }));
