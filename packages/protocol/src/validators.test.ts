import { describe, expect, it } from 'vitest';
import {
  isEmailList,
  isIp,
  isPhone,
  validate,
  validationTexts,
  validatorsFor,
  VALIDATION_TEXTS,
  VALIDATION_TEXTS_EN,
} from './validators.js';
import { formatFileSize, networkQuality } from './constants.js';
import { ALL_PERMISSION_CODES, hasPermission, monitorScope } from './permissions.js';

describe('shared validators (spec section 5)', () => {
  it('required rejects empty and whitespace-only values', () => {
    expect(validate.required('')).toBe(VALIDATION_TEXTS.required);
    expect(validate.required('   ')).toBe('必填项不能为空');
    expect(validate.required(undefined, 'custom')).toBe('custom');
    expect(validate.required('x')).toBeNull();
  });
  it('phone is 11 digits starting 1[2-9]', () => {
    expect(isPhone('13800138000')).toBe(true);
    expect(isPhone('11800138000')).toBe(false);
    expect(isPhone('1380013800')).toBe(false);
    expect(validate.phone('12')).toBe('手机格式错误');
  });
  it('email accepts a comma-separated list, empty when optional', () => {
    expect(isEmailList('a@b.cn,c@d.com')).toBe(true);
    expect(isEmailList('a@b.cn, bad')).toBe(false);
    expect(isEmailList('', true)).toBe(true);
    expect(isEmailList('', false)).toBe(false);
    expect(validate.email('x@')).toBe('邮箱格式错误');
  });
  it('ip accepts v4 and v6', () => {
    expect(isIp('192.168.1.1')).toBe(true);
    expect(isIp('256.1.1.1')).toBe(false);
    expect(isIp('::1')).toBe(true);
    expect(isIp('2001:db8::8a2e:370:7334')).toBe(true);
    expect(validate.ip('1.2.3')).toBe('请输入正确的IP地址');
  });
  it('English texts for every key; the Chinese default is unchanged', () => {
    expect(Object.keys(VALIDATION_TEXTS_EN).sort()).toEqual(Object.keys(VALIDATION_TEXTS).sort());
    expect(VALIDATION_TEXTS).toEqual({
      required: '必填项不能为空',
      phone: '手机格式错误',
      email: '邮箱格式错误',
      ip: '请输入正确的IP地址',
    });
    expect(validationTexts()).toBe(VALIDATION_TEXTS);
    expect(validationTexts('en')).toBe(VALIDATION_TEXTS_EN);
    const en = validatorsFor('en');
    expect(en.required(' ')).toBe('This field is required');
    expect(en.required('', 'custom')).toBe('custom');
    expect(en.phone('12')).toBe('Invalid mobile number');
    expect(en.email('x@')).toBe('Invalid email address');
    expect(en.email('', false)).toBe('Invalid email address');
    expect(en.ip('1.2.3')).toBe('Please enter a valid IP address');
    expect([en.required('x'), en.phone(''), en.email('a@b.cn'), en.ip('::1')]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    const zh = validatorsFor('zh');
    expect([zh.required(''), zh.phone('1'), zh.email('x'), zh.ip('x')]).toEqual(
      Object.values(VALIDATION_TEXTS),
    );
  });
});

describe('constants', () => {
  it('file size display switches units and caps at 1TB', () => {
    expect(formatFileSize(512 * 1024)).toBe('512.00KB');
    expect(formatFileSize(3 * 1024 * 1024)).toBe('3.00MB');
    expect(formatFileSize(2 * 1024 ** 3)).toBe('2.00GB');
    expect(formatFileSize(1024 ** 4)).toBe('file exceeds 1TB');
  });
  it('network quality by RTT', () => {
    expect([120, 121, 2000, 5000, 5001].map(networkQuality)).toEqual([1, 2, 2, 3, 4]);
  });
});

describe('permission codes', () => {
  it('holds every family of the spec and third-level codes', () => {
    for (const c of [
      'A01',
      'A02',
      'A03',
      'A04',
      'A05',
      'A06',
      'A09',
      'A11',
      'A09_A03_A10',
      'A06_A04_A01',
      'A09_A03_A13',
    ])
      expect(ALL_PERMISSION_CODES).toContain(c);
    expect(new Set(ALL_PERMISSION_CODES).size).toBe(ALL_PERMISSION_CODES.length);
  });
  it('usertype 0 sees all; either-of-two codes', () => {
    expect(hasPermission('0', {}, 'A09')).toBe(true);
    expect(hasPermission('1', {}, 'A09')).toBe(false);
    expect(hasPermission('1', { A09_A03_A13: true }, ['A09_A02_A01', 'A09_A03_A13'])).toBe(true);
  });
  it('monitor scope', () => {
    expect(monitorScope({ A03_A01: true }, false)).toBe('all');
    expect(monitorScope({ A03_A02: true }, false)).toBe('organ');
    expect(monitorScope({ A03_A02: true }, true)).toBe('all');
    expect(monitorScope({}, false)).toBe('none');
  });
});
