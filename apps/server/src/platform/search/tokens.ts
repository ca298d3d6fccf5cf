import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';
import { badRequest } from '../http/errors.js';

/**
 * Words for full-text search, the same on both databases: SQLite indexes them with FTS5 (unicode61),
 * PostgreSQL with to_tsvector('simple', …). Chinese has no spaces, so jieba segments the text; its search
 * mode also emits the dictionary words inside longer ones (订单号 → 订单, 单号, 订单号). Every Chinese
 * character is added on its own as well, so a one-character keyword finds the messages that contain it
 * anywhere. Latin words are lower-cased, and a word mixing letters and digits (iPhone15) also yields its
 * parts (iphone, 15).
 */

let jieba: Jieba | undefined;
/** Loaded on first use (≈ 150 ms, the dictionary is inside the package). */
const segmenter = (): Jieba => (jieba ??= Jieba.withDict(dict));

const WORDISH = /[\p{L}\p{N}]/u;
const HAN = /\p{Script=Han}/u;
const NON_WORD = /[^\p{L}\p{N}]+/gu;
const PARTS = /\p{L}+|\p{N}+/gu;

/** A jieba token cleaned to letters and digits (what both full-text parsers keep), lower case. */
const clean = (w: string): string => w.replace(NON_WORD, ' ').trim().toLowerCase();

/** The space-separated search words of a text ('' when it has none). */
export function tokensOf(text: string): string {
  if (!text || !WORDISH.test(text)) return '';
  const out = new Set<string>();
  const chars = new Set<string>();
  for (const raw of segmenter().cutForSearch(text, true)) {
    if (!WORDISH.test(raw)) continue;
    for (const w of clean(raw).split(' ')) {
      if (!w) continue;
      out.add(w);
      if (HAN.test(w)) {
        if (w.length > 1) for (const c of w) if (HAN.test(c)) chars.add(c);
      } else if (/\p{L}/u.test(w) && /\p{N}/u.test(w)) {
        for (const part of w.match(PARTS) ?? []) out.add(part);
      }
    }
  }
  for (const c of chars) out.add(c);
  return [...out].join(' ');
}

export const KEYWORD_MAX = 100;
/** Words of one keyword that a search combines (AND); more are ignored. */
export const KEYWORD_MAX_WORDS = 8;

/**
 * The words a keyword must all match, segmented in precise mode (the query is short, its words are whole).
 * A keyword longer than KEYWORD_MAX or without any letter or digit is refused (keyword_too_long,
 * keyword_invalid): it can match nothing useful and only costs the database.
 */
export function keywordWords(keyword: string): string[] {
  const k = keyword.trim();
  if (k.length > KEYWORD_MAX) throw badRequest('keyword_too_long', { keyword: 'keyword_too_long' });
  const words = new Set<string>();
  for (const raw of segmenter().cut(k, true)) {
    for (const w of clean(raw).split(' ')) if (w) words.add(w);
  }
  if (words.size === 0) throw badRequest('keyword_invalid', { keyword: 'keyword_invalid' });
  return [...words].slice(0, KEYWORD_MAX_WORDS);
}

/** An FTS5 MATCH expression: every word as a quoted string (the words hold letters and digits only). */
export const ftsMatch = (words: readonly string[]): string => words.map((w) => `"${w}"`).join(' AND ');

/** A PostgreSQL tsquery text for to_tsquery('simple', …): the words AND-ed. */
export const tsQuery = (words: readonly string[]): string => words.map((w) => `'${w}'`).join(' & ');
