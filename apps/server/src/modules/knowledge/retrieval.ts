import type { Db, Dialect } from '../../platform/db/database.js';
import { numberedPlaceholders, rawRows } from '../../platform/db/raw.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import {
  countTerms,
  coverage,
  itemScore,
  queryTerms,
  questionsScore,
  scoreQuestion,
  termsOf,
  termsOfStored,
  weightOf,
  type Frequencies,
  type Terms,
  type Weigh,
} from './analyze.js';
import { allQuestionTokens } from './kb.repository.js';
import { synonymsOf, type Synonyms } from './synonyms.service.js';

/**
 * Finding the items that answer a question: the full-text index (SQLite FTS5 bm25, PostgreSQL GIN +
 * ts_rank) proposes the stored questions that share a rare term with it, then each is scored 0–1 by
 * analyze.ts and an item takes the score of its best question. Only items in force (enabled, inside
 * their validity window) of the robot's types are considered.
 */

/** Bumped in the transaction of every change of the indexed questions (cached frequencies are dropped). */
export const INDEX_SETTING = 'kb.index';

/** Stored questions the full-text query proposes (the scorer reads them all). */
const CANDIDATES = 60;
/** Terms of one question that go into the full-text query (rarest first). */
const QUERY_TERMS = 16;
/** A question is read up to this many characters (a 10 KB paste costs what a long question costs). */
export const QUESTION_READ = 300;

/** What the scorer needs of the tenant's whole knowledge base, kept per node. */
export interface Corpus {
  freq: Frequencies;
  /** Item id → the words and characters of all its questions (its coverage of a question). */
  vocab: ReadonlyMap<string, ReadonlySet<string>>;
}

interface Cached {
  key: string;
  corpus: Corpus;
}
const corpusCache = new WeakMap<Db, Map<string, Cached | Promise<Cached>>>();

/**
 * The tenant's term frequencies and item vocabularies (as the scorer sees terms: synonyms folded), rebuilt
 * after a change of the questions or of the synonyms (announced across nodes).
 */
async function corpusOf(db: Db, orgi: string, syn: Synonyms): Promise<Corpus> {
  const { version } = await orgSettings(db).get(orgi, INDEX_SETTING, () => null);
  const key = `${version}:${syn.version}`;
  let byOrg = corpusCache.get(db);
  if (!byOrg) corpusCache.set(db, (byOrg = new Map()));
  const hit = byOrg.get(orgi);
  const ready = hit instanceof Promise ? await hit : hit;
  if (ready && ready.key === key) return ready.corpus;
  const building = allQuestionTokens(db.kysely, orgi).then((rows) => {
    const vocab = new Map<string, Set<string>>();
    const terms = rows.map((r) => {
      const t = termsOfStored(r.question, r.tokens, syn.map);
      let v = vocab.get(r.itemid);
      if (!v) vocab.set(r.itemid, (v = new Set()));
      for (const w of t.words) v.add(w);
      for (const c of t.chars) v.add(c);
      return t;
    });
    return { key, corpus: { freq: countTerms(terms), vocab } };
  });
  byOrg.set(orgi, building);
  try {
    const built = await building;
    byOrg.set(orgi, built);
    return built.corpus;
  } catch (err) {
    byOrg.delete(orgi);
    throw err;
  }
}

export interface Ranked {
  itemid: string;
  /** The stored question (standard or similar) that matched best. */
  matched: string;
  score: number;
}

export interface RankOptions {
  /** Knowledge types searched (null = all). */
  typeids: readonly string[] | null;
  now: number;
  limit: number;
}

/** The term sets and weights a question is scored with (also used by the evaluation). */
export interface Scorer {
  terms: Terms;
  syn: Synonyms;
  corpus: Corpus;
  weigh: Weigh;
}

export async function scorerFor(db: Db, orgi: string, question: string): Promise<Scorer> {
  const syn = await synonymsOf(db, orgi);
  const corpus = await corpusOf(db, orgi, syn);
  const weighs = new Map<string, number>();
  const weigh = (t: string) => {
    let w = weighs.get(t);
    if (w === undefined) weighs.set(t, (w = weightOf(t, corpus.freq)));
    return w;
  };
  return { terms: termsOf(question.slice(0, QUESTION_READ), syn.map), syn, corpus, weigh };
}

/** The full-text expression of the terms (with every word of their synonym groups). */
export function matchExpression(dialect: Dialect, terms: readonly string[], syn: Synonyms): string {
  const all = new Set<string>();
  for (const t of terms) {
    // Class terms (~when) are not in the index: scoring only.
    if (/^[\p{L}\p{N}]+$/u.test(t)) all.add(t);
    for (const m of syn.members.get(t) ?? []) if (/^[\p{L}\p{N}]+$/u.test(m)) all.add(m);
  }
  const list = [...all];
  return dialect === 'sqlite'
    ? list.map((w) => `"${w}"`).join(' OR ')
    : list.map((w) => `'${w}'`).join(' | ');
}

const typeFilter = (n: number) => (n ? ` and i.typeid in (${new Array(n).fill('?').join(', ')})` : '');

/**
 * The best questions by bm25 / ts_rank first (an inner limit, so the sort and the joins touch a few hundred
 * rows however many match), then the items in force of the tenant and the types. A tenant sharing the
 * index with others that match far better could see fewer candidates: the inner limit is generous.
 * SQLite: CROSS JOIN keeps that order (left to itself the planner scans kb_question by tenant first).
 */
const INNER = 300;

function candidateSql(dialect: Dialect, types: number): string {
  const active =
    'i.enabled = 1 and (i.begintime is null or i.begintime <= ?) and (i.endtime is null or i.endtime >= ?)';
  if (dialect === 'sqlite')
    return `select q.itemid, q.question, q.tokens from (select rowid as r, bm25(kb_question_fts) as s
        from kb_question_fts where kb_question_fts match ? order by s limit ${INNER}) f
      cross join kb_question q on q.rowid = f.r cross join kb_item i on i.id = q.itemid
      where q.orgi = ? and ${active}${typeFilter(types)}
      order by f.s limit ${CANDIDATES}`;
  return numberedPlaceholders(`select q.itemid, q.question, q.tokens from (select id, ts_rank(to_tsvector('simple', tokens), m) as s
        from kb_question, to_tsquery('simple', ?) m where to_tsvector('simple', tokens) @@ m and orgi = ?
        order by s desc limit ${INNER}) f
      join kb_question q on q.id = f.id join kb_item i on i.id = q.itemid
      where ${active}${typeFilter(types)}
      order by f.s desc limit ${CANDIDATES}`);
}

/** The bare full-text query of the same expression (the benchmark's baseline). */
export function bareSql(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? `select rowid from kb_question_fts where kb_question_fts match ? order by bm25(kb_question_fts) limit ${CANDIDATES}`
    : `select id from kb_question q, to_tsquery('simple', $1) m where to_tsvector('simple', q.tokens) @@ m
       order by ts_rank(to_tsvector('simple', q.tokens), m) desc limit ${CANDIDATES}`;
}

/** Items for a question, best first, with their normalised scores. */
export async function rank(db: Db, orgi: string, question: string, o: RankOptions): Promise<Ranked[]> {
  const s = await scorerFor(db, orgi, question);
  return rankWith(db, orgi, s, o);
}

export async function rankWith(db: Db, orgi: string, s: Scorer, o: RankOptions): Promise<Ranked[]> {
  const terms = queryTerms(s.terms, s.weigh, QUERY_TERMS);
  if (terms.length === 0) return [];
  const types = o.typeids ?? [];
  const rows = await rawRows<{ itemid: string; question: string; tokens: string }>(
    db.kysely,
    candidateSql(db.dialect, types.length),
    [matchExpression(db.dialect, terms, s.syn), orgi, o.now, o.now, ...types],
  );
  return best(rows, s, o.limit);
}

/**
 * Scores the candidate questions; an item takes its best question's score (raised by its second-best
 * question's) mixed with its coverage of the question. Highest first (ties: the index's order).
 */
export function best(
  rows: ReadonlyArray<{ itemid: string; question: string; tokens: string }>,
  s: Scorer,
  limit: number,
): Ranked[] {
  const byItem = new Map<string, { matched: string; score: number; second: number; at: number }>();
  rows.forEach((r, at) => {
    const score = scoreQuestion(s.terms, termsOfStored(r.question, r.tokens, s.syn.map), s.weigh);
    const prev = byItem.get(r.itemid);
    if (!prev) byItem.set(r.itemid, { matched: r.question, score, second: 0, at });
    else if (score > prev.score) byItem.set(r.itemid, { matched: r.question, score, second: prev.score, at });
    else if (score > prev.second) prev.second = score;
  });
  const none = new Set<string>();
  return [...byItem]
    .map(([itemid, b]) => ({
      itemid,
      matched: b.matched,
      at: b.at,
      score: itemScore(
        questionsScore(b.score, b.second),
        coverage(s.terms, s.corpus.vocab.get(itemid) ?? none, s.weigh),
      ),
    }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .slice(0, limit)
    .map(({ itemid, matched, score }) => ({ itemid, matched, score: Math.round(score * 1000) / 1000 }));
}
