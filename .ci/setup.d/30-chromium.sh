#!/usr/bin/env bash
# Debian's Chromium, for the self-test that opens report.html (playwright-core drives it; no browser is downloaded).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
