import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storage } from './storage';
import { pairsToResource, pickLanguage, type LanguageOption } from './language';

/**
 * Texts come from GET /api/language (spec section 1). The bundled protocol texts are only a
 * fallback for when that call fails, so the login page still reads properly with the server down.
 */
export const i18n = i18next.createInstance();

let languageList: LanguageOption[] = [];
export const getLanguageList = (): LanguageOption[] => languageList;

interface LanguagePayload {
  language: string;
  list: { name: string; text: string }[];
}

async function fetchJson<T>(url: string): Promise<T | null> {
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' } });
    const body = (await res.json()) as { success?: boolean; data?: T };
    return body.success ? (body.data ?? null) : null;
  } catch {
    return null;
  }
}

async function loadTexts(lang: string): Promise<Record<string, string>> {
  const data = await fetchJson<LanguagePayload>(`/api/language?l=${encodeURIComponent(lang)}`);
  if (data && Array.isArray(data.list) && data.list.length > 0) return pairsToResource(data.list);
  return (await import('./bundledTexts')).bundledTexts(lang);
}

export async function initI18n(): Promise<string> {
  const list = await fetchJson<LanguageOption[]>('/api/language/languageList');
  languageList = list && list.length > 0 ? list : (await import('./bundledTexts')).bundledLanguageList();
  const urlParam = new URLSearchParams(window.location.search).get('l');
  const lang = pickLanguage({ urlParam, saved: storage.get('language'), list: languageList });
  const texts = await loadTexts(lang);
  await i18n.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: texts } },
    // Keys are flat ("menu.setup"), never nested objects.
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  storage.set('language', lang);
  document.documentElement.lang = lang;
  return lang;
}

export async function changeLanguage(lang: string): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'translation')) {
    i18n.addResourceBundle(lang, 'translation', await loadTexts(lang));
  }
  await i18n.changeLanguage(lang);
  storage.set('language', lang);
  document.documentElement.lang = lang;
}
