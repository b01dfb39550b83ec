#!/usr/bin/env bash
# Plain shell: run the suite, keep the reports, and act on the exit code.
set -u
: "${CONFORMANCE_BASE_URL:?set CONFORMANCE_BASE_URL to the API address}"
: "${CONFORMANCE_TOKEN:?set CONFORMANCE_TOKEN to the API token}"
export CONFORMANCE_OUT="${CONFORMANCE_OUT:-conformance-reports}"

npx --yes ticketing-conformance@0.1.0
status=$?
case "$status" in
  0) echo "conformant" ;;
  1) echo "not conformant: see $CONFORMANCE_OUT/report.md" ;;
  *) echo "no verdict (configuration, network or suite error): see the message above" ;;
esac
exit "$status"
