#!/usr/bin/env bash
# Web servers for the hosting lab (test/lab): Apache 2.4 with mod_fcgid, PHP-FPM, the PHP CGI binary, and nginx.
# The lab starts them itself as plain processes on loopback ports; nothing here enables or starts a service.
set -euo pipefail

packages=(apache2 php-fpm php-cgi libapache2-mod-fcgid nginx-light)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq "${missing[@]}" >/dev/null
