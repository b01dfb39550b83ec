import { expect, test } from 'vitest';
import { classifyTransportError } from '../src/http/transport-errors.js';

/** An error as undici throws it: a code, and the socket's own error as its cause. */
function thrown(code: string, message = code, cause?: string): Error {
  return Object.assign(new Error(message), { code, ...(cause ? { cause: Object.assign(new Error(cause), { code: cause }) } : {}) });
}

const CASES: { what: string; error: Error; clientCertificate?: boolean; code: string; party: string; says: RegExp }[] = [
  { what: 'connect time-out', error: thrown('UND_ERR_CONNECT_TIMEOUT'), code: 'HARNESS_TIMEOUT', party: 'environment', says: /connecting/ },
  {
    what: 'headers time-out',
    error: thrown('UND_ERR_HEADERS_TIMEOUT'),
    code: 'HARNESS_TIMEOUT',
    party: 'environment',
    says: /headers time-out/,
  },
  { what: 'body time-out', error: thrown('UND_ERR_BODY_TIMEOUT'), code: 'HARNESS_TIMEOUT', party: 'environment', says: /body time-out/ },
  {
    what: 'refused, as a cause',
    error: thrown('UND_ERR_SOCKET', 'other side closed', 'ECONNREFUSED'),
    code: 'HARNESS_UNREACHABLE',
    party: 'environment',
    says: /connection refused/,
  },
  { what: 'unknown host', error: thrown('ENOTFOUND'), code: 'HARNESS_DNS', party: 'environment', says: /could not be resolved/ },
  {
    what: 'a body unlike its Content-Length (both it and Transfer-Encoding sent)',
    error: thrown('UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'Response body length does not match content-length header'),
    code: 'HARNESS_MALFORMED_ANSWER',
    party: 'environment',
    says: /^the answer to GET \S+ is not well-formed HTTP: Response body length does not match content-length header$/,
  },
  {
    what: "llhttp's parse error, known by its name",
    error: Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid character in chunk size)'), {
      name: 'HTTPParserError',
    }),
    code: 'HARNESS_MALFORMED_ANSWER',
    party: 'environment',
    says: /is not well-formed HTTP: Response does not match the HTTP\/1\.1 protocol \(Invalid character in chunk size\)$/,
  },
  { what: 'DNS failing', error: thrown('EAI_AGAIN'), code: 'HARNESS_DNS', party: 'environment', says: /could not be resolved/ },
  {
    what: 'plain HTTP port',
    error: thrown('ERR_SSL_WRONG_VERSION_NUMBER'),
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /^TLS failed/,
  },
  {
    what: 'plain HTTP port, by message',
    error: new Error('SSL routines: packet length too long'),
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /^TLS failed/,
  },
  {
    what: 'certificate required',
    error: thrown('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'),
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /requires a client certificate/,
  },
  {
    what: 'client certificate refused',
    error: thrown('ERR_SSL_TLSV1_ALERT_UNKNOWN_CA'),
    clientCertificate: true,
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /refused the client certificate/,
  },
  {
    what: 'unknown CA alert without --cert',
    error: thrown('ERR_SSL_TLSV1_ALERT_UNKNOWN_CA'),
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /^TLS failed/,
  },
  {
    what: 'handshake failure without --cert',
    error: thrown('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'),
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /handshake failure/,
  },
  {
    what: 'handshake failure with --cert',
    error: thrown('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'),
    clientCertificate: true,
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /^TLS failed/,
  },
  {
    what: 'self-signed certificate',
    error: thrown('DEPTH_ZERO_SELF_SIGNED_CERT'),
    code: 'HARNESS_TLS',
    party: 'environment',
    says: /^TLS failed/,
  },
  {
    what: 'headers past the bound',
    error: thrown('UND_ERR_HEADERS_OVERFLOW'),
    code: 'HARNESS_HEADERS_TOO_LARGE',
    party: 'target',
    says: /exceed the size/,
  },
  {
    what: 'connection reset',
    error: thrown('ECONNRESET'),
    code: 'HARNESS_CONNECTION_RESET',
    party: 'environment',
    says: /closed before the response/,
  },
  {
    what: 'anything else',
    error: new Error('something odd'),
    code: 'HARNESS_UNREACHABLE',
    party: 'environment',
    says: /failed: something odd/,
  },
];

test.each(CASES)('$what: $code', ({ error, clientCertificate, code, party, says }) => {
  const classified = classifyTransportError(error, '/api/ticket/status/1', 2500, clientCertificate);
  expect([classified.code, classified.party]).toEqual([code, party]);
  expect(classified.message).toMatch(says);
  expect(classified.message).toContain('/api/ticket/status/1');
});
