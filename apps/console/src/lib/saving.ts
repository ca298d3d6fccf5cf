import { useState } from 'react';

/**
 * The state of a submit: `saving` while an action run through `run` is in flight. A failed request was
 * already toasted by the request layer, so the failure ends here (a dialog stays open with what was typed).
 */
export function useSaving(): { saving: boolean; run: (action: () => Promise<void>) => Promise<void> } {
  const [saving, setSaving] = useState(false);
  const run = async (action: () => Promise<void>): Promise<void> => {
    setSaving(true);
    try {
      await action();
    } catch {
      // toasted by the request layer
    } finally {
      setSaving(false);
    }
  };
  return { saving, run };
}
