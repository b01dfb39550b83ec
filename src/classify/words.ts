import type { FrontName, FrontOrigin } from './types.js';

const FRONT_WORDS: Record<FrontName, string> = {
  cdn: 'a CDN',
  waf: 'a web application firewall',
  proxy: 'a proxy',
  gateway: 'an API gateway',
  cache: 'a cache',
  'web-server': 'the web server',
  'php-fpm': 'PHP-FPM',
  'php-runtime': 'the PHP runtime',
  sso: 'a single sign-on front',
  'captive-portal': 'a captive portal',
  maintenance: 'a maintenance page',
  'rate-limiter': 'a rate limit',
};

/** Who answered, in words: the vendor when known, else what kind of front. */
export function whoAnswered(origin: FrontOrigin): string {
  return origin.vendor ?? FRONT_WORDS[origin.front];
}
