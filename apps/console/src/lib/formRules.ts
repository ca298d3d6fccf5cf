import type { FormRule } from 'antd';
import { FIELD_ERROR_MESSAGES, validate, VALIDATION_TEXTS } from '@kefu/protocol';

/**
 * antd Form rules wrapping the shared validators of spec section 5. In Chinese the messages are
 * exactly the validators'; in English their translations from the error catalogue.
 */
const EN: Record<string, string> = {
  [VALIDATION_TEXTS.required]: FIELD_ERROR_MESSAGES.required.en,
  [VALIDATION_TEXTS.phone]: FIELD_ERROR_MESSAGES.phone_format.en,
  [VALIDATION_TEXTS.email]: FIELD_ERROR_MESSAGES.email_format.en,
  [VALIDATION_TEXTS.ip]: FIELD_ERROR_MESSAGES.ip_format.en,
};

const rule =
  (check: (v: unknown) => string | null, lang: string): FormRule =>
  () => ({
    validator(_, value: unknown) {
      const err = check(value);
      if (!err) return Promise.resolve();
      return Promise.reject(new Error(lang.startsWith('en') ? (EN[err] ?? err) : err));
    },
  });

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

const make = (lang: string) => ({
  required: rule((v) => validate.required(Array.isArray(v) && v.length === 0 ? '' : v), lang),
  phone: rule((v) => validate.phone(str(v)), lang),
  email: rule((v) => validate.email(str(v)), lang),
  ip: rule((v) => validate.ip(str(v)), lang),
});

/** Rules per UI language; `rules.requiredText` serves forms that are not antd Forms (login). */
export const rules = Object.assign(make, {
  requiredText: (lang: string): string =>
    lang.startsWith('en') ? FIELD_ERROR_MESSAGES.required.en : VALIDATION_TEXTS.required,
});
