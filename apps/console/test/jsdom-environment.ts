import type { Environment } from 'vitest/runtime';
import { populateGlobal } from 'vitest/runtime';
import { JSDOM } from 'jsdom';

/**
 * npm placed jsdom under apps/console/node_modules, where vitest's built-in 'jsdom' environment
 * (resolving from the root node_modules) cannot find it. This minimal environment imports it from
 * here instead. Node's fetch/Response/AbortController stay in place, as in vitest's own; matchMedia is
 * stubbed (jsdom lacks it).
 */
const env: Environment = {
  name: 'console-jsdom',
  viteEnvironment: 'client',
  setup(global) {
    const dom = new JSDOM('<!DOCTYPE html>', { url: 'http://localhost:3000', pretendToBeVisual: true });
    const keep = [
      'fetch',
      'Response',
      'Request',
      'Headers',
      'AbortController',
      'AbortSignal',
      'URL',
      'URLSearchParams',
    ];
    const saved = new Map(keep.map((k) => [k, (global as Record<string, unknown>)[k]]));
    const { keys, originals } = populateGlobal(global, dom.window, { bindFunctions: true });
    for (const [k, v] of saved) if (v !== undefined) (global as Record<string, unknown>)[k] = v;
    // antd reads matchMedia for responsive props; jsdom has none. Nothing ever matches here.
    (global as { matchMedia?: unknown }).matchMedia ??= (q: string) => ({
      matches: false,
      media: q,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    });
    // antd's TextArea and selects observe their size; jsdom lays nothing out, so nothing ever resizes.
    (global as { ResizeObserver?: unknown }).ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
    return {
      teardown(g) {
        dom.window.close();
        keys.forEach((key) => delete (g as Record<string, unknown>)[key]);
        originals.forEach((v, k) => ((g as Record<string | symbol, unknown>)[k] = v));
      },
    };
  },
};
export default env;
