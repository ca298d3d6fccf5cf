// Prints the closing "N passed, N failed" line CI reads: every vitest test counts once, and each
// non-vitest step (lint, format, typecheck, build) counts as one test.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
const reported = new Set();
const failuresIn = new Map();
for (const f of readdirSync(dir).filter((n) => /^vitest-.*\.json$/.test(n))) {
  const r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A suite that failed to load reports no tests: count it as a failure.
  failed += r.testResults.filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length;
  const key = f.replace(/^vitest-|\.json$/g, '');
  reported.add(key);
  failuresIn.set(
    key,
    r.numFailedTests +
      r.testResults.filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length,
  );
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
    // Counted by its tests; but a run that failed with no failing test (a worker or environment that
    // could not start, unhandled errors) still counts as one failure.
    if (status === 'fail' && failuresIn.get(key) === 0) failed += 1;
    continue;
  }
  if (status === 'pass') passed += 1;
  else failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
