import type { FormInstance } from 'antd';
import { RequestError } from '../../../lib/request';
import { applyFieldErrors } from '../../../lib/formErrors';
import { i18n } from '../../../lib/i18n';

/** Server `fields` carry error keys ('group_bound'); show their texts on the form fields. */
export function showFieldErrors<T>(form: FormInstance<T>, e: unknown): void {
  if (!(e instanceof RequestError) || !e.fields) return;
  const fields = Object.fromEntries(
    Object.entries(e.fields).map(([name, key]) => [
      name,
      i18n.exists(`error.${key}`) ? i18n.t(`error.${key}`) : key,
    ]),
  );
  applyFieldErrors(form, new RequestError(e.message, { code: e.code, key: e.key, fields }));
}
