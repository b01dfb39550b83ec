import { isIPv4 } from 'node:net';
import type { Config } from './settings.js';
import type { RunWarning } from '../errors.js';

/** A name or address of this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIPv4(host)) return host.startsWith('127.');
  return host === '::1' || host === 'localhost' || host.endsWith('.localhost') || /^::ffff:127\./.test(host);
}

/** Choices that weaken what the suite promises about the token, said loudly before the run and kept in the report. */
export function safetyWarnings(config: Pick<Config, 'baseUrl' | 'insecure'>, env: NodeJS.ProcessEnv = process.env): RunWarning[] {
  if (!config.baseUrl) return [];
  const url = new URL(config.baseUrl);
  const warnings: RunWarning[] = [];
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    warnings.push({
      code: 'TOKEN_OVER_PLAIN_HTTP',
      message: `the token travels unencrypted to ${url.host} over http://, readable by anyone on the way; use https:// if the target serves it`,
    });
  }
  if (url.protocol === 'https:' && config.insecure) {
    warnings.push({
      code: 'TLS_NOT_VERIFIED',
      message: `--insecure: the TLS certificate of ${url.host} is not verified, so the token may be sent to an impostor; trust a private CA with --ca FILE instead`,
    });
  } else if (url.protocol === 'https:' && env.NODE_TLS_REJECT_UNAUTHORIZED === '0') {
    // Node reads this variable for every TLS connection the suite makes, as if --insecure were given.
    warnings.push({
      code: 'TLS_NOT_VERIFIED',
      message: `NODE_TLS_REJECT_UNAUTHORIZED=0 is set: the TLS certificate of ${url.host} is not verified, so the token may be sent to an impostor; unset it, and trust a private CA with --ca FILE instead`,
    });
  }
  return warnings;
}
