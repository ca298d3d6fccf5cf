import { Mint } from 'mint-filter';
import type { SensitiveAction } from '@kefu/protocol';
import { DROP, MULTI, normCode, normMulti } from './normalize.js';

/** A list word as the matcher needs it; `norm` and `pinyin` are computed once when the word is saved. */
export interface MatchWord {
  word: string;
  norm: string;
  pinyin: readonly string[];
  action: SensitiveAction;
}

/** What a message hit, by action; `text` is the message with its mask hits replaced by ＊. */
export interface Hits {
  action: SensitiveAction;
  text: string;
  block: string[];
  mask: string[];
  alert: string[];
}

export const MASK_CHAR = '＊';
const RANK: Record<SensitiveAction, number> = { alert: 1, mask: 2, block: 3 };

/** mint-filter's trie node. */
interface MintNode {
  children: Record<string, MintNode>;
  fail?: MintNode;
  depth: number;
}

// Normalised position → index in the original text, reused by every scan (one message at a time).
let origAt = new Int32Array(64 * 1024);

/**
 * One Aho-Corasick automaton over every word's normalised form and its pinyin forms. mint-filter builds the
 * trie and its fail links; they are then laid out in typed arrays (root transitions in a 64K table, other
 * nodes' children as sorted code lists) because the walk runs on every message: mint-filter's own search
 * allocates per character and reports only the longest key at each position. A scan is one walk over the
 * normalised message: Chinese text meets the Chinese forms, latin letters meet the pinyin forms
 * (daikaifapiao). Chinese characters are not read as pinyin, so homophones in Chinese text (带开发漂) and
 * a word split across scripts (代开fa票) are not matched: read that way, a list of thousands of short
 * words hits ordinary sentences. A message that hits nothing costs two array reads per character.
 */
export class Matcher {
  readonly size: number;
  private readonly rootNext = new Int32Array(0x10000);
  private readonly childStart: Int32Array;
  private readonly childCount: Int32Array;
  private readonly childCode: Uint16Array;
  private readonly childNode: Int32Array;
  private readonly fail: Int32Array;
  private readonly depth: Int32Array;
  /** This node if a key ends here, else the nearest such node on its fail chain; -1: none. */
  private readonly hit: Int32Array;
  /** The next key-ending node on the fail chain after a key-ending node (keys ending inside it); -1: none. */
  private readonly more: Int32Array;
  private readonly words: Array<MatchWord[] | undefined>;

  constructor(list: readonly MatchWord[]) {
    const keys = new Map<string, MatchWord[]>();
    const add = (key: string, w: MatchWord) => {
      if (!key) return;
      const l = keys.get(key);
      if (l) l.push(w);
      else keys.set(key, [w]);
    };
    for (const w of list) {
      add(w.norm, w);
      for (const p of w.pinyin) {
        add(p, w);
      }
    }
    this.size = list.length;
    const root = new Mint([...keys.keys()]).root as unknown as MintNode;

    // Breadth-first ids: a node's fail target is shallower, so it is numbered (and linked) first.
    const nodes: MintNode[] = [root];
    const ids = new Map<MintNode, number>([[root, 0]]);
    let edges = 0;
    for (let i = 0; i < nodes.length; i++) {
      for (const k in nodes[i]!.children) {
        const c = nodes[i]!.children[k]!;
        ids.set(c, nodes.length);
        nodes.push(c);
        edges++;
      }
    }
    const n = nodes.length;
    this.childStart = new Int32Array(n);
    this.childCount = new Int32Array(n);
    this.childCode = new Uint16Array(edges);
    this.childNode = new Int32Array(edges);
    this.fail = new Int32Array(n);
    this.depth = new Int32Array(n);
    this.hit = new Int32Array(n).fill(-1);
    this.more = new Int32Array(n).fill(-1);
    this.words = new Array<MatchWord[] | undefined>(n);
    let e = 0;
    for (let i = 0; i < n; i++) {
      const node = nodes[i]!;
      this.depth[i] = node.depth;
      this.fail[i] = node.fail ? ids.get(node.fail)! : 0;
      const kids = Object.keys(node.children).sort((a, b) => a.charCodeAt(0) - b.charCodeAt(0));
      this.childStart[i] = e;
      this.childCount[i] = kids.length;
      for (const k of kids) {
        this.childCode[e] = k.charCodeAt(0);
        this.childNode[e++] = ids.get(node.children[k]!)!;
        if (i === 0) this.rootNext[k.charCodeAt(0)] = ids.get(node.children[k]!)!;
      }
    }
    for (const [key, ws] of keys) {
      let at = 0;
      for (let i = 0; i < key.length; i++) at = this.child(at, key.charCodeAt(i));
      this.words[at] = ws;
    }
    for (let i = 1; i < n; i++) {
      const viaFail = this.hit[this.fail[i]!]!;
      this.hit[i] = this.words[i] ? i : viaFail;
      if (this.words[i]) this.more[i] = viaFail;
    }
  }

  /** The child of `node` along `code`, or -1. */
  private child(node: number, code: number): number {
    const s = this.childStart[node]!;
    const cnt = this.childCount[node]!;
    const codes = this.childCode;
    if (cnt <= 8) {
      for (let k = s; k < s + cnt; k++) if (codes[k] === code) return this.childNode[k]!;
      return -1;
    }
    let lo = s;
    let hi = s + cnt - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = codes[mid]!;
      if (c === code) return this.childNode[mid]!;
      if (c < code) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The automaton's move from `node` on `code` (following fail links). */
  private step(node: number, code: number): number {
    const fail = this.fail;
    for (let at = node; at !== 0; at = fail[at]!) {
      const c = this.child(at, code);
      if (c >= 0) return c;
    }
    return this.rootNext[code]!;
  }

  /** The hits of a message, or null when it hits nothing (the common case: nothing allocated). */
  scan(text: string): Hits | null {
    const len = text.length;
    if (origAt.length < len * 8) origAt = new Int32Array(len * 8);
    const at = origAt;
    const hit = this.hit;
    const rootNext = this.rootNext;
    let found: Found[] | null = null;
    let node = 0;
    let pos = 0;
    for (let i = 0; i < len; i++) {
      const code = text.charCodeAt(i);
      const v = normCode(code);
      if (v === DROP) continue;
      if (v !== MULTI) {
        at[pos++] = i;
        node = node === 0 ? rootNext[v]! : this.step(node, v);
        if (hit[node]! >= 0) found = this.record(found, node, pos, i);
        continue;
      }
      const m = normMulti(code);
      for (let j = 0; j < m.length; j++) {
        at[pos++] = i;
        node = this.step(node, m.charCodeAt(j));
        if (hit[node]! >= 0) found = this.record(found, node, pos, i);
      }
    }
    return found ? collect(text, found) : null;
  }

  /** Every key ending at this position (the node's and those on its fail chain), with where each starts. */
  private record(found: Found[] | null, node: number, pos: number, end: number): Found[] {
    const out = found ?? [];
    for (let h = this.hit[node]!; h >= 0; h = this.more[h]!)
      out.push({ words: this.words[h]!, start: origAt[pos - this.depth[h]!]!, end });
    return out;
  }
}

interface Found {
  words: MatchWord[];
  /** First and last index in the original text. */
  start: number;
  end: number;
}

function collect(text: string, found: Found[]): Hits {
  const seen = new Set<MatchWord>();
  const out: Hits = { action: 'alert', text, block: [], mask: [], alert: [] };
  const ranges: Array<[number, number]> = [];
  for (const { words, start, end } of found) {
    let masks = false;
    for (const w of words) {
      if (w.action === 'mask') masks = true;
      if (seen.has(w)) continue;
      seen.add(w);
      out[w.action].push(w.word);
      if (RANK[w.action] > RANK[out.action]) out.action = w.action;
    }
    if (masks) ranges.push([start, end]);
  }
  if (ranges.length) out.text = mask(text, ranges);
  return out;
}

/** Replaces, inside each range, every character that took part in matching (spaces and symbols stay). */
function mask(text: string, ranges: Array<[number, number]>): string {
  const chars = text.split('');
  for (const [a, b] of ranges)
    for (let i = a; i <= b; i++) if (normCode(text.charCodeAt(i)) !== DROP) chars[i] = MASK_CHAR;
  return chars.join('');
}
