import { useRef, useState } from 'preact/hooks';
import type { LeaveMessageOffer } from '@kefu/protocol';
import type { WidgetConfig } from '../lib/config.js';
import { validateFields, shownValues, type FieldSpec, type Values, type Errors } from '../lib/forms.js';
import { t, type TextKey } from '../lib/i18n.js';
import { leaveMessage, type Credential } from '../chat/api.js';
import { Field, scrollToFirstError } from './Field.js';

const REASON: Record<LeaveMessageOffer['reason'], TextKey> = {
  noagent: 'leaveNoAgent',
  notinworktime: 'leaveNotInWorkTime',
  blacklist: 'leaveBlacklist',
};

export function leaveFields(config: WidgetConfig): FieldSpec[] {
  const f = config.leavemsg.fields;
  return [
    { name: 'name', kind: 'text', rule: f.name },
    { name: 'mobile', kind: 'phone', rule: f.mobile },
    { name: 'email', kind: 'email', rule: f.email },
    { name: 'content', kind: 'textarea', rule: f.content },
  ];
}

interface Props {
  config: WidgetConfig;
  offer: LeaveMessageOffer;
  credential: Credential;
  initial: Values;
  /** Present when the visitor may keep waiting in the queue instead. */
  onWait?: () => void;
  onDone: () => void;
}

/** The leave-message form the server offers when nobody can serve (noagent / notinworktime / blacklist). */
export function LeaveForm(props: Props) {
  const fields = leaveFields(props.config);
  const [values, setValues] = useState<Values>(props.initial);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState('');
  const ref = useRef<HTMLFormElement>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    const errs = validateFields(fields, values);
    setErrors(errs);
    if (Object.keys(errs).length)
      return scrollToFirstError(
        ref.current,
        errs,
        fields.map((f) => f.name),
      );
    setBusy(true);
    setFailure('');
    const v = shownValues(fields, values);
    const res = await leaveMessage(location.origin, props.credential, {
      name: v.name ?? '',
      mobile: v.mobile ?? '',
      email: v.email ?? '',
      content: v.content ?? '',
    });
    setBusy(false);
    if (res.ok) setDone(true);
    else setFailure(res.message);
  };

  if (done)
    return (
      <div class="kf-sheet" role="dialog" aria-modal="true" data-testid="leave-done">
        <div class="kf-sheet-body kf-done">
          <p>{t('leaveDone')}</p>
          <button type="button" class="kf-btn kf-btn-primary" onClick={props.onDone}>
            {t('close')}
          </button>
        </div>
      </div>
    );
  return (
    <div class="kf-sheet" role="dialog" aria-modal="true" aria-labelledby="kf-leave-title">
      <form class="kf-sheet-body kf-form" ref={ref} onSubmit={submit} noValidate data-testid="leave-form">
        <h2 id="kf-leave-title">{t('leaveTitle')}</h2>
        <p class="kf-hint">
          {props.config.leavemsg.message || props.offer.message || t(REASON[props.offer.reason])}
        </p>
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
        {failure && <div class="kf-err kf-err-block">{failure}</div>}
        <div class="kf-actions">
          {props.onWait && (
            <button type="button" class="kf-btn" onClick={props.onWait}>
              {t('keepWaiting')}
            </button>
          )}
          <button type="submit" class="kf-btn kf-btn-primary" disabled={busy}>
            {t('leaveSubmit')}
          </button>
        </div>
      </form>
    </div>
  );
}
