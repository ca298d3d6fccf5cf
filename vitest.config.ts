import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit + integration projects. The server project runs once per dialect (see scripts/test.sh:
 * TEST_PG_URL switches the harness to PostgreSQL). Browser e2e has its own config in e2e/.
 */
export default defineConfig({
  test: {
    // Vitest's default (cores − 1) is one worker on a 2-core CI box, which left a core idle while a
    // test waited on its database: two at least (KEFU_TEST_WORKERS overrides). Test files stay isolated
    // (own process, own databases, own Redis: apps/server/test/setup-redis.ts).
    maxWorkers: Number(process.env.KEFU_TEST_WORKERS) || Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'protocol', include: ['packages/protocol/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          environment: 'node',
          // Migrates one template database per run; each test's database is a copy (test/harness.ts).
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Files run in parallel workers: each gets its own Redis when the run has one.
          setupFiles: ['apps/server/test/setup-redis.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: './apps/console/vite.config.ts',
        test: {
          name: 'console',
          include: ['src/**/*.test.{ts,tsx}'] /* relative to root */,
          environment: './test/jsdom-environment.ts',
          root: './apps/console',
        },
      },
      // jsdom lives under apps/console/node_modules; the console's small environment loads it from there.
      {
        test: {
          name: 'visitor',
          include: ['apps/visitor/**/*.test.{ts,tsx}'],
          environment: './apps/console/test/jsdom-environment.ts',
        },
      },
    ],
  },
});
