/**
 * B7: what browsers download. Widget loader and chat bundle (gzip) vs absolute targets and vs
 * socket.io-client's own min bundle measured now; the console's first-load JS for the login route.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './lib/child.js';
import type { Mode, Row, Skip } from './lib/report.js';

const gz = (file: string): number => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

function jsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsFiles(p));
    else if (/\.m?js$/.test(name)) out.push(p);
  }
  return out;
}

/** Static imports of an emitted ESM chunk (`import "./x.js"`, `from "./x.js"`); dynamic `import()` is lazy. */
function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+\.js)["']/g))
    out.push(join(file, '..', m[1]));
  return out;
}

function closure(starts: string[]): string[] {
  const seen = new Set<string>();
  const todo = [...starts];
  while (todo.length) {
    const f = todo.pop() as string;
    if (seen.has(f) || !existsSync(f)) continue;
    seen.add(f);
    todo.push(...staticImports(f));
  }
  return [...seen];
}

function build(workspace: string, mode: Mode, log: (s: string) => void): boolean {
  if (mode.smoke) return false;
  log(`  building ${workspace} (dist missing)`);
  try {
    execFileSync('npm', ['run', 'build', '-w', workspace], { cwd: ROOT, stdio: 'ignore', timeout: 180_000 });
    return true;
  } catch {
    return false;
  }
}

export async function sizes(mode: Mode, log: (s: string) => void): Promise<Row[] | Skip> {
  const rows: Row[] = [];
  const sio = join(ROOT, 'node_modules/socket.io-client/dist/socket.io.min.js');
  const sioKb = gz(sio);
  const vdist = join(ROOT, 'apps/visitor/dist');
  if (existsSync(join(vdist, 'loader.js')) || build('apps/visitor', mode, log)) {
    const loader = join(vdist, 'loader.js');
    if (existsSync(loader)) {
      const loaderKb = gz(loader);
      const chat = jsFiles(vdist).filter((f) => f !== loader);
      const chatKb = chat.reduce((n, f) => n + gz(f), 0);
      log(
        `  widget: loader ${loaderKb.toFixed(1)} KB, chat ${chatKb.toFixed(1)} KB (${chat.map((f) => relative(vdist, f)).join(', ')}), socket.io.min.js ${sioKb.toFixed(1)} KB`,
      );
      rows.push(
        {
          id: 'B7',
          metric: 'widget loader.js gzip',
          unit: 'KB',
          baseline: null,
          ours: loaderKb,
          ratio: null,
          target: '≤ 10 KB',
          holds: loaderKb <= 10,
        },
        {
          id: 'B7',
          metric: 'widget chat bundle gzip',
          unit: 'KB',
          baseline: null,
          ours: chatKb,
          ratio: null,
          target: '≤ 55 KB',
          holds: chatKb <= 55,
        },
        {
          id: 'B7',
          metric: 'whole widget (loader + chat) vs socket.io.min.js gzip',
          unit: 'KB',
          baseline: sioKb,
          ours: loaderKb + chatKb,
          ratio: (loaderKb + chatKb) / sioKb,
          target: '≤ 4×',
          holds: (loaderKb + chatKb) / sioKb <= 4,
        },
      );
    } else
      rows.push({
        id: 'B7',
        metric: 'widget loader.js',
        unit: '',
        baseline: null,
        ours: Number.NaN,
        ratio: null,
        target: 'exists',
        holds: false,
        note: 'apps/visitor/dist/loader.js missing after build',
      });
  } else log('  widget: apps/visitor/dist missing (smoke does not build; run `npm run build`)');

  const cdist = join(ROOT, 'apps/console/dist');
  const index = join(cdist, 'index.html');
  if (existsSync(index) || build('apps/console', mode, log)) {
    const html = readFileSync(index, 'utf8');
    const refs = [
      ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/?([^"]+\.js)"/g),
    ].map((m) => join(cdist, m[1]));
    // The login route's lazy chunks (screen + auth layout) and everything they import statically.
    const assets = join(cdist, 'assets');
    const lazy = existsSync(assets)
      ? readdirSync(assets)
          .filter((f) => /^(LoginScreen|AuthLayout)-.*\.js$/.test(f))
          .map((f) => join(assets, f))
      : [];
    const files = closure([...refs, ...lazy]);
    const kb = files.reduce((n, f) => n + gz(f), 0);
    log(`  console login route: ${files.length} JS files, ${kb.toFixed(1)} KB gzip`);
    rows.push({
      id: 'B7',
      metric: `console first-load JS gzip, login route (${files.length} files)`,
      unit: 'KB',
      baseline: null,
      ours: kb,
      ratio: null,
      target: '≤ 250 KB',
      holds: kb <= 250,
    });
  } else log('  console: apps/console/dist missing');
  rows.push({
    id: 'B7',
    metric: 'socket.io-client socket.io.min.js gzip (reference)',
    unit: 'KB',
    baseline: null,
    ours: sioKb,
    ratio: null,
    target: '–',
    holds: null,
  });
  return rows;
}
