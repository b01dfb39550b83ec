#!/usr/bin/env bash
# Prometheus and promtool, for the exporter self-test: it starts prometheus as a plain process on a loopback port
# and checks the example rules with promtool. Nothing here enables or starts the package's service.
set -euo pipefail
if command -v prometheus >/dev/null && command -v promtool >/dev/null; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq prometheus >/dev/null
