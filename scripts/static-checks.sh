#!/usr/bin/env bash
# The static checks side by side (types, lint, format); fails when any of them fails. Run by npm, which puts
# node_modules/.bin on the PATH.
set -u
tsc --noEmit &
types=$!
eslint . &
lint=$!
prettier --check . &
format=$!
status=0
for check in "$types" "$lint" "$format"; do
  wait "$check" || status=1
done
exit "$status"
