/**
 * Sensitive words (setup A09_A03_A06) and the built-in personal-data masking rules. The word lists are
 * matched server side (normalised text, see apps/server/src/modules/sensitive); the masking rules run
 * wherever text is shown or exported, so they live here for the console and the server alike.
 */

/** Permission code of the sensitive-word setup screen and calls. */
export const SENSITIVE_CODE = 'A09_A03_A06';
/** Who sees the hit list: supervisors (monitor) and quality inspectors; either code suffices. */
export const SENSITIVE_HITS_CODES = ['A03', 'A11'] as const;
/** The composer's check of a draft: anyone who chats. */
export const SENSITIVE_CHECK_CODE = 'A01';

/** The two lists: words agents may not send, words visitors may not send (spec `sensitive agent|user`). */
export const SENSITIVE_KINDS = ['agent', 'user'] as const;
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];

/**
 * mask: the word is stored and shown as ＊; block: the message is refused with the words as reason;
 * alert: delivered, and flagged for supervisors and quality inspection.
 */
export const SENSITIVE_ACTIONS = ['mask', 'block', 'alert'] as const;
export type SensitiveAction = (typeof SENSITIVE_ACTIONS)[number];

/** Longest word, in characters. */
export const SENSITIVE_WORD_MAX = 50;
/** Most words one batch add takes (one per line). */
export const SENSITIVE_BATCH_MAX = 20_000;
/** How long the composer waits after the last keystroke before asking the server to check the draft. */
export const SENSITIVE_CHECK_DEBOUNCE_MS = 300;

export interface SensitiveWordDto {
  id: string;
  kind: SensitiveKind;
  word: string;
  action: SensitiveAction;
  creater: string;
  createtime: number;
  updatetime: number;
}

/** A batch add: the words added, the ones already in the list (or repeated in the batch), the invalid ones. */
export interface SensitiveBatchResult {
  added: number;
  duplicates: string[];
  invalid: Array<{ word: string; key: string }>;
}

/** What the agent's draft would hit (POST /api/sensitive/check); action null: nothing. */
export interface SensitiveCheckResult {
  action: SensitiveAction | null;
  block: string[];
  mask: string[];
  alert: string[];
  /** The draft as it would be stored (mask words replaced). */
  text: string;
}

/** A message that hit words, for supervisors and quality inspection. */
export interface SensitiveHitDto {
  id: string;
  agentserviceid: string;
  /** '' when the message was blocked (never stored). */
  messageid: string;
  side: SensitiveKind;
  action: SensitiveAction;
  words: string[];
  createtime: number;
}

/** Built-in masking rules for personal data, switched on per tenant. */
export const PII_RULES = ['phone', 'idcard', 'bankcard'] as const;
export type PiiRule = (typeof PII_RULES)[number];
export type PiiRules = Record<PiiRule, boolean>;
export const PII_RULES_DEFAULT: PiiRules = { phone: false, idcard: false, bankcard: false };

const ID_CARD =
  /(?<![0-9A-Za-z])\d{6}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![0-9A-Za-z])/g;
const BANK_CARD = /(?<![0-9A-Za-z])\d(?:[ -]?\d){14,18}(?![0-9A-Za-z])/g;
const PHONE = /(?<!\d)1[3-9]\d{9}(?!\d)/g;

/** Luhn check: card numbers pass it, most other 16–19 digit strings (order numbers) do not. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const isDigit = (ch: string): boolean => (ch >= '0' && ch <= '9') || ch === 'X' || ch === 'x';

/** Keeps the first `head` and last `tail` digits (an ID card's X counts), the others become '*'. */
function keepEnds(s: string, head: number, tail: number): string {
  let total = 0;
  for (const ch of s) if (isDigit(ch)) total++;
  let seen = 0;
  let out = '';
  for (const ch of s) {
    if (!isDigit(ch)) out += ch;
    else out += seen++ < head || seen > total - tail ? ch : '*';
  }
  return out;
}

/**
 * Masks personal data in a text by the tenant's rules: mainland mobile numbers (138****5678), ID card
 * numbers (110101********123X) and bank card numbers that pass the Luhn check (6222 **** **** 1234).
 */
export function maskPii(text: string, rules: PiiRules): string {
  if (!text || (!rules.phone && !rules.idcard && !rules.bankcard)) return text;
  let out = text;
  if (rules.idcard) out = out.replace(ID_CARD, (m) => keepEnds(m, 6, 4));
  if (rules.bankcard)
    out = out.replace(BANK_CARD, (m) => {
      const digits = m.replace(/\D/g, '');
      return digits.length >= 16 && luhn(digits) ? keepEnds(m, 4, 4) : m;
    });
  if (rules.phone) out = out.replace(PHONE, (m) => keepEnds(m, 3, 4));
  return out;
}
