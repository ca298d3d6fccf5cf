import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useSaving } from './saving';

afterEach(cleanup);

describe('useSaving', () => {
  it('is saving while the action runs, and not after it resolves', async () => {
    const { result } = renderHook(() => useSaving());
    let finish!: () => void;
    let done!: Promise<void>;
    act(() => {
      done = result.current.run(() => new Promise<void>((r) => (finish = r)));
    });
    expect(result.current.saving).toBe(true);
    await act(async () => {
      finish();
      await done;
    });
    expect(result.current.saving).toBe(false);
  });

  it('ends a failed action quietly (the request layer toasted it) and stops saving', async () => {
    const { result } = renderHook(() => useSaving());
    let after = false;
    await act(async () => {
      await result.current.run(async () => {
        throw new Error('refused');
      });
      after = true;
    });
    expect(after).toBe(true);
    expect(result.current.saving).toBe(false);
  });
});
