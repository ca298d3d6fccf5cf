// Prints raw and gzip sizes of the embed loader and the chat bundle (run after `vite build`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const size = (files) => {
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const b = readFileSync(f);
    raw += b.length;
    gz += gzipSync(b, { level: 9 }).length;
  }
  return { raw, gz };
};
const assets = readdirSync(join(dist, 'assets')).map((f) => join(dist, 'assets', f));
const rows = [
  ['loader (dist/loader.js)', size([join(dist, 'loader.js')]), 10 * 1024],
  ['chat JS (Preact + socket.io-client + app)', size(assets.filter((f) => f.endsWith('.js'))), 55 * 1024],
  ['chat CSS', size(assets.filter((f) => f.endsWith('.css'))), Infinity],
];
let over = false;
for (const [name, s, limit] of rows) {
  const flag = s.gz > limit ? '  OVER BUDGET' : '';
  over ||= s.gz > limit;
  console.log(`${name.padEnd(44)} ${kb(s.raw).padStart(9)}  gzip ${kb(s.gz).padStart(8)}${flag}`);
}
if (over) process.exitCode = 1;
