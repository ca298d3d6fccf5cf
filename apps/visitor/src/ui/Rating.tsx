import { useState } from 'preact/hooks';
import type { WidgetConfig } from '../lib/config.js';
import { t } from '../lib/i18n.js';
import { rate, type Credential } from '../chat/api.js';

interface Props {
  config: WidgetConfig;
  agentserviceid: string;
  message: string;
  agentName: string;
  credential: Credential;
  onClose: (rated: boolean) => void;
}

/** Satisfaction: a level, an optional opinion item and comment. */
export function Rating(props: Props) {
  const s = props.config.satisfaction;
  const [level, setLevel] = useState('');
  const [items, setItems] = useState<string[]>([]);
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!level) return setError(t('rateChoose'));
    setBusy(true);
    const res = await rate(location.origin, props.credential, {
      agentserviceid: props.agentserviceid,
      level: Number(level),
      opinions: items,
      comment: comment.trim(),
    });
    setBusy(false);
    if (!res.ok) return setError(res.message);
    setDone(true);
    setTimeout(() => props.onClose(true), 1500);
  };

  return (
    <div class="kf-sheet" role="dialog" aria-modal="true" aria-labelledby="kf-rate-title">
      {done ? (
        <div class="kf-sheet-body kf-done" data-testid="rate-done">
          <p>{t('rateDone')}</p>
        </div>
      ) : (
        <form class="kf-sheet-body kf-form" onSubmit={submit} data-testid="rating-form">
          <h2 id="kf-rate-title">
            {props.message || s.text.replace(/\{agent\}/g, props.agentName) || t('rateTitle')}
          </h2>
          <div class="kf-chips" role="radiogroup">
            {s.levels.map((l) => (
              <button
                type="button"
                key={l.value}
                role="radio"
                aria-checked={level === l.value}
                class={`kf-chip${level === l.value ? ' kf-chip-on' : ''}`}
                onClick={() => {
                  setLevel(l.value);
                  setError('');
                }}
              >
                {l.label}
              </button>
            ))}
          </div>
          {s.items.length > 0 && level !== '' && level !== s.levels[0]?.value && (
            <div class="kf-chips kf-chips-small">
              {s.items.map((i) => (
                <button
                  type="button"
                  key={i.value}
                  aria-pressed={items.includes(i.value)}
                  class={`kf-chip${items.includes(i.value) ? ' kf-chip-on' : ''}`}
                  onClick={() =>
                    setItems(
                      items.includes(i.value) ? items.filter((x) => x !== i.value) : [...items, i.value],
                    )
                  }
                >
                  {i.label}
                </button>
              ))}
            </div>
          )}
          {s.comment && (
            <textarea
              class="kf-textarea"
              rows={3}
              maxLength={255}
              placeholder={t('rateComment')}
              value={comment}
              onInput={(e) => setComment(e.currentTarget.value)}
            />
          )}
          {error && <div class="kf-err kf-err-block">{error}</div>}
          <div class="kf-actions">
            <button type="button" class="kf-btn" onClick={() => props.onClose(false)}>
              {t('rateLater')}
            </button>
            <button type="submit" class="kf-btn kf-btn-primary" disabled={busy}>
              {t('rateSubmit')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
