// Gzip size of the JS a route loads first: the entry, its static imports, and the route's screen
// chunk with its static imports. Usage: node scripts/route-size.mjs LoginScreen
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const assets = join(dist, 'assets');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)[1];
const screens = process.argv.slice(2);
const start = [
  entry,
  ...screens.map((s) => readdirSync(assets).find((f) => f.startsWith(`${s}-`) && f.endsWith('.js'))),
];
const seen = new Set();
const walk = (f) => {
  if (!f || seen.has(f)) return;
  seen.add(f);
  const src = readFileSync(join(assets, f), 'utf8');
  // static imports only: `import … from "./x.js"` and bare `import "./x.js"`
  for (const m of src.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g))
    walk(m[1]);
};
start.forEach(walk);
let total = 0;
if (process.env.VERBOSE)
  for (const f of seen) console.log(f, (gzipSync(readFileSync(join(assets, f))).length / 1024).toFixed(1));
for (const f of seen) total += gzipSync(readFileSync(join(assets, f))).length;
console.log(`${[...seen].length} files, ${(total / 1024).toFixed(1)} KB gzip`);
