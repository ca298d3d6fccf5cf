import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The oldest Node.js the project supports (package.json engines: ^20.19.0 || >=22.12.0). */
const OLDEST: [number, number, number] = [20, 19, 0];
const ROOT = resolve(import.meta.dirname, '../../..');

const version = (v: string): [number, number, number] => {
  const [a = 0, b = 0, c = 0] = v
    .replace(/^v/, '')
    .split('.')
    .map((x) => Number.parseInt(x, 10) || 0);
  return [a, b, c];
};
const cmp = (x: number[], y: number[]) => x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;

/** Whether one `||` alternative of an engines range admits `v` (the forms npm packages use). */
function admits(range: string, v: [number, number, number]): boolean {
  return range
    .trim()
    .split(/\s+(?=[<>^~=])|\s+-\s+/)
    .filter(Boolean)
    .every((part) => {
      const m = /^(>=|>|<=|<|\^|~|=)?\s*v?([\d.x*]+)$/.exec(part.replace(/\s+/g, ''));
      if (!m) return true; // a form not used by any installed package: not judged here
      const [op = '=', raw] = [m[1], m[2]!];
      const w = version(raw.replace(/[x*]/g, '0'));
      const parts = raw.split('.').filter((p) => p !== 'x' && p !== '*').length;
      if (parts === 0) return true; // "*", "x": any version
      if (op === '>=') return cmp(v, w) >= 0;
      if (op === '>') return cmp(v, w) > 0;
      if (op === '<') return cmp(v, w) < 0;
      if (op === '<=') return cmp(v, w) <= 0;
      if (op === '^') return v[0] === w[0] && cmp(v, w) >= 0;
      if (op === '~') return v[0] === w[0] && v[1] === w[1] && cmp(v, w) >= 0;
      // "20", "20.x": that major (and minor)
      return v[0] === w[0] && (parts < 2 || v[1] === w[1]) && (parts < 3 || v[2] === w[2]);
    });
}
const supports = (engines: string, v: [number, number, number]) =>
  engines.split('||').some((r) => admits(r, v));

function installedEngines(): Array<{ name: string; node: string }> {
  const out: Array<{ name: string; node: string }> = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.name.startsWith('@')) {
        walk(p);
        continue;
      }
      if (e.isSymbolicLink()) continue; // our workspaces
      const pj = join(p, 'package.json');
      if (existsSync(pj)) {
        const j = JSON.parse(readFileSync(pj, 'utf8')) as { name?: string; engines?: { node?: string } };
        if (typeof j.engines?.node === 'string') out.push({ name: `${j.name}@${p}`, node: j.engines.node });
      }
      walk(join(p, 'node_modules'));
    }
  };
  walk(join(ROOT, 'node_modules'));
  for (const w of ['apps/server', 'apps/console', 'apps/visitor', 'packages/protocol', 'e2e', 'bench'])
    walk(join(ROOT, w, 'node_modules'));
  return out;
}

describe('supported Node.js versions', () => {
  it('the range check reads the forms packages use', () => {
    expect(supports('>=22', OLDEST)).toBe(false);
    expect(supports('^20.19.0 || >=22.12.0', OLDEST)).toBe(true);
    expect(supports('^20.19.0 || ^22.13.0 || >=24', [22, 12, 0])).toBe(false);
    expect(supports('18 || 20 || >=22', OLDEST)).toBe(true);
    expect(supports('>= 0.6', OLDEST)).toBe(true);
    expect(supports('*', OLDEST)).toBe(true);
    expect(supports('^18.18.0 || ^20.9.0 || >=21.1.0', OLDEST)).toBe(true);
  });

  it('every installed package accepts the oldest Node.js that package.json promises', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(root.engines.node).toBe('^20.19.0 || >=22.12.0');
    const refusing = installedEngines()
      .filter((p) => !supports(p.node, OLDEST))
      .map((p) => `${p.name} (${p.node})`);
    expect(refusing).toEqual([]);
  });
});
