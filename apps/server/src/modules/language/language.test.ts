import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@kefu/protocol';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { call } from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Texts = { language: string; list: { name: string; text: string }[] };

describe('GET /api/language (public)', () => {
  it('drops the region suffix', async () => {
    const r = await call<Texts>(t.app, null, 'GET', '/api/language?l=en-US');
    expect(r.status).toBe(200);
    expect(r.body.data.language).toBe('en');
    const en = LANGUAGES.find((l) => l.language === 'en')!;
    expect(r.body.data.list).toHaveLength(Object.keys(en.texts).length);
    expect(r.body.data.list[0]).toEqual({ name: Object.keys(en.texts)[0], text: Object.values(en.texts)[0] });
    expect((await call<Texts>(t.app, null, 'GET', '/api/language?l=zh_CN')).body.data.language).toBe('zh');
  });
  it('falls back to the first listed language for an unknown one, and to zh without l', async () => {
    expect((await call<Texts>(t.app, null, 'GET', '/api/language?l=fr-FR')).body.data.language).toBe(
      LANGUAGES[0].language,
    );
    expect((await call<Texts>(t.app, null, 'GET', '/api/language')).body.data.language).toBe('zh');
  });
  it('lists languages', async () => {
    const r = await call(t.app, null, 'GET', '/api/language/languageList');
    expect(r.body.data).toEqual(LANGUAGES.map((l) => ({ language: l.language, name: l.name })));
  });
});
