import { describe, expect, it } from 'vitest';
import { dateOfDay, dayOfDate, dayStart, localParts, splitByDay, weekdayOf } from '../zone.js';
import { referrerOf, regionOf, userAgentOf } from '../visit-info.js';
import { responseTimes } from '../facts.js';

describe('zone', () => {
  it('buckets in the tenant zone, with DST days of 23 and 25 hours and half-hour zones', () => {
    const ny = 'America/New_York';
    expect(dateOfDay(localParts(Date.UTC(2026, 2, 8, 4, 59), ny).day)).toBe('2026-03-07');
    expect(dateOfDay(localParts(Date.UTC(2026, 2, 8, 5, 0), ny).day)).toBe('2026-03-08');
    const d = dayOfDate('2026-03-08');
    expect(dayStart(d + 1, ny) - dayStart(d, ny)).toBe(23 * 3_600_000);
    const n = dayOfDate('2026-11-01');
    expect(dayStart(n + 1, ny) - dayStart(n, ny)).toBe(25 * 3_600_000);
    expect(localParts(Date.UTC(2026, 0, 1, 18, 30), 'Asia/Kolkata')).toEqual({
      day: dayOfDate('2026-01-02'),
      hour: 0,
    });
    expect(weekdayOf(dayOfDate('2026-11-23'))).toBe(1);
    expect(weekdayOf(dayOfDate('2026-11-29'))).toBe(7);
    const parts: Array<[string, number]> = [];
    splitByDay(Date.UTC(2026, 0, 1, 15), Date.UTC(2026, 0, 2, 17), 'Asia/Shanghai', (day, ms) =>
      parts.push([dateOfDay(day), ms / 3_600_000]),
    );
    expect(parts).toEqual([
      ['2026-01-01', 1],
      ['2026-01-02', 24],
      ['2026-01-03', 1],
    ]);
  });
});

describe('visit info', () => {
  it('parses search engines and keywords from referrers, regions offline, browsers and devices', () => {
    expect(referrerOf('https://www.baidu.com/s?ie=utf-8&wd=%E5%AE%A2%E6%9C%8D')).toEqual({
      source: 'www.baidu.com',
      engine: 'baidu',
      keyword: '客服',
    });
    expect(referrerOf('https://m.baidu.com/s?word=abc')).toMatchObject({ engine: 'baidu', keyword: 'abc' });
    expect(referrerOf('https://www.google.co.jp/')).toEqual({
      source: 'www.google.co.jp',
      engine: 'google',
      keyword: '',
    });
    expect(referrerOf('https://www.sogou.com/web?query=a++b')).toMatchObject({
      engine: 'sogou',
      keyword: 'a b',
    });
    expect(referrerOf('https://notbaidu.com.evil.org/?wd=x')).toMatchObject({ engine: '' });
    expect(referrerOf('not a url')).toEqual({ source: '', engine: '', keyword: '' });
    expect(regionOf('120.24.78.68')).toEqual({ country: '中国', province: '广东省', city: '深圳市' });
    expect(regionOf('::ffff:120.24.78.68')).toMatchObject({ province: '广东省' });
    expect(regionOf('192.168.1.2')).toEqual({ country: '', province: '', city: '' });
    expect(
      userAgentOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.40(0x1800282a) NetType/WIFI',
      ),
    ).toMatchObject({ browser: 'WeChat', os: 'iOS', device: 'mobile' });
    expect(userAgentOf('')).toMatchObject({ browser: '', os: '', device: '' });
  });
});

describe('response times', () => {
  it('wait from the assignment for queued lines; each reply closes one wait; replies without a wait count only as first response', () => {
    const L = (t: number, reply = false) => ({ createtime: t, reply });
    expect(responseTimes([L(0), L(5), L(30, true), L(40, true), L(50), L(60), L(90, true)], 10)).toEqual({
      firstresp_n: 1,
      firstresp_ms: 20,
      resp_n: 2,
      resp_ms: 20 + 40,
    });
    expect(responseTimes([L(0)], null)).toEqual({ firstresp_n: 0, firstresp_ms: 0, resp_n: 0, resp_ms: 0 });
  });
});
