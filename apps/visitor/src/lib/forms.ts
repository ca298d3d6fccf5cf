import { validatorsFor } from '@kefu/protocol';
import type { FieldRule } from './config.js';
import { lang, type Lang } from './i18n.js';

/** Which validator applies to a field beyond "required". */
export type FieldKind = 'text' | 'phone' | 'email' | 'textarea';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  rule: FieldRule;
}

export type Values = Record<string, string>;
export type Errors = Record<string, string>;

/**
 * Validates shown fields with the protocol validators and their exact messages, in the widget's language
 * (English with `?l=en`, else Chinese); hidden fields pass.
 */
export function validateFields(fields: FieldSpec[], values: Values, language: Lang = lang()): Errors {
  const validate = validatorsFor(language);
  const errors: Errors = {};
  for (const f of fields) {
    if (!f.rule.show) continue;
    const v = (values[f.name] ?? '').trim();
    const err =
      (f.rule.required ? validate.required(v) : null) ??
      (f.kind === 'phone' ? validate.phone(v) : null) ??
      (f.kind === 'email' ? validate.email(v, !f.rule.required) : null);
    if (err) errors[f.name] = err;
  }
  return errors;
}

/** Trimmed values of the shown fields only. */
export function shownValues(fields: FieldSpec[], values: Values): Values {
  const out: Values = {};
  for (const f of fields) if (f.rule.show) out[f.name] = (values[f.name] ?? '').trim();
  return out;
}
