import type { Transaction } from 'kysely';
import type { z } from 'zod';
import {
  PII_RULES,
  PII_RULES_DEFAULT,
  SENSITIVE_WORD_MAX,
  type Page,
  type PiiRules,
  type SensitiveBatchResult,
  type SensitiveCheckResult,
  type SensitiveHitDto,
  type SensitiveKind,
  type SensitiveWordDto,
  type piiRulesSchema,
  type sensitiveBatchSchema,
  type sensitiveHitQuery,
  type sensitivePageQuery,
  type sensitiveSaveSchema,
  type sensitiveUpdateSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { newId } from '../../platform/ids.js';
import { orgSettings, type Change } from '../../platform/settings/org-settings.js';
import { normalize, pinyinForms } from './normalize.js';
import { LISTS_SETTING, screenOf } from './screen.js';
import { presentHit, presentWord } from './sensitive.presenter.js';
import * as repo from './sensitive.repository.js';

/** org_setting name of the tenant's personal-data masking rules. */
export const PII_SETTING = 'sensitive.pii';

const wordExists = () => badRequest('sensitive_word_exists', { word: 'sensitive_word_exists' });

/** The forms a word is matched by, or null when nothing is left after normalising (only symbols). */
function derive(word: string): { norm: string; pinyin: string } | null {
  const norm = normalize(word);
  return norm ? { norm, pinyin: pinyinForms(norm).join(' ') } : null;
}

function deriveOrThrow(word: string): { norm: string; pinyin: string } {
  const d = derive(word);
  if (!d) throw badRequest('invalid_field', { word: 'invalid_field' });
  return d;
}

/** Runs a change of a tenant's lists with its version bump, then announces it (every node rebuilds). */
async function changeLists<T>(
  db: Db,
  orgi: string,
  run: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  let change: Change | undefined;
  const out = await db.kysely.transaction().execute(async (trx) => {
    const r = await run(trx);
    change = await orgSettings(db).bump(trx, orgi, LISTS_SETTING);
    return r;
  });
  if (change) orgSettings(db).changed(change);
  return out;
}

export async function pageWords(
  db: Db,
  p: Principal,
  kind: SensitiveKind,
  f: z.infer<typeof sensitivePageQuery>,
  pg: Paging,
): Promise<Page<SensitiveWordDto>> {
  const { rows, total } = await repo.page(db.kysely, p.orgi, kind, f, offsetOf(pg), pg.ps);
  return pageOf(rows.map(presentWord), total, pg);
}

export async function saveWord(
  db: Db,
  p: Principal,
  kind: SensitiveKind,
  input: z.infer<typeof sensitiveSaveSchema>,
): Promise<SensitiveWordDto> {
  const { norm, pinyin } = deriveOrThrow(input.word);
  const now = Date.now();
  const row = {
    id: newId(),
    orgi: p.orgi,
    kind,
    word: input.word,
    norm,
    pinyin,
    action: input.action,
    creater: p.id,
    createtime: now,
    updatetime: now,
  };
  const added = await changeLists(db, p.orgi, async (trx) => repo.insertWords(trx, [row]));
  if (added === 0) throw wordExists();
  return presentWord(row);
}

/**
 * Adds many words in one transaction. A word already in the list, or repeated in the batch (by its
 * normalised form: 代開發票 repeats 代开发票), is reported as a duplicate; an invalid one (too long, only
 * symbols) as invalid; the rest go in.
 */
export async function batchAdd(
  db: Db,
  p: Principal,
  kind: SensitiveKind,
  input: z.infer<typeof sensitiveBatchSchema>,
): Promise<SensitiveBatchResult> {
  const now = Date.now();
  const invalid: SensitiveBatchResult['invalid'] = [];
  const duplicates: string[] = [];
  const byNorm = new Map<string, { word: string; norm: string; pinyin: string }>();
  for (const word of input.words) {
    if ([...word].length > SENSITIVE_WORD_MAX) {
      invalid.push({ word, key: 'too_long' });
      continue;
    }
    const d = derive(word);
    if (!d) invalid.push({ word, key: 'invalid_field' });
    else if (byNorm.has(d.norm)) duplicates.push(word);
    else byNorm.set(d.norm, { word, ...d });
  }
  if (byNorm.size === 0) return { added: 0, duplicates, invalid };
  const added = await changeLists(db, p.orgi, async (trx) => {
    const existing = await repo.existingNorms(trx, p.orgi, kind, [...byNorm.keys()]);
    const rows = [];
    let i = 0;
    for (const w of byNorm.values()) {
      if (existing.has(w.norm)) {
        duplicates.push(w.word);
        continue;
      }
      // Distinct times keep the batch's order in the newest-first list.
      rows.push({
        id: newId(),
        orgi: p.orgi,
        kind,
        ...w,
        action: input.action,
        creater: p.id,
        createtime: now + i,
        updatetime: now + i++,
      });
    }
    return repo.insertWords(trx, rows);
  });
  return { added, duplicates, invalid };
}

/** Changes a word or its action; returns it before and after (the audit log keeps both). */
export async function updateWord(
  db: Db,
  p: Principal,
  kind: SensitiveKind,
  input: z.infer<typeof sensitiveUpdateSchema>,
): Promise<{ before: SensitiveWordDto; after: SensitiveWordDto }> {
  const old = await repo.findById(db.kysely, p.orgi, input.id);
  if (!old || old.kind !== kind) throw notFound();
  const word = input.word ?? old.word;
  const d = input.word !== undefined ? deriveOrThrow(word) : { norm: old.norm, pinyin: old.pinyin };
  const set = { word, ...d, action: input.action ?? old.action, updatetime: Date.now() };
  await changeLists(db, p.orgi, async (trx) => {
    if (d.norm !== old.norm && (await repo.normExists(trx, p.orgi, kind, d.norm, old.id))) throw wordExists();
    await repo.updateWord(trx, p.orgi, old.id, set);
  });
  return { before: presentWord(old), after: presentWord({ ...old, ...set }) };
}

export async function deleteWords(
  db: Db,
  p: Principal,
  kind: SensitiveKind,
  ids: string[],
): Promise<{ removed: number }> {
  if (ids.length === 0) return { removed: 0 };
  const removed = await changeLists(db, p.orgi, (trx) => repo.deleteWords(trx, p.orgi, kind, ids));
  if (removed === 0) throw notFound();
  return { removed };
}

/** What the agent's draft would hit in the agent list (the composer warns before sending). */
export async function check(db: Db, p: Principal, text: string): Promise<SensitiveCheckResult> {
  const hits = await screenOf(db).scan(p.orgi, 'agent', text);
  if (!hits) return { action: null, block: [], mask: [], alert: [], text };
  return { action: hits.action, block: hits.block, mask: hits.mask, alert: hits.alert, text: hits.text };
}

const readPii = (raw: unknown): PiiRules => {
  const v = (raw ?? {}) as Partial<Record<string, unknown>>;
  const out = { ...PII_RULES_DEFAULT };
  for (const r of PII_RULES) if (typeof v[r] === 'boolean') out[r] = v[r];
  return out;
};

export async function piiRules(db: Db, orgi: string): Promise<PiiRules> {
  return (await orgSettings(db).get(orgi, PII_SETTING, readPii)).value;
}

export async function savePiiRules(
  db: Db,
  p: Principal,
  input: z.infer<typeof piiRulesSchema>,
): Promise<{ before: PiiRules; after: PiiRules }> {
  const before = await piiRules(db, p.orgi);
  const after = { ...before };
  for (const r of PII_RULES) if (input[r] !== undefined) after[r] = input[r];
  await orgSettings(db).save(p.orgi, PII_SETTING, after);
  return { before, after };
}

export async function hitList(
  db: Db,
  p: Principal,
  f: z.infer<typeof sensitiveHitQuery>,
  pg: Paging,
): Promise<Page<SensitiveHitDto>> {
  const { rows, total } = await repo.hits(db.kysely, p.orgi, f, offsetOf(pg), pg.ps);
  return pageOf(rows.map(presentHit), total, pg);
}
