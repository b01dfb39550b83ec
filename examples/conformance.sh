#!/usr/bin/env bash
# Plain shell: run the suite, keep the reports, and act on the exit code.
#
#   CONFORMANCE_BASE_URL=https://help.example.com CONFORMANCE_TOKEN=... bash examples/conformance.sh
#
# CONFORMANCE_PACKAGE says where the suite comes from; it is the only place that does:
#   - a checkout of the repository with `npm ci` done (the default: the checkout this script sits in);
#   - the packed tarball, e.g. ./ticketing-conformance-0.1.0.tgz (made with `npm pack` in a checkout);
#   - once published on the npm registry: ticketing-conformance@0.1.0.
# Exit codes: 0 conformant, 1 not conformant, 2 no verdict (the suite could not be installed, or could not judge).
set -u
: "${CONFORMANCE_BASE_URL:?set CONFORMANCE_BASE_URL to the API address}"
: "${CONFORMANCE_TOKEN:?set CONFORMANCE_TOKEN to the API token}"
export CONFORMANCE_OUT="${CONFORMANCE_OUT:-conformance-reports}"
package="${CONFORMANCE_PACKAGE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"

if [ -f "$package/bin/ticketing-conformance.js" ]; then
  if [ ! -d "$package/node_modules" ]; then
    echo "cannot run the suite from $package: its dependencies are not installed; run 'npm ci' there first" >&2
    exit 2
  fi
  suite=(node "$package/bin/ticketing-conformance.js")
else
  # npm reads a relative path against --prefix, not the current folder.
  if [ -e "$package" ]; then package="$(cd "$(dirname "$package")" && pwd)/$(basename "$package")"; fi
  install_dir="${CONFORMANCE_INSTALL_DIR:-${TMPDIR:-/tmp}/ticketing-conformance-install}"
  mkdir -p "$install_dir"
  [ -f "$install_dir/package.json" ] || echo '{ "private": true }' >"$install_dir/package.json"
  if ! npm install --prefix "$install_dir" --omit=dev --no-audit --no-fund --loglevel=error "$package" >&2; then
    echo "could not install the suite from '$package' (CONFORMANCE_PACKAGE): see npm's message above; no verdict" >&2
    exit 2
  fi
  suite=("$install_dir/node_modules/.bin/ticketing-conformance")
fi

"${suite[@]}"
status=$?
case "$status" in
  0) echo "conformant" ;;
  1) echo "not conformant: see $CONFORMANCE_OUT/report.md" ;;
  *) echo "no verdict (configuration, network or suite error): see the message above" ;;
esac
exit "$status"
