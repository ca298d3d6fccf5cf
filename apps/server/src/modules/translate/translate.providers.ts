import { z } from 'zod';
import type { TranslateProvider } from '@kefu/protocol';
import { chatText, postJson, ProviderError } from '../robot/llm.js';

/** What the admin set up (org_setting `translate.provider`); the key never leaves the server. */
export interface TranslateSetup {
  provider: TranslateProvider;
  url: string;
  key: string;
  model: string;
  timeoutMs: number;
}

/** One interface for every provider: text in the `source` language ('' = let it detect) → `target`. */
export type Translator = (text: string, source: string, target: string) => Promise<string>;

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  zh: 'Simplified Chinese',
  en: 'English',
  ja: 'Japanese',
  ko: 'Korean',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  ru: 'Russian',
};

const trimSlash = (url: string) => url.replace(/\/+$/, '');
const libreAnswer = z.object({ translatedText: z.string() });

/** LibreTranslate: POST {url}/translate {q, source, target, format, api_key} → {translatedText}. */
function libre(s: TranslateSetup): Translator {
  return async (text, source, target) => {
    const body = { q: text, source: source || 'auto', target, format: 'text', api_key: s.key || undefined };
    const r = libreAnswer.safeParse(await postJson(`${trimSlash(s.url)}/translate`, body, s.timeoutMs));
    if (!r.success || !r.data.translatedText.trim()) throw new ProviderError('bad translation');
    return r.data.translatedText;
  };
}

/** An OpenAI-compatible chat completion told to answer with the translation only. */
function openai(s: TranslateSetup): Translator {
  const cfg = {
    baseUrl: trimSlash(s.url),
    apiKey: s.key,
    model: s.model,
    embeddingModel: '',
    timeoutMs: s.timeoutMs,
  };
  return (text, source, target) =>
    chatText(cfg, [
      {
        role: 'system',
        content:
          `Translate the user's message${source ? ` from ${LANGUAGE_NAMES[source] ?? source}` : ''} into ` +
          `${LANGUAGE_NAMES[target] ?? target}. Answer with the translation only, without quotes or notes.`,
      },
      { role: 'user', content: text },
    ]);
}

/** The configured provider, or null when none is. */
export function translatorOf(s: TranslateSetup): Translator | null {
  if (s.provider === 'libre' && s.url) return libre(s);
  if (s.provider === 'openai' && s.url && s.model) return openai(s);
  return null;
}
