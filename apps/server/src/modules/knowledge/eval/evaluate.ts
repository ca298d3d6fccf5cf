import { readFileSync } from 'node:fs';
import { ROBOT_DEFAULTS } from '@kefu/protocol';
import type { Db } from '../../../platform/db/database.js';
import { orgSettings } from '../../../platform/settings/org-settings.js';
import { newId } from '../../../platform/ids.js';
import { storeIn } from '../items.service.js';
import { announce, bumpIndex } from '../kb.index.js';
import { rank } from '../retrieval.js';
import { outcome } from '../../robot/answer.service.js';
import { SYNONYM_SETTING } from '../synonyms.service.js';

/**
 * The knowledge-base evaluation set (files beside this one): 60 FAQ items of an online shop with their
 * similar questions, 240 visitor questions worded differently from anything stored (4 per item), 50
 * out-of-scope questions, and the shop's synonym list. `evaluate` loads them into a database and asks
 * every question the way the robot does.
 *
 * A second, held-out set (heldout-questions.tsv, heldout-oos.txt) asks about the same items in another
 * style (colloquial, typos and homophones of Chinese input, mixed Chinese/English, very short questions,
 * long ones with context) plus other out-of-scope questions. It was written before the retrieval changes
 * that followed it and is only measured, never tuned on: a change must help both sets.
 */
export interface EvalItem {
  key: string;
  type: string;
  question: string;
  similar: string[];
  answer: string;
}

/** Questions asked of the stored items: in scope (item key, question) and out of scope. */
export interface EvalQuestions {
  questions: Array<{ key: string; q: string }>;
  oos: string[];
}

const file = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

function questionsOf(tsv: string, oos: string): EvalQuestions {
  return {
    questions: file(tsv)
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [key, q] = l.split('\t');
        return { key: key!, q: q! };
      }),
    oos: file(oos).split('\n').filter(Boolean),
  };
}

export function loadEvalSet() {
  const items = JSON.parse(file('faq.json')) as EvalItem[];
  const { questions, oos } = questionsOf('questions.tsv', 'oos.txt');
  const synonyms = file('synonyms.txt')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(/\s+/).filter(Boolean));
  const heldout = questionsOf('heldout-questions.tsv', 'heldout-oos.txt');
  return { items, questions, oos, synonyms, heldout };
}

/** Stores the items (types by name) and the synonyms; returns key → item id. */
export async function seedEvalKb(db: Db, orgi: string): Promise<Map<string, string>> {
  const set = loadEvalSet();
  const ids = new Map<string, string>();
  const now = Date.now();
  const change = await db.kysely.transaction().execute(async (k) => {
    const types = new Map<string, string>();
    for (const it of set.items) {
      let typeid = types.get(it.type);
      if (!typeid) {
        typeid = newId();
        types.set(it.type, typeid);
        await k
          .insertInto('kb_type')
          .values({ id: typeid, orgi, name: it.type, createtime: now, updatetime: now })
          .execute();
      }
      const row = await storeIn(
        k,
        orgi,
        'eval',
        { typeid, question: it.question, similar: it.similar, answer: it.answer, enabled: true },
        null,
        now,
      );
      ids.set(it.key, row.id);
    }
    return bumpIndex(k, db, orgi);
  });
  announce(db, change);
  await orgSettings(db).save(orgi, SYNONYM_SETTING, {
    groups: set.synonyms.map((words) => ({ id: newId(), words })),
  });
  return ids;
}

export interface EvalReport {
  inScope: number;
  outOfScope: number;
  /** The best item is the expected one. */
  top1: number;
  /** The expected item is among the best three. */
  hit3: number;
  /** In-scope questions the robot answers (score ≥ answer threshold) with the right item / a wrong one. */
  answeredRight: number;
  answeredWrong: number;
  /** In-scope questions that get suggestions containing the expected item. */
  suggestedRight: number;
  /** Out-of-scope questions the robot answers (should fall back) / only makes suggestions for. */
  oosAnswered: number;
  oosSuggested: number;
  misses: Array<{ q: string; expected: string; got: string; score: number }>;
  oosHits: Array<{ q: string; got: string; score: number }>;
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;

export async function evaluate(
  db: Db,
  orgi: string,
  ids: Map<string, string>,
  thresholds = {
    answerThreshold: ROBOT_DEFAULTS.answerThreshold,
    suggestThreshold: ROBOT_DEFAULTS.suggestThreshold,
  },
  /** The questions asked (default: the main set; `loadEvalSet().heldout` for the held-out one). */
  set: EvalQuestions = loadEvalSet(),
): Promise<EvalReport> {
  const keyOf = new Map([...ids].map(([k, v]) => [v, k]));
  const now = Date.now();
  const r: EvalReport = {
    inScope: set.questions.length,
    outOfScope: set.oos.length,
    top1: 0,
    hit3: 0,
    answeredRight: 0,
    answeredWrong: 0,
    suggestedRight: 0,
    oosAnswered: 0,
    oosSuggested: 0,
    misses: [],
    oosHits: [],
  };
  for (const { key, q } of set.questions) {
    const ranked = await rank(db, orgi, q, { typeids: null, now, limit: 3 });
    const want = ids.get(key);
    const top = ranked[0];
    if (top?.itemid === want) r.top1++;
    else
      r.misses.push({ q, expected: key, got: keyOf.get(top?.itemid ?? '') ?? '-', score: top?.score ?? 0 });
    if (ranked.some((x) => x.itemid === want)) r.hit3++;
    // What the robot does with it (answer.service outcome: thresholds and the lead over the runner-up).
    const did = outcome(ranked, thresholds);
    if (did === 'answer') {
      if (top?.itemid === want) r.answeredRight++;
      else r.answeredWrong++;
    } else if (
      did === 'suggest' &&
      ranked.some((x) => x.itemid === want && x.score >= thresholds.suggestThreshold)
    )
      r.suggestedRight++;
  }
  for (const q of set.oos) {
    const ranked = await rank(db, orgi, q, { typeids: null, now, limit: 3 });
    const did = outcome(ranked, thresholds);
    if (did === 'answer') r.oosAnswered++;
    else if (did === 'suggest') r.oosSuggested++;
    if (did !== 'fallback')
      r.oosHits.push({ q, got: keyOf.get(ranked[0]!.itemid) ?? '-', score: ranked[0]!.score });
  }
  return r;
}

export function formatReport(r: EvalReport): string {
  return [
    `in-scope questions: ${r.inScope}, out-of-scope: ${r.outOfScope}`,
    `top-1 accuracy:     ${pct(r.top1, r.inScope)} (${r.top1}/${r.inScope})`,
    `hit@3:              ${pct(r.hit3, r.inScope)} (${r.hit3}/${r.inScope})`,
    `answered right:     ${pct(r.answeredRight, r.inScope)}, answered wrong: ${pct(r.answeredWrong, r.inScope)}, ` +
      `right item suggested: ${pct(r.suggestedRight, r.inScope)}`,
    `out-of-scope wrongly answered: ${pct(r.oosAnswered, r.outOfScope)} (${r.oosAnswered}/${r.outOfScope}), ` +
      `given suggestions: ${pct(r.oosSuggested, r.outOfScope)}`,
  ].join('\n');
}
