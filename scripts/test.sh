#!/usr/bin/env bash
# `npm test`: installs what the tests need, starts throwaway Redis + PostgreSQL, and runs every test:
# lint, types, unit + integration on SQLite, the server suite again on PostgreSQL (+ Redis), browser e2e,
# and the benchmark smoke run. Ends with a plain "N passed, N failed" line.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
RESULTS="$ROOT/test-results"
rm -rf "$RESULTS" && mkdir -p "$RESULTS"
: >"$RESULTS/steps.txt"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing dependencies (npm ci)"
  npm ci --no-audit --no-fund || { echo "npm ci failed"; echo "0 passed, 1 failed"; exit 1; }
fi

echo "== starting test services"
# shellcheck source=scripts/services.sh
source scripts/services.sh || { echo "0 passed, 1 failed"; exit 1; }
trap services_down EXIT

# A step is one check counted as one test; its log is kept in test-results/<name>.log.
step() {
  local name=$1
  shift
  local t0=$SECONDS
  if "$@" >"$RESULTS/$name.log" 2>&1; then
    echo "ok   $name ($((SECONDS - t0))s)"
    echo "$name pass" >>"$RESULTS/steps.txt"
  else
    echo "FAIL $name ($((SECONDS - t0))s) — last lines of test-results/$name.log:"
    tail -40 "$RESULTS/$name.log"
    echo "$name fail" >>"$RESULTS/steps.txt"
  fi
}

# The static checks are single-threaded: lint and format run beside typecheck, one per core.
(
  step lint npx eslint .
  step format npx prettier --check .
) &
STATIC_PID=$!
step typecheck node scripts/typecheck.mjs
wait "$STATIC_PID"
# Unit + integration on SQLite (the server harness uses SQLite when TEST_PG_URL is unset).
step vitest-sqlite env -u TEST_PG_URL -u REDIS_URL npx vitest run --reporter=dot --reporter=json \
  --outputFile.json="$RESULTS/vitest-sqlite.json"
# The same server suite on PostgreSQL, with Redis for the multi-node tests.
step vitest-postgres npx vitest run --project server --reporter=dot --reporter=json \
  --outputFile.json="$RESULTS/vitest-postgres.json"
step build npm run build
step e2e npx vitest run --config e2e/vitest.config.ts --reporter=default --reporter=json \
  --outputFile.json="$RESULTS/vitest-e2e.json"
if [ -f bench/src/run.ts ]; then
  step bench-smoke npm run bench -- --smoke
fi

node scripts/summarize.mjs "$RESULTS"
