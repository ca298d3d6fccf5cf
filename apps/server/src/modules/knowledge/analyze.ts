import { tokensOf } from '../../platform/search/tokens.js';
import { fixTypos } from './lexicon.js';

/**
 * How a question is compared with the stored questions. Both sides go through the search tokenizer of
 * history search (jieba search mode plus every Chinese character: platform/search/tokens.ts), split into
 * words and single characters, stripped of particles and question words that every question shares, and
 * folded through the synonym list. The score of a stored question is a weighted overlap of the two sets
 * (each term weighted by its rarity among the stored questions), normalised to 0–1: 1 is the same
 * question, 0 nothing in common. Characters and pairs of adjacent characters count too, so a paraphrase
 * that jieba cuts differently (退换货 / 退货) still scores. An item's score mixes its best question's with
 * how much of the asked question its questions cover together; a second question of the item that
 * matches too raises it. The weights were tuned on the evaluation set
 * (eval/, `npm run kb:eval`).
 */

const HAN = /^\p{Script=Han}$/u;

/** Words that carry no topic (particles, pronouns, question words). */
const STOP_WORDS = new Set(
  (
    '的 了 吗 呢 吧 啊 呀 么 嘛 哦 哈 嗯 是 我 你 您 他 她 它 我们 你们 他们 咱们 这 那 这个 那个 这样 那样 ' +
    '个 在 有 和 与 或 及 请 请问 问 问下 问一下 一下 下 想 想要 要 能 会 会不会 ' +
    '怎么 怎么样 怎样 如何 什么 啥 哪 哪个 几 是不是 就 都 也 还 ' +
    '又 再 把 被 给 对 让 到 从 为 之 其 呗 么样 一个 一 得 地 着 过 你好 您好 谢谢 麻烦 帮 帮我 帮忙 东西 ' +
    '咋 咋样 咋么 怎么弄 怎么搞 弄 搞 啦 哇 呐 嘞 俺 咱 请教 ' +
    'a an the is are do does can i you we how what to of for my me please'
  ).split(' '),
);
/** Single characters that carry no topic. */
const STOP_CHARS = new Set(
  '的了吗呢吧啊呀么嘛哦哈嗯是我你您他她它们这那个在有和与或及请问一下想要能可以会怎样如何什啥哪几就都也还又再把被给对让到从为之其得地着过好谢帮忙咋啦哇呐嘞俺咱弄'.split(
    '',
  ),
);

export interface Terms {
  words: string[];
  chars: string[];
  /** Adjacent Chinese characters of the text ("退款处理" → 退款, 款处, 处理). */
  pairs: string[];
}

/** Word → the canonical word of its synonym group. */
export type SynonymMap = ReadonlyMap<string, string>;

/**
 * Question words folded into what they ask for: siblings of an FAQ often differ only there ("退款多久到账"
 * / "退款退到哪里" / "退款到哪一步了"). The classes are terms like any other (weighted by rarity).
 */
const ASKS: Record<string, string> = {};
for (const [cls, words] of Object.entries({
  '~when': '多久 几天 时候 多长 时间 何时 多快 几号 日期 期限',
  '~where': '哪里 哪儿 在哪 哪些 地方 何处',
  '~amount': '多少 几个 几件 价格',
  '~why': '为什么 为何 怎么回事 原因',
  '~can': '能不能 可以 可不可以 能否 是否 支持 允许 行不行 有没有',
  '~fix': '怎么办 解决 咋办 咋整 怎么整',
})) {
  for (const w of words.split(' ')) ASKS[w] = cls;
}

const canon = (w: string, syn: SynonymMap) => syn.get(w) ?? ASKS[w] ?? w;
const HAN_RUN = /\p{Script=Han}+/gu;

/** Pair terms are kept apart from two-character words (退款 the word ≠ 退款 the pair). */
const PAIR = '\u0001';

function pairsOf(text: string): string[] {
  const out = new Set<string>();
  for (const run of text.match(HAN_RUN) ?? []) {
    const c = [...run];
    for (let i = 0; i + 1 < c.length; i++) {
      if (STOP_CHARS.has(c[i]!) && STOP_CHARS.has(c[i + 1]!)) continue;
      out.add(PAIR + c[i]! + c[i + 1]!);
    }
  }
  return [...out];
}

/** Terms of a stored question: its token string (kb_question.tokens) and its text. */
export function termsOfStored(text: string, tokens: string, syn: SynonymMap): Terms {
  const words = new Set<string>();
  const chars = new Set<string>();
  for (const t of tokens.split(' ')) {
    if (!t) continue;
    if (HAN.test(t)) {
      if (!STOP_CHARS.has(t)) chars.add(canon(t, syn));
    } else if (!STOP_WORDS.has(t)) words.add(canon(t, syn));
  }
  return { words: [...words], chars: [...chars], pairs: pairsOf(text) };
}

/** Terms of an asked question (its common misspellings corrected first: lexicon.ts). */
export const termsOf = (text: string, syn: SynonymMap): Terms => {
  const t = fixTypos(text);
  return termsOfStored(t, tokensOf(t), syn);
};

/** Document frequencies of terms over the stored questions. */
export interface Frequencies {
  n: number;
  df: ReadonlyMap<string, number>;
}

/** Counts each term once per stored question. */
export function countTerms(questions: Iterable<Terms>): Frequencies {
  const df = new Map<string, number>();
  let n = 0;
  for (const q of questions) {
    n++;
    for (const list of [q.words, q.chars, q.pairs]) for (const t of list) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { n, df };
}

/**
 * Rarity of a term: high for a term few questions have, low for one most have. A term no stored question
 * has weighs as much as the rarest ones: it is an unknown subject, which should lower the score.
 */
export function weightOf(term: string, f: Frequencies): number {
  return Math.log(1 + (f.n + 1) / ((f.df.get(term) ?? 0) + 0.5));
}

export interface ScoreParams {
  /** Words against characters in the term part of a question's score. */
  wordShare: number;
  /** Character pairs against the term part. */
  pairShare: number;
  /** In each overlap: coverage of the stored question against coverage of the asked one. */
  storedShare: number;
  /** In an item's score: its best question against the coverage by all its questions together. */
  questionShare: number;
  /**
   * Support of an item's second-best question: it closes this share of the gap between the best
   * question's score and 1, in proportion to its own score (two questions of an item that both match
   * say more than one).
   */
  secondShare: number;
}

export const SCORE_PARAMS: ScoreParams = {
  wordShare: 0.5,
  pairShare: 0.3,
  storedShare: 0.3,
  questionShare: 0.7,
  secondShare: 0.4,
};

export type Weigh = (term: string) => number;

/** Weighted overlap of two term sets, 0–1: a blend of the coverage of each side. */
function overlap(q: readonly string[], d: readonly string[], weigh: Weigh, storedShare: number): number {
  if (q.length === 0 || d.length === 0) return 0;
  const ds = new Set(d);
  let both = 0;
  let wq = 0;
  for (const t of q) {
    const w = weigh(t);
    wq += w;
    if (ds.has(t)) both += w;
  }
  if (both === 0) return 0;
  let wd = 0;
  for (const t of d) wd += weigh(t);
  return storedShare * (both / wd) + (1 - storedShare) * (both / wq);
}

/** Normalised score of a stored question for the asked one. */
export function scoreQuestion(q: Terms, d: Terms, weigh: Weigh, p: ScoreParams = SCORE_PARAMS): number {
  const words = overlap(q.words, d.words, weigh, p.storedShare);
  const chars = overlap(q.chars, d.chars, weigh, p.storedShare);
  const terms = p.wordShare * words + (1 - p.wordShare) * chars;
  return (1 - p.pairShare) * terms + p.pairShare * overlap(q.pairs, d.pairs, weigh, p.storedShare);
}

/** Share (by weight) of the asked question's words and characters found among an item's terms. */
export function coverage(
  q: Terms,
  vocab: ReadonlySet<string>,
  weigh: Weigh,
  p: ScoreParams = SCORE_PARAMS,
): number {
  const part = (list: readonly string[]) => {
    let all = 0;
    let hit = 0;
    for (const t of list) {
      const w = weigh(t);
      all += w;
      if (vocab.has(t)) hit += w;
    }
    return all ? hit / all : 0;
  };
  return p.wordShare * part(q.words) + (1 - p.wordShare) * part(q.chars);
}

/** The score of an item's questions: its best question's, raised by its second-best one's. */
export const questionsScore = (best: number, second: number, p: ScoreParams = SCORE_PARAMS): number =>
  best + p.secondShare * (1 - best) * second;

/** An item's score from its questions' and its coverage. */
export const itemScore = (best: number, cover: number, p: ScoreParams = SCORE_PARAMS): number =>
  best > 0 ? p.questionShare * best + (1 - p.questionShare) * cover : 0;

/** Single characters the full-text query looks up besides the words (the rarest). */
const CHAR_TERMS = 8;

/**
 * The terms the full-text query looks up: the question's words, rarest first (at most `max`), and its
 * rarest characters (a common character is in too many questions to propose candidates well and costs
 * a scan of them all; they still count in the scores); all characters when it has fewer than two words.
 */
export function queryTerms(q: Terms, weigh: Weigh, max: number): string[] {
  const rarest = (list: readonly string[]) =>
    [...list].sort((a, b) => weigh(b) - weigh(a) || (a < b ? -1 : a > b ? 1 : 0)).slice(0, max);
  const words = rarest(q.words);
  return words.length >= 2
    ? [...words, ...rarest(q.chars).slice(0, CHAR_TERMS)]
    : rarest([...words, ...q.chars]);
}
