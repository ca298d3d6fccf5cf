/** Shared form validators of spec section 5, used by console forms and server schemas alike. */
export const VALIDATION_TEXTS = {
  required: '必填项不能为空',
  phone: '手机格式错误',
  email: '邮箱格式错误',
  ip: '请输入正确的IP地址',
} as const;

/** The same texts in English (the visitor widget with `?l=en`); the Chinese ones above stay the default. */
export const VALIDATION_TEXTS_EN: Record<keyof typeof VALIDATION_TEXTS, string> = {
  required: 'This field is required',
  phone: 'Invalid mobile number',
  email: 'Invalid email address',
  ip: 'Please enter a valid IP address',
};

export type ValidationLang = 'zh' | 'en';

/** The validation texts of `lang` (Chinese unless 'en'). */
export const validationTexts = (
  lang: ValidationLang = 'zh',
): Record<keyof typeof VALIDATION_TEXTS, string> => (lang === 'en' ? VALIDATION_TEXTS_EN : VALIDATION_TEXTS);

export const PHONE_RE = /^1[2-9]\d{9}$/;
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_RE =
  /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|(([0-9a-fA-F]{1,4}:){0,7}[0-9a-fA-F]{0,4})?::(([0-9a-fA-F]{1,4}:){0,7}[0-9a-fA-F]{0,4})?)$/;

export const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' ? v.trim() === '' : false);

export const isPhone = (v: string): boolean => PHONE_RE.test(v);

/** A comma-separated list of addresses; empty passes only when optional. */
export function isEmailList(v: string, optional = true): boolean {
  if (v.trim() === '') return optional;
  return v.split(',').every((part) => EMAIL_RE.test(part.trim()));
}

export const isIp = (v: string): boolean => IPV4_RE.test(v) || IPV6_RE.test(v);

/** Validators answering in `lang`: each returns the error text, or null when valid. */
export function validatorsFor(lang: ValidationLang = 'zh') {
  const texts = validationTexts(lang);
  return {
    required: (v: unknown, message: string = texts.required) => (isBlank(v) ? message : null),
    phone: (v: string) => (isBlank(v) || isPhone(v) ? null : texts.phone),
    email: (v: string, optional = true) => (isEmailList(v ?? '', optional) ? null : texts.email),
    ip: (v: string) => (isBlank(v) || isIp(v) ? null : texts.ip),
  };
}

/** Returns the error text (Chinese, as the console shows it), or null when valid. */
export const validate = validatorsFor('zh');
