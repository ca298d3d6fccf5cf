import { describe, expect, it } from 'vitest';
import { dropRegion, pairsToResource, pickLanguage } from './language';

const list = [
  { language: 'zh', name: '简体中文' },
  { language: 'en', name: 'English' },
];

describe('pickLanguage', () => {
  it('prefers the url parameter l', () => {
    expect(pickLanguage({ urlParam: 'en', saved: 'zh', list })).toBe('en');
  });
  it('falls back to the saved language, then zh', () => {
    expect(pickLanguage({ urlParam: null, saved: 'en', list })).toBe('en');
    expect(pickLanguage({ list })).toBe('zh');
    expect(pickLanguage({})).toBe('zh');
  });
  it('drops the region suffix', () => {
    expect(pickLanguage({ urlParam: 'en-US', list })).toBe('en');
    expect(pickLanguage({ saved: 'zh_CN', list })).toBe('zh');
    expect(dropRegion('EN-gb')).toBe('en');
  });
  it('uses the first listed language when the list lacks it', () => {
    expect(pickLanguage({ urlParam: 'fr', list })).toBe('zh');
    expect(pickLanguage({ saved: 'ja', list: [{ language: 'en', name: 'English' }] })).toBe('en');
  });
  it('keeps the language when no list is known yet', () => {
    expect(pickLanguage({ urlParam: 'fr' })).toBe('fr');
  });
});

describe('pairsToResource', () => {
  it('turns name/text pairs into a flat map', () => {
    expect(pairsToResource([{ name: 'a.b', text: 'x' }])).toEqual({ 'a.b': 'x' });
  });
});
