import { defineConfig } from 'vitest/config';

/** Browser end-to-end tests: real server processes, real Chromium. One file at a time (2 cores). */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // One retry, as Playwright's CI default: a real fault fails twice; a box stalled by its neighbours once.
    retry: 1,
    // A loaded CI box can take seconds for a platform round trip and a refetch: 1 s (the default) flaked.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
