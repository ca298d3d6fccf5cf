import type { FormInstance } from 'antd';
import { RequestError } from './request';

/** Server validation errors carry `fields` (path → message); show them on the fields and scroll there. */
export function applyFieldErrors<T>(form: FormInstance<T>, e: unknown): void {
  if (!(e instanceof RequestError) || !e.fields) return;
  const entries = Object.entries(e.fields);
  if (entries.length === 0) return;
  form.setFields(entries.map(([name, msg]) => ({ name: name as never, errors: [msg] })));
  form.scrollToField(entries[0][0] as never);
}
