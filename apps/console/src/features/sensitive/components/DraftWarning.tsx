import { useEffect, useState } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { SENSITIVE_CHECK_DEBOUNCE_MS, type SensitiveCheckResult } from '@kefu/protocol';
import { sensitiveApi } from '../api';

export interface DraftCheck extends SensitiveCheckResult {
  /** The draft this result is for. */
  draft: string;
}

/**
 * Asks the server what the agent's draft would hit in the agent list, a moment after typing stops. The
 * result is for the draft it names: a newer draft is unchecked until its own answer comes.
 */
export function useDraftCheck(draft: string, enabled: boolean): DraftCheck | null {
  const [result, setResult] = useState<DraftCheck | null>(null);
  useEffect(() => {
    if (!enabled || !draft.trim()) {
      setResult(null);
      return;
    }
    const ac = new AbortController();
    const timer = setTimeout(() => {
      sensitiveApi
        .check(draft, ac.signal)
        .then((r) => setResult({ ...r, draft }))
        .catch(() => undefined);
    }, SENSITIVE_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ac.abort();
    };
  }, [draft, enabled]);
  return result && result.draft === draft ? result : null;
}

/** What the draft would hit: block (it will not be sent), mask (shown as ＊) or alert (supervisors told). */
export function DraftWarning({ check }: { check: DraftCheck | null }) {
  const { t } = useTranslation();
  if (!check?.action) return null;
  const words = (l: string[]) => l.join('、');
  const lines = [
    check.block.length ? t('sw.warn.block', { words: words(check.block) }) : '',
    check.mask.length ? t('sw.warn.mask', { words: words(check.mask) }) : '',
    check.alert.length ? t('sw.warn.alert', { words: words(check.alert) }) : '',
  ].filter(Boolean);
  return (
    <Alert
      type={check.block.length ? 'error' : 'warning'}
      showIcon
      banner
      data-testid="composer-sensitive"
      data-action={check.action}
      message={lines.map((l) => (
        <div key={l}>{l}</div>
      ))}
      style={{ margin: '4px 0' }}
    />
  );
}
