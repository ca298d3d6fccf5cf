// `npm start` on a fresh clone: install, build the console and visitor bundles when stale,
// then run the server (which migrates, seeds and prints the URLs and how to log in).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules/.package-lock.json');
if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
  console.log('kefu: installing dependencies…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && !e.parentPath.includes('node_modules') && !e.parentPath.includes('/dist'))
      newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}
for (const app of ['apps/console', 'apps/visitor']) {
  const dist = join(root, app, 'dist/index.html');
  const stale =
    !existsSync(dist) ||
    Math.max(newestMtime(join(root, app, 'src')), newestMtime(join(root, 'packages/protocol/src'))) >
      statSync(dist).mtimeMs;
  if (stale) {
    console.log(`kefu: building ${app}…`);
    run('npm', ['run', 'build', '-w', app]);
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
const stop = (sig) => server.kill(sig);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => process.exit(code ?? 0));
