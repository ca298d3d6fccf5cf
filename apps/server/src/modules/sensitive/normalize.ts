import * as OpenCC from 'opencc-js';
import { pinyin } from 'pinyin-pro';

/**
 * Text normalisation for sensitive-word matching, one character at a time so the message path pays a
 * table or Map lookup per character and nothing else: letters and digits are kept (lower-cased, full-width
 * folded to ASCII, traditional Chinese converted to simplified with OpenCC), everything else (spaces,
 * punctuation, symbols, emoji, zero-width characters) is dropped. Words and messages go through the same
 * function, so a word matches whatever spelling folds to the same characters.
 */

const toCn = [
  OpenCC.Converter({ from: 't', to: 'cn' }),
  OpenCC.Converter({ from: 'tw', to: 'cn' }),
  OpenCC.Converter({ from: 'hk', to: 'cn' }),
];

const KEEP = /^[\p{L}\p{N}]$/u;
const HAN = /^\p{Script=Han}$/u;

/** The normalised form of one character: '' (dropped), usually one character, rarely more. */
function computeChar(code: number): string {
  const ch = String.fromCharCode(code);
  if (code < 128) return /[a-z0-9]/i.test(ch) ? ch.toLowerCase() : '';
  if (code >= 0xd800 && code <= 0xdfff) return '';
  const folded = ch.normalize('NFKC');
  if (folded.length === 1 && folded.charCodeAt(0) < 128) return computeChar(folded.charCodeAt(0));
  if (!KEEP.test(ch)) return '';
  for (const conv of toCn) {
    const c = conv(ch);
    if (c !== ch && c.length > 0) return c.toLowerCase();
  }
  return ch.toLowerCase();
}

/** Table value: not computed yet. */
const UNKNOWN = 0;
/** Table value: the character is dropped. (U+FFFF and U+FFFE are noncharacters, never a normalised form.) */
export const DROP = 0xffff;
/** Table value: the form is several characters, kept in `multi`. */
export const MULTI = 0xfffe;
const table = new Uint16Array(0x10000);
const multi = new Map<number, string>();

/**
 * The normalised code of one UTF-16 code unit: a code, DROP, or MULTI (then `normMulti`). Computed once
 * per distinct character and kept in a 128 KB table, so the message path pays one array read. Surrogate
 * halves (emoji, rare CJK extension characters) are dropped: an emoji between the characters of a word
 * does not hide it.
 */
export function normCode(code: number): number {
  const v = table[code]!;
  if (v !== UNKNOWN) return v;
  const n = computeChar(code);
  const r = n.length === 0 ? DROP : n.length === 1 ? n.charCodeAt(0) : MULTI;
  if (r === MULTI) multi.set(code, n);
  table[code] = r;
  return r;
}

export const normMulti = (code: number): string => multi.get(code) ?? '';

export function normChar(code: number): string {
  const v = normCode(code);
  return v === DROP ? '' : v === MULTI ? normMulti(code) : String.fromCharCode(v);
}

export function normalize(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += normChar(text.charCodeAt(i));
  return out;
}

const pyMemo = new Map<number, string>();

/** Pinyin (no tones, ü as v) of a normalised Han character; any other character stands for itself. */
export function pinyinChar(code: number): string {
  if (code < 128) return String.fromCharCode(code);
  let p = pyMemo.get(code);
  if (p === undefined) {
    const ch = String.fromCharCode(code);
    p = HAN.test(ch) ? (pinyin(ch, { toneType: 'none', type: 'array', v: true })[0] ?? ch) : ch;
    pyMemo.set(code, p);
  }
  return p;
}

export const isHan = (code: number): boolean => code >= 0x3400 && code <= 0x9fff;

/**
 * Shortest pinyin form that takes part in matching: a shorter one ("dubo" for 赌博) would turn up inside
 * ordinary latin text too often.
 */
export const PINYIN_MIN_LETTERS = 6;

/**
 * A word's pinyin forms (of its normalised text): the reading in context (银行 → yinhang, what someone
 * typing pinyin writes) and, when it differs, the character-by-character reading that mixed text is
 * converted with (see matcher.ts). None when the word has no Han character or is too short.
 */
export function pinyinForms(norm: string): string[] {
  let han = false;
  let perChar = '';
  for (let i = 0; i < norm.length; i++) {
    const c = norm.charCodeAt(i);
    if (isHan(c)) han = true;
    perChar += pinyinChar(c);
  }
  if (!han || perChar.length < PINYIN_MIN_LETTERS) return [];
  const inContext = pinyin(norm, { toneType: 'none', type: 'array', v: true }).join('').toLowerCase();
  return inContext === perChar || inContext.length < PINYIN_MIN_LETTERS ? [perChar] : [inContext, perChar];
}
