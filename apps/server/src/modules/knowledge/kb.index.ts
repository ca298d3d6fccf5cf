import type { KbTrainResult } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { tokensOf } from '../../platform/search/tokens.js';
import { orgSettings, type Change } from '../../platform/settings/org-settings.js';
import * as repo from './kb.repository.js';
import { INDEX_SETTING } from './retrieval.js';

type Kdb = Db['kysely'];

/** The indexed questions of an item: its standard question (kind 0) and each similar one (kind 1). */
export function questionEntries(item: {
  question: string;
  similar: readonly string[];
}): repo.QuestionEntry[] {
  const seen = new Set<string>();
  const out: repo.QuestionEntry[] = [];
  for (const [question, kind] of [[item.question, 0] as const, ...item.similar.map((s) => [s, 1] as const)]) {
    if (seen.has(question)) continue;
    seen.add(question);
    out.push({ question, tokens: tokensOf(question), kind });
  }
  return out;
}

export const parseSimilar = (json: string): string[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
};

/** Bumped in the transaction of every change of the indexed questions; announce it after the commit. */
export const bumpIndex = (k: Kdb, db: Db, orgi: string): Promise<Change> =>
  orgSettings(db).bump(k, orgi, INDEX_SETTING);

export const announce = (db: Db, c: Change): void => orgSettings(db).changed(c);

/** `train`: every item's questions indexed again from the stored items (e.g. after a tokenizer upgrade). */
export async function train(db: Db, orgi: string, now = Date.now): Promise<KbTrainResult> {
  const start = now();
  let items = 0;
  let questions = 0;
  const change = await db.kysely.transaction().execute(async (k) => {
    await k.deleteFrom('kb_question').where('orgi', '=', orgi).execute();
    for await (const batch of repo.iterateItems(k, orgi, {}, start, 500)) {
      for (const it of batch) {
        const entries = questionEntries({ question: it.question, similar: parseSimilar(it.similar) });
        await repo.replaceQuestions(k, orgi, it.id, entries);
        items++;
        questions += entries.length;
      }
    }
    return bumpIndex(k, db, orgi);
  });
  announce(db, change);
  return { items, questions, ms: now() - start };
}
