import type { z } from 'zod';
import {
  TRANSLATE_TIMEOUT_MS,
  TRANSLATE_PROVIDERS,
  baseLanguage,
  translationApplies,
  type MessageDto,
  type TranslateConfigDto,
  type TranslateProvider,
  type TranslateResultDto,
  type translateConfigSaveSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { ProviderError } from '../robot/llm.js';
import * as sessionConfig from '../sessionconfig/sessionconfig.service.js';
import { translatorOf, type TranslateSetup } from './translate.providers.js';

export const TRANSLATE_SETTING = 'translate.provider';
const DEFAULT: TranslateSetup = {
  provider: 'none',
  url: '',
  key: '',
  model: '',
  timeoutMs: TRANSLATE_TIMEOUT_MS.default,
};

function read(raw: unknown): TranslateSetup {
  if (!raw || typeof raw !== 'object') return DEFAULT;
  const v = raw as Partial<Record<keyof TranslateSetup, unknown>>;
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    provider: (TRANSLATE_PROVIDERS as readonly unknown[]).includes(v.provider)
      ? (v.provider as TranslateProvider)
      : 'none',
    url: str(v.url),
    key: str(v.key),
    model: str(v.model),
    timeoutMs: typeof v.timeoutMs === 'number' ? v.timeoutMs : DEFAULT.timeoutMs,
  };
}

const setupOf = async (db: Db, orgi: string) =>
  (await orgSettings(db).get(orgi, TRANSLATE_SETTING, read)).value;

const present = ({ key, ...rest }: TranslateSetup): TranslateConfigDto => ({ ...rest, hasKey: key !== '' });

export const config = async (db: Db, p: Principal): Promise<TranslateConfigDto> =>
  present(await setupOf(db, p.orgi));

export async function saveConfig(
  db: Db,
  p: Principal,
  input: z.infer<typeof translateConfigSaveSchema>,
): Promise<TranslateConfigDto> {
  const cur = await setupOf(db, p.orgi);
  const next: TranslateSetup = {
    provider: input.provider,
    url: input.url,
    key: input.key === undefined || input.key === null ? cur.key : input.key,
    model: input.model,
    timeoutMs: input.timeoutMs,
  };
  await orgSettings(db).save(p.orgi, TRANSLATE_SETTING, next);
  return present(next);
}

/**
 * Translates one incoming visitor message of the caller's chat into the caller's language and keeps it
 * (message_translation): asked again, the kept text is answered without calling the provider. The text is
 * the stored message, never the one posted. A provider that fails or does not answer within its timeout
 * is `translate_failed`: nothing is stored and the original stays as it is.
 */
export async function translate(db: Db, p: Principal, messageid: string): Promise<TranslateResultDto> {
  const k = db.kysely;
  const m = await k
    .selectFrom('chat_message')
    .select(['id', 'agentserviceid', 'type', 'msgtype', 'calltype', 'message', 'withdrawn'])
    .where('orgi', '=', p.orgi)
    .where('id', '=', messageid)
    .executeTakeFirst();
  if (!m) throw notFound();
  const s = await k
    .selectFrom('agent_service')
    .select(['agentno', 'language'])
    .where('id', '=', m.agentserviceid)
    .executeTakeFirstOrThrow();
  // Only the agent serving the chat: a supervisor watching it (the monitor) is not translated for.
  if (s.agentno !== p.id) throw forbidden();
  const [cfg, me] = await Promise.all([
    sessionConfig.get(db, p.orgi),
    k.selectFrom('users').select('language').where('id', '=', p.id).executeTakeFirstOrThrow(),
  ]);
  if (!cfg.msgtranslate) throw badRequest('translate_disabled');
  const target = baseLanguage(me.language);
  const applies = translationApplies(m, {
    visitorLang: s.language,
    agentLang: target,
    msgtranslate: cfg.msgtranslate,
    monitor: false,
  });
  if (!applies || m.withdrawn) throw badRequest('invalid_field', { messageid: 'invalid_field' });
  const done = (translatemsg: string): TranslateResultDto => ({
    messageid: m.id,
    translateMessage: { messageid: m.id, translatemsg },
  });
  const kept = await k
    .selectFrom('message_translation')
    .select('text')
    .where('messageid', '=', m.id)
    .where('lang', '=', target)
    .executeTakeFirst();
  if (kept) return done(kept.text);
  const setup = await setupOf(db, p.orgi);
  const translator = translatorOf(setup);
  if (!translator) throw badRequest('translate_disabled');
  let text: string;
  try {
    text = await translator(m.message, baseLanguage(s.language), target);
  } catch (err) {
    if (err instanceof ProviderError) throw new AppError('translate_failed', 502, { provider: err.message });
    throw err;
  }
  const row = {
    messageid: m.id,
    orgi: p.orgi,
    agentserviceid: m.agentserviceid,
    lang: target,
    text,
    provider: setup.provider,
    createtime: Date.now(),
  };
  await k
    .insertInto('message_translation')
    .values(row)
    .onConflict((oc) => oc.column('messageid').doUpdateSet({ lang: target, text, provider: setup.provider }))
    .execute();
  return done(text);
}

/** Messages as presented, with the translations kept for them (history: read, never asked for). */
export async function withTranslations(db: Db, list: MessageDto[]): Promise<MessageDto[]> {
  const ids = list.filter((m) => m.calltype === 'in' && !m.withdrawn).map((m) => m.id);
  if (!ids.length) return list;
  const rows = await db.kysely
    .selectFrom('message_translation')
    .select(['messageid', 'text'])
    .where('messageid', 'in', ids)
    .execute();
  const text = new Map(rows.map((r) => [r.messageid, r.text]));
  return list.map((m) => (text.has(m.id) ? { ...m, translatemsg: text.get(m.id)! } : m));
}
