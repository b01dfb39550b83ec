#!/usr/bin/env bash
# npm test: the static checks (types, lint, layer rules, format) run beside the self-tests, so both cores stay busy;
# fails when either fails. The checks' output is shown after the self-tests' totals. Arguments go to Vitest (a file, -t NAME).
set -u
checks_log=$(mktemp)
trap 'rm -f "$checks_log"' EXIT
bash scripts/static-checks.sh >"$checks_log" 2>&1 &
checks=$!
vitest run --config vitest.selftest.config.ts "$@"
tests=$?
wait "$checks"
checked=$?
cat "$checks_log"
if [ "$checked" -ne 0 ]; then
  echo "Static checks failed (tsc, eslint, dependency-cruiser or prettier): see their output above."
fi
[ "$tests" -eq 0 ] && [ "$checked" -eq 0 ]
