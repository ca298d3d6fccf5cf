import { describe, expect, it } from 'vitest';
import { parseRichText, richTextPlain } from './rich-text.js';

describe('answer rich text', () => {
  it('parses lines, bold, links and images; unsafe URLs and HTML stay text', () => {
    expect(
      parseRichText(
        '在**我的订单**中申请。\n详见[说明](https://example.com/r)\n![图](https://cdn.example.com/a.png)',
      ),
    ).toEqual([
      { t: 'text', v: '在' },
      { t: 'b', v: '我的订单' },
      { t: 'text', v: '中申请。' },
      { t: 'br' },
      { t: 'text', v: '详见' },
      { t: 'a', v: '说明', href: 'https://example.com/r' },
      { t: 'br' },
      { t: 'img', alt: '图', src: 'https://cdn.example.com/a.png' },
    ]);
    expect(parseRichText('[x](javascript:alert(1))').some((n) => n.t === 'a')).toBe(false);
    expect(parseRichText('![x](/res/image.html?id=1)').some((n) => n.t === 'img')).toBe(false);
    const evil = parseRichText(
      '<img src=x onerror=alert(1)> [a](data:text/html,x) ![b](http://ok.example/b.png)',
    );
    expect(evil.filter((n) => n.t === 'a')).toEqual([]);
    expect(evil.some((n) => n.t === 'text' && n.v.includes('<img src=x'))).toBe(true);
    expect(evil.find((n) => n.t === 'img')).toEqual({ t: 'img', alt: 'b', src: 'http://ok.example/b.png' });
  });

  it('plain text keeps link texts and image alts', () => {
    expect(richTextPlain('点**这里**看[说明](https://x.cn)\n![流程图](https://x.cn/a.png)')).toBe(
      '点这里看说明\n[流程图]',
    );
  });
});
