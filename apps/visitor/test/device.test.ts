import { describe, expect, it } from 'vitest';
import { describeAgent, isMobile } from '../src/lib/device.js';
import { parseRoute, pageUrl } from '../src/lib/route.js';
import { pickLang } from '../src/lib/i18n.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe('device and route', () => {
  it('detects phones by user agent or a narrow viewport', () => {
    expect(isMobile(IPHONE, 1024)).toBe(true);
    expect(isMobile(DESKTOP, 1440)).toBe(false);
    expect(isMobile(DESKTOP, 375)).toBe(true);
    expect(isMobile('Mozilla/5.0 (Linux; Android 14) MicroMessenger', 1200)).toBe(true);
  });

  it('names OS and browser', () => {
    expect(describeAgent(IPHONE)).toEqual({ osname: 'iOS', browser: 'Safari' });
    expect(describeAgent(DESKTOP)).toEqual({ osname: 'Windows', browser: 'Chrome' });
  });

  it('routes /visitor pages, defaulting to text', () => {
    expect(parseRoute('/visitor', '?appid=demo')).toMatchObject({ page: 'text', appid: 'demo' });
    expect(parseRoute('/visitor/mobile/', '?appid=demo&skill=g1')).toMatchObject({
      page: 'mobile',
      skill: 'g1',
    });
    expect(parseRoute('/visitor/unknown', '')).toMatchObject({ page: 'text', appid: '' });
    expect(parseRoute('/visitor/mini', '?appid=a&origin=https://x.cn&traceid=t').embedOrigin).toBe(
      'https://x.cn',
    );
    expect(pageUrl('pc', '?appid=demo&l=en', { skill: 'g' })).toBe('/visitor/pc?appid=demo&l=en&skill=g');
  });

  it('language: ?l= first, then the browser, Chinese by default', () => {
    expect(pickLang('?l=en', 'zh-CN')).toBe('en');
    expect(pickLang('', 'en-US')).toBe('en');
    expect(pickLang('', 'fr-FR')).toBe('zh');
    expect(pickLang('?l=zh', 'en-US')).toBe('zh');
  });
});
