import { describe, expect, it } from 'vitest';
import type { SensitiveAction } from '@kefu/protocol';
import { Matcher, type MatchWord } from './matcher.js';
import { normalize, pinyinForms } from './normalize.js';

const w = (word: string, action: SensitiveAction = 'mask'): MatchWord => {
  const norm = normalize(word);
  return { word, norm, pinyin: pinyinForms(norm), action };
};

describe('normalisation', () => {
  it('drops spaces, punctuation, symbols and emoji; folds case, full width and traditional characters', () => {
    expect(normalize('代 开-发.票!')).toBe('代开发票');
    expect(normalize('代開發票')).toBe('代开发票');
    expect(normalize('ＢＡＤ Ｗｏｒｄ１')).toBe('badword1');
    expect(normalize('赌😀博\u200b')).toBe('赌博');
    expect(normalize('!!! ，。')).toBe('');
  });

  it('pinyin forms: in context and per character; none for short or non-Chinese words', () => {
    expect(pinyinForms('代开发票')).toEqual(['daikaifapiao']);
    expect(pinyinForms('银行卡套现')).toEqual(['yinhangkataoxian', 'yinxingkataoxian']);
    expect(pinyinForms('赌博')).toEqual([]);
    expect(pinyinForms('badword')).toEqual([]);
  });
});

describe('matcher', () => {
  const m = new Matcher([
    w('代开发票', 'mask'),
    w('赌博', 'block'),
    w('开发', 'alert'),
    w('bad word', 'alert'),
  ]);

  it('catches 代 开 发 票, 代開發票 and daikaifapiao', () => {
    expect(m.scan('请帮我代 开 发 票')).toMatchObject({
      action: 'mask',
      mask: ['代开发票'],
      text: '请帮我＊ ＊ ＊ ＊',
    });
    expect(m.scan('代開發票')?.text).toBe('＊＊＊＊');
    expect(m.scan('要 daikaifapiao 吗')?.text).toBe('要 ＊＊＊＊＊＊＊＊＊＊＊＊ 吗');
    // Chinese characters are not read as pinyin: no homophones, no words split across scripts.
    expect(m.scan('能带开发漂吗')?.mask ?? []).toEqual([]);
    expect(m.scan('能代开fa票吗')?.mask ?? []).toEqual([]);
  });

  it('reports every word, also one ending inside another (output links), and the strongest action', () => {
    const h = m.scan('代开发票');
    expect(h?.mask).toEqual(['代开发票']);
    expect(h?.alert).toEqual(['开发']);
    expect(m.scan('开发代开发票赌博')?.action).toBe('block');
    // A word that is a suffix of a longer key on the current path (mint-filter's own search misses it).
    const nested = new Matcher([w('代开发票很多', 'alert'), w('发票', 'block')]);
    expect(nested.scan('代开发票')?.block).toEqual(['发票']);
  });

  it('alert words are reported without changing the text; no hit is null', () => {
    expect(m.scan('a BAD-word here')).toEqual({
      action: 'alert',
      text: 'a BAD-word here',
      block: [],
      mask: [],
      alert: ['bad word'],
    });
    expect(m.scan('正常的咨询内容，没有问题')).toBeNull();
    expect(new Matcher([]).scan('代开发票')).toBeNull();
  });

  it('pinyin of short words does not fire inside ordinary latin text', () => {
    expect(m.scan('the dubois family')).toBeNull();
  });
});
