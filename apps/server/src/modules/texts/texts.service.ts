import type { z } from 'zod';
import {
  BASE_TEXT_LANGUAGE,
  VISITOR_TEXT_SCOPES,
  hasPermission,
  textScopeId,
  type VisitorTextScope,
  type VisitorTextsDto,
  type visitorTextQuery,
  type visitorTextSaveSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import { runFixed, type Sql } from '../conversation/hot-sql.js';
import type { SessionConfig } from '../conversation/session-config.js';
import { loadSessionConfig } from '../conversation/session-config.js';
import { accessByAppid } from '../access/access.repository.js';
import { loadSection } from '../access/settings.repository.js';
import { SECTIONS } from '../access/sections.js';
import { settings as satisfactionSettings } from '../satisfaction/satisfaction.service.js';
import { findOpinion } from '../satisfaction/satisfaction.repository.js';
import { findWork } from '../workservice/workservice.repository.js';
import { DEFAULT_NOT_IN_WORK_MSG } from '../workservice/workservice.service.js';
import { storeTexts, textsOf, textsOfScopes, type Texts } from './texts.repository.js';

/** Whether texts in `lang` may differ from the base texts at all ('' = the widget did not say). */
export const translated = (lang: string | null | undefined): lang is string =>
  !!lang && lang !== BASE_TEXT_LANGUAGE;

/** `base` with each key that has a non-empty text in `texts` replaced by it. */
export function overlay<T extends object>(base: T, texts: Texts | undefined): T {
  if (!texts) return base;
  const out = { ...base } as Record<string, unknown>;
  for (const [k, v] of Object.entries(texts)) if (v && typeof out[k] === 'string') out[k] = v;
  return out as T;
}

/**
 * The session config with its visitor texts in the visitor's language (prompts, queue and satisfaction
 * texts): one statement, and none for a visitor of the base language.
 */
export async function localizedConfig(
  k: Sql,
  cfg: SessionConfig,
  orgi: string,
  lang: string | null | undefined,
): Promise<SessionConfig> {
  if (!translated(lang)) return cfg;
  const rows = (await runFixed<{ texts: string }>(k, CONFIG_TEXTS, [orgi, lang])).rows;
  let out = cfg;
  for (const r of rows) {
    try {
      out = overlay(out, JSON.parse(r.texts) as Texts);
    } catch {
      // A damaged row only loses its translation.
    }
  }
  return out;
}
const CONFIG_TEXTS = `select texts from visitor_text where orgi = ? and lang = ?
  and scope in ('prompt', 'lineUp', 'satisfaction')`;

/** The satisfaction level names in `lang` (level1…level5 of the satisfaction scope). */
export function localizedLevels<L extends { value: number; name: string }>(levels: L[], texts?: Texts): L[] {
  if (!texts) return levels;
  return levels.map((l) => ({ ...l, name: texts[`level${l.value}`] || l.name }));
}

type RowScope = 'workingHours' | 'opinion';

/** The base texts of a row of the caller's tenant, by row scope; undefined when it has no such row. */
const ROW_BASE: Record<RowScope, (db: Db, orgi: string, id: string) => Promise<Texts | undefined>> = {
  workingHours: async (db, orgi, id) => {
    const row = await findWork(db.kysely, orgi, id);
    return row && { notinwhmsg: row.notinwhmsg || DEFAULT_NOT_IN_WORK_MSG };
  },
  opinion: async (db, orgi, id) => {
    const row = await findOpinion(db.kysely, orgi, id);
    return row && { name: row.name };
  },
};

/**
 * The row texts of `scope` in `lang` for the given rows: row id → texts. None for a visitor of the
 * base language.
 */
export async function rowTexts(
  k: Db['kysely'],
  orgi: string,
  scope: RowScope,
  ids: readonly string[],
  lang: string | null | undefined,
): Promise<Map<string, Texts>> {
  if (!translated(lang) || ids.length === 0) return new Map();
  const byScope = await textsOfScopes(
    k,
    orgi,
    ids.map((id) => textScopeId(scope, id)),
    lang,
  );
  const out = new Map<string, Texts>();
  for (const id of ids) {
    const t = byScope.get(textScopeId(scope, id));
    if (t) out.set(id, t);
  }
  return out;
}

/**
 * One row's text `key` in the visitor's language, or `base` (a fixed statement: the working-hours
 * notice is read on the conversation engine's path).
 */
export async function rowText(
  k: Sql,
  orgi: string,
  scope: RowScope,
  id: string,
  key: string,
  base: string,
  lang: string | null | undefined,
): Promise<string> {
  if (!translated(lang)) return base;
  return (await textsOf(k, orgi, textScopeId(scope, id), lang))?.[key] || base;
}

/**
 * The stored texts a request is about: the caller holds the scope's code, a widget scope names an
 * access point of the caller's tenant, a row scope a row of the caller's tenant. Answers the access
 * point and row (null when the scope has none), the row's base texts, and the stored texts.
 */
async function opened(
  db: Db,
  p: Principal,
  q: { scope: VisitorTextScope; lang: string; appid?: string; rowid?: string },
): Promise<{ appid: string | null; rowid: string | null; rowBase?: Texts; scopeId: string; stored: Texts }> {
  const def = VISITOR_TEXT_SCOPES[q.scope];
  if (!hasPermission(p.usertype, p.auth, def.code)) throw forbidden();
  let appid: string | null = null;
  if (def.site) {
    const ap = q.appid ? await accessByAppid(db.kysely, q.appid) : undefined;
    if (!ap || ap.orgi !== p.orgi) throw notFound('access_point_not_found');
    appid = ap.id;
  }
  let rowid: string | null = null;
  let rowBase: Texts | undefined;
  if (def.row) {
    rowBase = q.rowid ? await ROW_BASE[q.scope as RowScope](db, p.orgi, q.rowid) : undefined;
    if (!rowBase) throw notFound('not_found');
    rowid = q.rowid ?? null;
  }
  const scopeId = textScopeId(q.scope, def.row ? rowid : appid);
  return {
    appid,
    rowid,
    rowBase,
    scopeId,
    stored: (await textsOf(db.kysely, p.orgi, scopeId, q.lang)) ?? {},
  };
}

/** The base texts of a scope's keys (what a visitor of the base language reads). */
async function baseTexts(
  db: Db,
  orgi: string,
  scope: VisitorTextScope,
  appid: string | null,
): Promise<Texts> {
  const keys = VISITOR_TEXT_SCOPES[scope].keys as readonly string[];
  let source: Record<string, unknown>;
  if (scope === 'prompt' || scope === 'lineUp') source = { ...(await loadSessionConfig(db, orgi)) };
  else if (scope === 'satisfaction') {
    const s = await satisfactionSettings(db, orgi);
    source = { satisftext: s.text, ...Object.fromEntries(s.levels.map((l) => [`level${l.value}`, l.name])) };
  } else if (scope === 'workingHours' || scope === 'opinion') {
    source = {}; // a row's base texts come from its row (ROW_BASE)
  } else {
    const def = SECTIONS[scope];
    source = await loadSection(db.kysely, orgi, appid ?? '', def.section, def.fields, def.fallback);
  }
  return Object.fromEntries(keys.map((k) => [k, typeof source[k] === 'string' ? source[k] : '']));
}

export async function detail(
  db: Db,
  p: Principal,
  q: z.output<typeof visitorTextQuery>,
): Promise<VisitorTextsDto> {
  const { appid, rowid, rowBase, stored } = await opened(db, p, q);
  const keys = VISITOR_TEXT_SCOPES[q.scope].keys as readonly string[];
  return {
    scope: q.scope,
    appid,
    rowid,
    lang: q.lang,
    base: BASE_TEXT_LANGUAGE,
    texts: Object.fromEntries(keys.map((k) => [k, stored[k] ?? ''])),
    defaults: rowBase ?? (await baseTexts(db, p.orgi, q.scope, appid)),
  };
}

/** Stores the scope's texts in `lang`; a key sent '' goes back to the base text. */
export async function save(
  db: Db,
  p: Principal,
  b: z.output<typeof visitorTextSaveSchema>,
): Promise<VisitorTextsDto> {
  const { appid, rowid, scopeId, stored } = await opened(db, p, b);
  const next: Texts = { ...stored, ...b.texts };
  for (const k of Object.keys(next)) if (!next[k]) delete next[k];
  await storeTexts(db.kysely, p.orgi, scopeId, b.lang, next, Date.now());
  return detail(db, p, {
    scope: b.scope,
    lang: b.lang,
    appid: appid ?? undefined,
    rowid: rowid ?? undefined,
  });
}
