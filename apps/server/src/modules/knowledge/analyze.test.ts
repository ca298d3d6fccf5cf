import { describe, expect, it } from 'vitest';
import { lookups } from './synonyms.service.js';
import { countTerms, questionsScore, scoreQuestion, termsOf, weightOf } from './analyze.js';

describe('retrieval scoring (analyze.ts)', () => {
  it("an item's second matching question raises its score, never past 1; without one the best question's score stands", () => {
    expect(questionsScore(0.6, 0)).toBe(0.6);
    expect(questionsScore(0.6, 0.5)).toBeGreaterThan(0.6);
    expect(questionsScore(0.6, 0.5)).toBeGreaterThan(questionsScore(0.6, 0.2));
    expect(questionsScore(1, 1)).toBe(1);
    expect(questionsScore(0.9, 0.9)).toBeLessThan(1);
  });

  it('built-in vocabulary: 退钱 and refund fold to 退款, 帐号 scores like 账号; particles such as 咋 are no terms', () => {
    const { map } = lookups([]);
    const stored = ['退款多久到账', '账号怎么注销', '发票怎么开'].map((q) => termsOf(q, map));
    const f = countTerms(stored);
    const score = (q: string, i: number) => scoreQuestion(termsOf(q, map), stored[i]!, (t) => weightOf(t, f));
    expect(termsOf('refund多久到账', map).words).toContain('退款');
    expect(termsOf('退钱多久到账', map).words).toContain('退款');
    expect(score('帐号怎么注销', 1)).toBe(score('账号怎么注销', 1));
    const t = termsOf('发票咋开', map);
    expect([...t.words, ...t.chars]).not.toContain('咋');
  });
});
