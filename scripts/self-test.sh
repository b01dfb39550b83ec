#!/usr/bin/env bash
# npm test: the fast self-tests (test/ but test/integration/), the static checks (types, lint, layers, format, knip) run
# beside them, so both cores stay busy; fails when either fails. The checks' output is shown after the self-tests'
# totals. Arguments go to Vitest (a file, -t NAME).
# SELF_TEST_STATIC_CHECKS=skip leaves the checks out: their result does not depend on the Node that runs them, so a
# second pass on another Node (CI's) does not pay for them again.
set -u
# The package's one compile (tsconfig.build.json) first: dist/, which the self-tests run, and the build the type check
# reads instead of checking src/ again. Its errors, if any, are the type check's to report.
tsc --build tsconfig.build.json >/dev/null 2>&1
checks_log=$(mktemp)
trap 'rm -f "$checks_log"' EXIT
checks=""
if [ "${SELF_TEST_STATIC_CHECKS:-run}" != skip ]; then
  bash scripts/static-checks.sh >"$checks_log" 2>&1 &
  checks=$!
fi
vitest run --config vitest.selftest.config.ts "$@"
tests=$?
checked=0
if [ -n "$checks" ]; then
  wait "$checks"
  checked=$?
  cat "$checks_log"
fi
if [ "$checked" -ne 0 ]; then
  echo "Static checks failed (tsc, eslint, dependency-cruiser, prettier or knip): see their output above."
fi
[ "$tests" -eq 0 ] && [ "$checked" -eq 0 ]
