// Builds the server to one JavaScript file, apps/server/dist/main.mjs, run with plain `node` (no TypeScript
// loader at run time). Our code, the workspace package @kefu/protocol and the pure-ESM packages in
// BUNDLED are bundled; every other package from node_modules stays an import (native addons and packages
// that read their own files resolve as usual). Rebuilds only when a source is newer than the output.
// `node scripts/build-server.mjs [--force]`.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = join(ROOT, 'apps/server/dist/main.mjs');
const SOURCES = ['apps/server/src', 'packages/protocol/src'];
// A change to these changes the output too (dependency versions, this script).
const INPUT_FILES = ['package-lock.json', 'scripts/build-server.mjs'];

/**
 * ESM packages of hundreds of small files, with no native code and no files of their own read at run time:
 * loading them file by file cost ≈ 130 ms of a start's ≈ 930 ms CPU (measured alternately, 5 starts each).
 */
const BUNDLED = /^(@kefu\/|kysely(\/|$)|zod(\/|$))/;

const isSource = (name, dir) =>
  /\.(ts|mts|js|mjs|json)$/.test(name) && !/\.test\.ts$/.test(name) && !/\/test(\/|$)/.test(dir);

function newestInput() {
  let newest = 0;
  for (const f of INPUT_FILES) newest = Math.max(newest, statSync(join(ROOT, f)).mtimeMs);
  for (const src of SOURCES)
    for (const e of readdirSync(join(ROOT, src), { withFileTypes: true, recursive: true }))
      if (e.isFile() && isSource(e.name, e.parentPath))
        newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  return newest;
}

export function serverBuildIsStale() {
  return !existsSync(SERVER_ENTRY) || newestInput() > statSync(SERVER_ENTRY).mtimeMs;
}

/** Builds when stale (or forced); returns whether it built. Safe to run from several processes at once. */
export async function buildServer({ force = false, quiet = false } = {}) {
  if (!force && !serverBuildIsStale()) return false;
  const { build } = await import('esbuild');
  const t0 = Date.now();
  const result = await build({
    entryPoints: [join(ROOT, 'apps/server/src/main.ts')],
    outfile: SERVER_ENTRY,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'warning',
    absWorkingDir: ROOT,
    alias: { '@kefu/protocol': './packages/protocol/src/index.ts' },
    plugins: [
      {
        name: 'node-modules-external',
        setup(b) {
          // Other bare imports load from node_modules at run time.
          b.onResolve({ filter: /^[^./]/ }, (a) =>
            BUNDLED.test(a.path) ? undefined : { path: a.path, external: true },
          );
        },
      },
    ],
  });
  mkdirSync(dirname(SERVER_ENTRY), { recursive: true });
  // Each file is written beside its target, then renamed: a process starting meanwhile (or another build)
  // never reads half a file. The map goes first, so the code never points at an older map.
  const files = [...result.outputFiles].sort((a) => (a.path.endsWith('.map') ? -1 : 1));
  for (const f of files) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
  if (!quiet) console.log(`kefu: server built in ${Date.now() - t0} ms (apps/server/dist/main.mjs)`);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer({ force: process.argv.includes('--force') });
}
