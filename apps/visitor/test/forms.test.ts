import { describe, expect, it } from 'vitest';
import { validateFields, shownValues, type FieldSpec } from '../src/lib/forms.js';
import { setLang } from '../src/lib/i18n.js';

const fields = (required: boolean, show = true): FieldSpec[] => [
  { name: 'name', kind: 'text', rule: { show, required } },
  { name: 'phone', kind: 'phone', rule: { show, required } },
  { name: 'email', kind: 'email', rule: { show, required } },
  { name: 'question', kind: 'textarea', rule: { show, required } },
];

describe('pre-chat / leave-message validation', () => {
  it('required fields use the protocol message', () => {
    expect(validateFields(fields(true), { name: '  ' })).toEqual({
      name: '必填项不能为空',
      phone: '必填项不能为空',
      email: '必填项不能为空',
      question: '必填项不能为空',
    });
  });

  it('phone and email formats use their exact messages, also when optional', () => {
    expect(validateFields(fields(false), { phone: '12345', email: 'a@b' })).toEqual({
      phone: '手机格式错误',
      email: '邮箱格式错误',
    });
    expect(validateFields(fields(false), { phone: '11012345678' }).phone).toBe('手机格式错误');
  });

  it('valid and empty optional values pass; hidden fields are ignored', () => {
    expect(validateFields(fields(false), {})).toEqual({});
    expect(
      validateFields(fields(true), { name: '张三', phone: '13800138000', email: 'a@b.cn', question: '?' }),
    ).toEqual({});
    expect(validateFields(fields(true, false), {})).toEqual({});
  });

  it('keeps trimmed values of shown fields only', () => {
    const f = fields(false);
    f[2].rule = { show: false, required: false };
    expect(shownValues(f, { name: ' 李四 ', email: 'x@y.cn', phone: '' })).toEqual({
      name: '李四',
      phone: '',
      question: '',
    });
  });
});

describe('validation texts in the widget language', () => {
  it('English with ?l=en, Chinese otherwise', () => {
    expect(validateFields(fields(true), { phone: '1', email: 'x' }, 'en')).toEqual({
      name: 'This field is required',
      phone: 'Invalid mobile number',
      email: 'Invalid email address',
      question: 'This field is required',
    });
    expect(validateFields(fields(false), { phone: '1' }, 'zh')).toEqual({ phone: '手机格式错误' });
  });

  it('follows the language set for the page', () => {
    setLang('en');
    try {
      expect(validateFields(fields(false), { email: 'bad@' })).toEqual({ email: 'Invalid email address' });
    } finally {
      setLang('zh');
    }
    expect(validateFields(fields(false), { email: 'bad@' })).toEqual({ email: '邮箱格式错误' });
  });
});
