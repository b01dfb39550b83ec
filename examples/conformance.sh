#!/usr/bin/env bash
# Plain shell: run the suite, keep the reports, and act on the exit code.
#
#   CONFORMANCE_BASE_URL=https://help.example.com CONFORMANCE_TOKEN=... bash examples/conformance.sh
#
# CONFORMANCE_PACKAGE says where the suite comes from; it is the only place that does:
#   - a checkout of the repository with `npm ci` done (the default: the checkout this script sits in);
#   - the packed tarball, e.g. ./ticketing-conformance-0.1.0.tgz (made with `npm pack` in a checkout);
#   - once published on the npm registry: ticketing-conformance@0.1.0.
# A package that is not a checkout is installed into a new temporary folder, removed at the end; CONFORMANCE_INSTALL_DIR
# names a folder of yours to keep it in between runs instead.
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
  if [ -n "${CONFORMANCE_INSTALL_DIR:-}" ]; then
    install_dir="$CONFORMANCE_INSTALL_DIR"
    # What is in it is run: only a folder of this user's.
    if ! mkdir -p -- "$install_dir" || [ ! -O "$install_dir" ]; then
      echo "cannot install the suite into $install_dir (CONFORMANCE_INSTALL_DIR): it cannot be made, or belongs to another user; no verdict" >&2
      exit 2
    fi
  else
    # A fixed name in the shared temporary folder could have been made, and filled, by another user of the machine.
    if ! install_dir="$(mktemp -d "${TMPDIR:-/tmp}/ticketing-conformance-install.XXXXXXXX")"; then
      echo "cannot make a temporary folder to install the suite into; no verdict" >&2
      exit 2
    fi
    trap 'rm -rf -- "$install_dir"' EXIT
  fi
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
