import { LANGUAGES } from '@kefu/protocol';

/**
 * The protocol's texts, used only when GET /api/language fails. Imported dynamically so the
 * growing text tables of every language stay out of the first download.
 */
export const bundledLanguageList = () => LANGUAGES.map((l) => ({ language: l.language, name: l.name }));

export function bundledTexts(lang: string): Record<string, string> {
  const found = LANGUAGES.find((l) => l.language === lang) ?? LANGUAGES[0];
  return { ...found.texts };
}
