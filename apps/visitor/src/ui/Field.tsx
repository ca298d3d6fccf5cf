import type { FieldSpec, Errors, Values } from '../lib/forms.js';

export interface FieldProps {
  spec: FieldSpec;
  label: string;
  values: Values;
  errors: Errors;
  onInput: (name: string, value: string) => void;
}

/** A labelled input with its validation message (text is rendered as text, never as HTML). */
export function Field({ spec, label, values, errors, onInput }: FieldProps) {
  if (!spec.rule.show) return null;
  const id = `kf-f-${spec.name}`;
  const err = errors[spec.name];
  const common = {
    id,
    name: spec.name,
    value: values[spec.name] ?? '',
    'aria-invalid': err ? true : undefined,
    onInput: (e: Event) => onInput(spec.name, (e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class={`kf-field${err ? ' kf-field-error' : ''}`} data-field={spec.name}>
      <label for={id}>
        {spec.rule.required && <span class="kf-req">*</span>}
        {label}
      </label>
      {spec.kind === 'textarea' ? (
        <textarea {...common} rows={3} maxLength={500} />
      ) : (
        <input
          {...common}
          type={spec.kind === 'phone' ? 'tel' : spec.kind === 'email' ? 'email' : 'text'}
          list={undefined}
          inputMode={spec.kind === 'phone' ? 'numeric' : undefined}
          maxLength={spec.kind === 'email' ? 128 : 64}
          autoComplete={spec.kind === 'phone' ? 'tel' : spec.kind === 'email' ? 'email' : 'name'}
        />
      )}
      {err && <div class="kf-err">{err}</div>}
    </div>
  );
}

/** Scrolls the first field with an error into view (spec: on a failed submit). */
export function scrollToFirstError(form: HTMLElement | null, errors: Errors, order: string[]): void {
  const first = order.find((n) => errors[n]);
  if (!first || !form) return;
  const el = form.querySelector<HTMLElement>(`[data-field="${first}"]`);
  el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  el?.querySelector<HTMLElement>('input,textarea')?.focus();
}
