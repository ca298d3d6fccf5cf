// Runs tsc --noEmit on every workspace that has sources; exits non-zero on the first failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const projects = ['packages/protocol', 'apps/server', 'apps/console', 'apps/visitor', 'e2e', 'bench'];
let failed = false;
for (const p of projects) {
  const hasTs = (dir) =>
    existsSync(dir) &&
    readdirSync(dir, { withFileTypes: true, recursive: true }).some(
      (e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes('node_modules'),
    );
  if (!hasTs(p)) continue;
  const r = spawnSync('npx', ['tsc', '-p', `${p}/tsconfig.json`], { stdio: 'inherit' });
  console.log(`typecheck ${p}: ${r.status === 0 ? 'ok' : 'FAILED'}`);
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
