import { describe, expect, it } from 'vitest';
import {
  baseLanguage,
  meetsPolicy,
  passwordClasses,
  passwordStrength,
  translationApplies,
} from './compliance.js';
import { isCidr, translateConfigSaveSchema } from './schemas/compliance.js';
import { maskPii } from './sensitive.js';

describe('password policy helpers', () => {
  it('classes, strength and the policy check', () => {
    expect(passwordClasses('abc')).toBe(1);
    expect(passwordClasses('Abc1!')).toBe(4);
    expect(passwordStrength('')).toBe(0);
    expect(passwordStrength('aaaaaaaaaa')).toBe(0);
    expect(passwordStrength('abcdefgh')).toBe(1);
    expect(passwordStrength('abcdefgh12')).toBe(2);
    expect(passwordStrength('Abc12345!xyz')).toBe(4);
    expect(meetsPolicy('abcdefgh12', { minLength: 10, classes: 2 })).toBe(true);
    expect(meetsPolicy('abcdefgh12', { minLength: 10, classes: 3 })).toBe(false);
    expect(meetsPolicy('Abcdefg12', { minLength: 10, classes: 3 })).toBe(false);
  });

  it('CIDR entries of the allow-list', () => {
    for (const ok of ['10.0.0.1', '192.168.0.0/16', '0.0.0.0/0', '2001:db8::/32', '::1'])
      expect(isCidr(ok), ok).toBe(true);
    for (const bad of ['10.0.0.256', '10.0.0.0/33', '2001:db8::/129', 'host', '1.2.3.4/8/1', '1::2::3', ''])
      expect(isCidr(bad), bad).toBe(false);
  });
});

describe('personal-data masking', () => {
  const all = { phone: true, idcard: true, bankcard: true };
  it('masks mobile numbers, ID cards and Luhn-valid card numbers by the rules switched on', () => {
    const text = '电话13812345678，身份证11010519491231002X，卡4111 1111 1111 1111，单号1234567890123456';
    expect(maskPii(text, all)).toBe(
      '电话138****5678，身份证110105********002X，卡4111 **** **** 1111，单号1234567890123456',
    );
    expect(maskPii(text, { phone: true, idcard: false, bankcard: false })).toBe(
      '电话138****5678，身份证11010519491231002X，卡4111 1111 1111 1111，单号1234567890123456',
    );
    expect(maskPii(text, { phone: false, idcard: false, bankcard: false })).toBe(text);
    // Digits around a mobile number: not a mobile number.
    expect(maskPii('编号913812345678', all)).toBe('编号913812345678');
  });
});

describe('message translation rule (spec section 5)', () => {
  const text = { calltype: 'in', type: 'message', msgtype: 'text' };
  const on = { visitorLang: 'en-US', agentLang: 'zh', msgtranslate: true, monitor: false };
  it('applies only to an incoming text of a visitor in another language, flag on, not the monitor', () => {
    expect(baseLanguage(' zh_CN ')).toBe('zh');
    expect(translationApplies(text, on)).toBe(true);
    expect(translationApplies({ ...text, calltype: 'out' }, on)).toBe(false);
    expect(translationApplies({ ...text, msgtype: 'image' }, on)).toBe(false);
    expect(translationApplies({ ...text, type: 'system' }, on)).toBe(false);
    expect(translationApplies(text, { ...on, monitor: true })).toBe(false);
    expect(translationApplies(text, { ...on, msgtranslate: false })).toBe(false);
    expect(translationApplies(text, { ...on, visitorLang: 'zh-TW' })).toBe(false);
    expect(translationApplies(text, { ...on, visitorLang: '' })).toBe(false);
  });

  it('the provider form: a URL for a provider, a model for OpenAI, a bounded timeout', () => {
    const bad = (v: unknown) => translateConfigSaveSchema.safeParse(v).error?.issues.map((i) => i.message);
    expect(bad({ provider: 'none' })).toBeUndefined();
    expect(bad({ provider: 'libre' })).toEqual(['required']);
    expect(bad({ provider: 'openai', url: 'http://x/v1' })).toEqual(['required']);
    expect(bad({ provider: 'libre', url: 'http://x', timeoutMs: 999 })).toEqual(['invalid_field']);
  });
});
