#!/usr/bin/env bash
# npm run checks: the package's typecheck, lint, layer rules and format scripts side by side; fails when any of them fails.
set -u
npm run --silent typecheck &
types=$!
npm run --silent lint &
lint=$!
npm run --silent layers &
layers=$!
npm run --silent format &
format=$!
status=0
for check in "$types" "$lint" "$layers" "$format"; do
  wait "$check" || status=1
done
exit "$status"
