#!/usr/bin/env bash
# npm run checks: the package's typecheck, lint, layer rules, format and knip scripts side by side; fails when any of them
# fails.
set -u
npm run --silent typecheck &
types=$!
npm run --silent lint &
lint=$!
npm run --silent layers &
layers=$!
npm run --silent format &
format=$!
npm run --silent knip &
knip=$!
status=0
for check in "$types" "$lint" "$layers" "$format" "$knip"; do
  wait "$check" || status=1
done
exit "$status"
