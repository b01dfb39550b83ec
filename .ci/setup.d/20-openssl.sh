#!/usr/bin/env bash
# The TLS self-tests make a throwaway self-signed certificate with openssl.
set -euo pipefail
command -v openssl >/dev/null && exit 0
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
