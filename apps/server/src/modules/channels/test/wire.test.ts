import { describe, expect, it } from 'vitest';
import { splitText } from '../adapters/wechat-common.js';
import { WireError, buildXml, parseJsonExact, parseXml, xmlText } from '../wire.js';
import { BIG_MSGID } from './vectors.js';

describe('platform XML', () => {
  it('reads CDATA, plain values, nested elements and entities, and keeps 64-bit ids as strings', () => {
    const x = parseXml(
      `<?xml version="1.0"?>\n<xml><ToUserName><![CDATA[gh_1]]></ToUserName><CreateTime>1714112445</CreateTime>` +
        `<MsgId>${BIG_MSGID}</MsgId><Content><![CDATA[a ]]]]><![CDATA[> b]]></Content><T>x &amp; y &lt;z&gt;</T>` +
        `<ScanCodeInfo><ScanType><![CDATA[qrcode]]></ScanType></ScanCodeInfo><Empty/></xml>`,
    );
    expect(xmlText(x, 'ToUserName')).toBe('gh_1');
    expect(xmlText(x, 'MsgId')).toBe(BIG_MSGID);
    expect(xmlText(x, 'Content')).toBe('a ]]> b');
    expect(xmlText(x, 'T')).toBe('x & y <z>');
    expect(x.ScanCodeInfo).toEqual({ ScanType: 'qrcode' });
    expect(xmlText(x, 'Empty')).toBe('');
  });

  it.each([
    '<xml><ToUserName><![CDATA[gh_1]]></ToUserName><Encrypt><![CDATA[abc',
    '<xml><A>1</A>',
    '<xml><A>1</B></xml>',
    '',
    'not xml',
    '<xml><A>1</A></xml>trailing',
  ])('refuses truncated or malformed XML %#', (text) => {
    expect(() => parseXml(text)).toThrow(WireError);
  });

  it('builds CDATA XML that parses back', () => {
    const xml = buildXml({ Encrypt: 'a]]>b', TimeStamp: 1713424427 });
    expect(parseXml(xml)).toEqual({ Encrypt: 'a]]>b', TimeStamp: '1713424427' });
  });
});

describe('exact JSON', () => {
  it('keeps a 64-bit id exact that JSON.parse rounds', () => {
    const text = `{"msgid":${BIG_MSGID},"n":42,"f":1.5,"neg":-12345678901234567890,"s":"${BIG_MSGID}","e":1e21}`;
    expect(String((JSON.parse(text) as { msgid: number }).msgid)).not.toBe(BIG_MSGID);
    expect(parseJsonExact(text)).toEqual({
      msgid: BIG_MSGID,
      n: 42,
      f: 1.5,
      neg: '-12345678901234567890',
      s: BIG_MSGID,
      e: 1e21,
    });
  });

  it('leaves digits inside strings (with escapes) alone', () => {
    expect(parseJsonExact('{"a":"x\\"12345678901234567890","b":[1,2]}')).toEqual({
      a: 'x"12345678901234567890',
      b: [1, 2],
    });
  });

  it.each(['{"a":1', '{"a":', '', '{"a":1}}'])('refuses truncated JSON %#', (text) => {
    expect(() => parseJsonExact(text)).toThrow(WireError);
  });
});

describe('text parts', () => {
  it('splits by UTF-8 bytes at character boundaries (a 4-byte emoji is never cut); short texts stay whole', () => {
    expect(splitText('abc', 2048)).toEqual(['abc']);
    expect(splitText('', 2048)).toEqual(['']);
    const parts = splitText(`${'a'.repeat(5)}😀b`, 6);
    expect(parts).toEqual(['aaaaa', '😀b']);
    expect(splitText('退款退款', 6)).toEqual(['退款', '退款']);
  });
});
