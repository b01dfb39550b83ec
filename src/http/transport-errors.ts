import { HarnessError } from '../errors.js';

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** The error and its causes, as deep as undici and the socket nest them. */
function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current && chain.length < 5) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function codesOf(error: unknown): string[] {
  return causesOf(error).flatMap((cause) => {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? [code] : [];
  });
}

/** The names of the errors on the chain: undici's parse error carries its kind there, not always a code. */
const namesOf = (error: unknown): string[] => causesOf(error).flatMap((cause) => (cause instanceof Error ? [cause.name] : []));

const isTls = (code: string): boolean => TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL');

/** The connection closed under a request: how undici reports a connection a TLS alert ended. */
export function isSocketClosed(error: unknown): boolean {
  return codesOf(error).some((code) => code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
}

/** Failures of the origin itself (name, route, port, certificate): every later request would meet them too. */
export function failsEveryRequest(error: unknown): boolean {
  return codesOf(error).some(
    (code) =>
      isTls(code) ||
      ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(code),
  );
}

/** What the target says of the client certificate when it ends a connection for it (TLS alerts, as OpenSSL names them). */
const CLIENT_CERTIFICATE_REFUSED = [
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
];

/** What a failed request left to read: the codes on its chain of causes, its message, and what the request was. */
interface TransportFailure {
  path: string;
  timeoutMs: number;
  /** Whether a client certificate was shown (--cert), which decides what a TLS alert means. */
  clientCertificate: boolean;
  detail: string;
  codes: string[];
  names: string[];
  has(...wanted: string[]): boolean;
}

function timeoutError({ has, path, timeoutMs }: TransportFailure): HarnessError | undefined {
  if (has('UND_ERR_CONNECT_TIMEOUT')) {
    return new HarnessError(
      'HARNESS_TIMEOUT',
      `GET ${path} timed out after ${timeoutMs} ms connecting (connect time-out)`,
      'Nothing answered the connection: check the host and port, firewalls, VPN or proxy, or raise --timeout-ms',
      'environment',
    );
  }
  if (has('UND_ERR_HEADERS_TIMEOUT')) {
    return new HarnessError(
      'HARNESS_TIMEOUT',
      `GET ${path} timed out after ${timeoutMs} ms waiting for the response headers (headers time-out)`,
      'The target took the request but did not answer: check the application and anything in front of it, or raise --timeout-ms',
      'environment',
    );
  }
  if (has('UND_ERR_BODY_TIMEOUT')) {
    return new HarnessError(
      'HARNESS_TIMEOUT',
      `GET ${path} timed out after ${timeoutMs} ms reading the body (body time-out)`,
      'The target sent its headers, then stalled the body: check the application and anything in front of it, or raise --timeout-ms',
      'environment',
    );
  }
  return undefined;
}

/** Nothing at the address: no server on the port, or no such host. */
function addressError({ has, path }: TransportFailure): HarnessError | undefined {
  if (has('ECONNREFUSED')) {
    return new HarnessError(
      'HARNESS_UNREACHABLE',
      `connection refused for GET ${path}`,
      'Nothing listens at that address: check --base-url (host and port) and that the server runs',
      'environment',
    );
  }
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL')) {
    return new HarnessError(
      'HARNESS_DNS',
      `the host name of the target could not be resolved (GET ${path})`,
      "Check the host name in --base-url and this machine's DNS",
      'environment',
    );
  }
  return undefined;
}

// A plain-HTTP port answers the TLS greeting with HTTP text, which OpenSSL reads as a record of an unknown version.
function plainHttpPortError({ has, path, detail }: TransportFailure): HarnessError | undefined {
  if (
    !has('ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST') &&
    !/wrong version number|packet length too long/i.test(detail)
  ) {
    return undefined;
  }
  return new HarnessError(
    'HARNESS_TLS',
    `TLS failed for GET ${path}: ${detail}`,
    'The port answers plain HTTP, not TLS: use http:// instead of https:// in --base-url (or the port the server speaks HTTPS on)',
    'environment',
  );
}

/** The target asking for a client certificate (mutual TLS), or refusing the one shown. */
function clientCertificateError({ has, path, detail, clientCertificate }: TransportFailure): HarnessError | undefined {
  if (has('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')) {
    return new HarnessError(
      'HARNESS_TLS',
      `the target requires a client certificate (mutual TLS) and closed the connection for GET ${path}`,
      'Pass the client certificate and its key with --cert FILE --key FILE',
      'environment',
    );
  }
  if (has(...CLIENT_CERTIFICATE_REFUSED) && clientCertificate) {
    return new HarnessError(
      'HARNESS_TLS',
      `the target refused the client certificate of --cert for GET ${path}: ${detail}`,
      'Pass with --cert and --key a client certificate the target trusts: signed by the CA it accepts, not expired',
      'environment',
    );
  }
  // TLS 1.2 names no reason: a target that requires a client certificate ends the handshake with this alert.
  if (has('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE') && !clientCertificate) {
    return new HarnessError(
      'HARNESS_TLS',
      `the target ended the TLS handshake for GET ${path} (handshake failure)`,
      'If the target requires a client certificate (mutual TLS), pass --cert FILE --key FILE; else it shares no TLS version or cipher with the suite',
      'environment',
    );
  }
  return undefined;
}

/** Any other TLS failure: read as the target's certificate not being trusted from here. */
function untrustedCertificateError({ codes, path, detail }: TransportFailure): HarnessError | undefined {
  if (!codes.some(isTls)) return undefined;
  return new HarnessError(
    'HARNESS_TLS',
    `TLS failed for GET ${path}: ${detail}`,
    'The certificate is not trusted from here: fix it, or pass the CA that signed it with --ca FILE (--insecure skips the check, loudly)',
    'environment',
  );
}

/** An answer that breaks HTTP/1.1's framing: what llhttp cannot parse, or a body unlike its Content-Length. */
const isMalformed = ({ codes, names }: TransportFailure): boolean =>
  names.includes('HTTPParserError') || codes.some((code) => code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH');

/** A connection that broke while the answer came: headers past the bound, an answer not well-formed, or closed before the end. */
function brokenAnswerError(failure: TransportFailure): HarnessError | undefined {
  const { has, path, detail } = failure;
  if (has('UND_ERR_HEADERS_OVERFLOW', 'HPE_HEADER_OVERFLOW')) {
    return new HarnessError(
      'HARNESS_HEADERS_TOO_LARGE',
      `the response headers for GET ${path} exceed the size the suite reads`,
      'The target sent far more header data than an API response needs',
      'target',
    );
  }
  if (isMalformed(failure)) {
    return new HarnessError(
      'HARNESS_MALFORMED_ANSWER',
      `the answer to GET ${path} is not well-formed HTTP: ${detail}`,
      'The web server, the application or a proxy between sent an answer HTTP clients must refuse (both Content-Length and Transfer-Encoding, a Content-Length unlike the body, a broken chunk): look for what sets those headers, often a script that sets Content-Length itself or a proxy that rewrites the body',
      'environment',
    );
  }
  if (has('ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED')) {
    return new HarnessError(
      'HARNESS_CONNECTION_RESET',
      `the connection closed before the response to GET ${path} was complete`,
      'Something between here and the application cut the connection: check the web server and proxy logs',
      'environment',
    );
  }
  return undefined;
}

/**
 * Turns what undici and the socket throw into a coded error that says whose problem it is and what to do.
 * `clientCertificate` says whether a client certificate was shown (--cert), which decides what a TLS alert means.
 */
export function classifyTransportError(error: unknown, path: string, timeoutMs: number, clientCertificate = false): HarnessError {
  const codes = codesOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  const has = (...wanted: string[]): boolean => codes.some((code) => wanted.includes(code));
  const failure: TransportFailure = { path, timeoutMs, clientCertificate, detail, codes, names: namesOf(error), has };
  // In this order: the alerts about a client certificate are TLS codes too, and a plain-HTTP port is no certificate fault.
  return (
    timeoutError(failure) ??
    addressError(failure) ??
    plainHttpPortError(failure) ??
    clientCertificateError(failure) ??
    untrustedCertificateError(failure) ??
    brokenAnswerError(failure) ??
    new HarnessError(
      'HARNESS_UNREACHABLE',
      `GET ${path} failed: ${detail}`,
      'Check --base-url and that the target answers HTTP',
      'environment',
    )
  );
}
