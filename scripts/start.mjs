// `npm start` on a fresh clone: check Node, install, build what is stale (console, visitor widget, server),
// then run the compiled server with plain node. The server prints where to go and how to log in, last.
// Ctrl-C or SIGTERM (to npm or to this script) stops the server and then this script; if this script dies
// anyway, the server notices (its IPC channel closes) and stops too.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, SERVER_ENTRY } from './build-server.mjs';

// package.json "engines": ^20.19.0 || >=22.12.0 (vite 8 and require(esm) need 20.19).
const [major, minor] = process.versions.node.split('.').map(Number);
if (!((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23)) {
  console.error(
    `kefu needs Node.js 20.19 or newer within 20.x, or 22.12 or newer; this is ${process.version}.\n` +
      'Install a supported version (https://nodejs.org) and run npm start again.',
  );
  process.exit(1);
}

const root = new URL('..', import.meta.url).pathname;

/** Runs a step with its output held back; shown only when the step fails. */
function step(label, cmd, args) {
  console.log(`kefu: ${label}…`);
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    console.error(`kefu: ${label} failed`);
    process.exit(r.status ?? 1);
  }
}

const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules/.package-lock.json');
if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs)
  step('installing dependencies', 'npm', ['ci', '--no-audit', '--no-fund']);

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
  if (stale) step(`building ${app}`, 'npm', ['run', 'build', '-w', app]);
}
await buildServer();

const server = spawn(process.execPath, [SERVER_ENTRY], {
  cwd: root,
  // Its own process group: a Ctrl-C reaches it once, through us, not twice (which would mean "stop now").
  detached: true,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: process.env,
});
let signalled = false;
const stop = (sig) => {
  // A second Ctrl-C means "now".
  if (signalled) server.kill('SIGKILL');
  else server.kill(sig);
  signalled = true;
};
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, () => stop(sig === 'SIGHUP' ? 'SIGTERM' : sig));
// npm does not pass a SIGTERM on to its script (its shell dies, we are left behind): when our parent goes
// away, stop as if told to.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  stop('SIGTERM');
}, 200);
server.on('exit', (code, sig) => process.exit(code ?? (sig ? 1 : 0)));
