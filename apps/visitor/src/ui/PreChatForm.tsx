import { useRef, useState } from 'preact/hooks';
import type { WidgetConfig } from '../lib/config.js';
import { validateFields, shownValues, type FieldSpec, type Values, type Errors } from '../lib/forms.js';
import { t, type TextKey } from '../lib/i18n.js';
import { Field, scrollToFirstError } from './Field.js';

export function infoFields(config: WidgetConfig): FieldSpec[] {
  const f = config.information.fields;
  return [
    { name: 'name', kind: 'text', rule: f.name },
    { name: 'phone', kind: 'phone', rule: f.phone },
    { name: 'email', kind: 'email', rule: f.email },
    { name: 'question', kind: 'textarea', rule: f.question },
  ];
}

/** Information collection before the chat starts. */
export function PreChatForm(props: { config: WidgetConfig; initial: Values; onSubmit: (v: Values) => void }) {
  const fields = infoFields(props.config);
  const [values, setValues] = useState<Values>(props.initial);
  const [errors, setErrors] = useState<Errors>({});
  const ref = useRef<HTMLFormElement>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    const errs = validateFields(fields, values);
    setErrors(errs);
    if (Object.keys(errs).length)
      return scrollToFirstError(
        ref.current,
        errs,
        fields.map((f) => f.name),
      );
    props.onSubmit(shownValues(fields, values));
  };
  return (
    <form class="kf-form" ref={ref} onSubmit={submit} noValidate data-testid="prechat-form">
      <h2>{t('infoTitle')}</h2>
      {fields.map((f) => (
        <Field
          key={f.name}
          spec={f}
          label={t(f.name as TextKey)}
          values={values}
          errors={errors}
          onInput={(n, v) => {
            setValues({ ...values, [n]: v });
            if (errors[n]) setErrors({ ...errors, [n]: '' });
          }}
        />
      ))}
      <button type="submit" class="kf-btn kf-btn-primary kf-btn-block">
        {t('startNow')}
      </button>
    </form>
  );
}
