// Prints the closing "N passed, N failed" line CI reads: every vitest test counts once, and each
// non-vitest step (lint, format, typecheck, build) counts as one test.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
const reported = new Set();
for (const f of readdirSync(dir).filter((n) => /^vitest-.*\.json$/.test(n))) {
  const r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A suite that failed to load reports no tests: count it as a failure.
  failed += r.testResults.filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length;
  reported.add(f.replace(/^vitest-|\.json$/g, ''));
  console.log(`${f}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
}
const steps = existsSync(join(dir, 'steps.txt'))
  ? readFileSync(join(dir, 'steps.txt'), 'utf8').trim().split('\n')
  : [];
for (const line of steps.filter(Boolean)) {
  const [name, status] = line.split(' ');
  const vitestStep = name.startsWith('vitest-') || name === 'e2e';
  const key = name === 'e2e' ? 'e2e' : name.replace(/^vitest-/, '');
  if (vitestStep && reported.has(key)) {
    // Counted by its tests, unless the runner crashed without failing a test.
    continue;
  }
  if (status === 'pass') passed += 1;
  else failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
