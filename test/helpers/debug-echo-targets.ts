import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { serveHttp } from './loopback-server.js';

/** What the front hands out once Basic authentication passed: each as good as the token to whoever reads it. */
export const ISSUED = {
  session: 'sess-4f9a1c7e2b8d6a30',
  apiKey: 'ak-live-5c1e9b7a3f20d4e8',
  authToken: 'at-93be7d2c6a1f0e45',
  csrf: 'csrf-b27c8e1f5a9d3046',
};

/** The request as PHP's $_SERVER holds it: the Authorization header, and the Basic credential split when it decodes. */
function serverVariables(request: IncomingMessage): Record<string, string> {
  const authorization = request.headers.authorization ?? '';
  const decoded = Buffer.from(authorization.replace(/^Basic /i, ''), 'base64').toString('latin1');
  const colon = decoded.indexOf(':');
  return {
    REQUEST_URI: request.url ?? '',
    HTTP_ACCEPT: request.headers.accept ?? '',
    HTTP_AUTHORIZATION: authorization,
    ...(authorization.startsWith('Basic ') && colon >= 0
      ? { PHP_AUTH_USER: decoded.slice(0, colon), PHP_AUTH_PW: decoded.slice(colon + 1) }
      : {}),
  };
}

const rawHeaders = (request: IncomingMessage): string =>
  Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${String(value)}\r\n`)
    .join('');

/**
 * The ways a debugging deployment writes the request it received into its answers, each as extra fields of the JSON
 * it answers with: every request, whatever its credentials (the wrong token, the malformed headers, the near misses).
 */
export const DEBUG_ECHOES = {
  'a PHP var_dump of $_SERVER, in a string': (request: IncomingMessage) => {
    const variables = Object.entries(serverVariables(request));
    const entries = variables.map(([name, value]) => `  ["${name}"]=>\n  string(${Buffer.byteLength(value, 'latin1')}) "${value}"\n`);
    return { debug: `array(${variables.length}) {\n${entries.join('')}}\n` };
  },
  'a PHP print_r of $_SERVER, in a string': (request: IncomingMessage) => {
    const entries = Object.entries(serverVariables(request)).map(([name, value]) => `    [${name}] => ${value}\n`);
    return { debug: `Array\n(\n${entries.join('')})\n` };
  },
  'the request headers as a JSON object': (request: IncomingMessage) => ({ debug: { headers: request.headers } }),
  'the request headers as PSR-7 arrays, and $_SERVER': (request: IncomingMessage) => ({
    debug: {
      headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, [value]])),
      server: serverVariables(request),
    },
  }),
  'the raw request headers, in hex': (request: IncomingMessage) => ({
    debug: { raw_headers_hex: Buffer.from(rawHeaders(request), 'latin1').toString('hex') },
  }),
  'the raw request headers, as a JSON string': (request: IncomingMessage) => ({ debug: { raw: rawHeaders(request) } }),
  'the Basic credential decoded, in a log line': (request: IncomingMessage) => {
    const { PHP_AUTH_USER: user = '', PHP_AUTH_PW: password = '' } = serverVariables(request);
    return { debug: { log: [`auth: user ${user} with ${password}`] } };
  },
} satisfies Record<string, (request: IncomingMessage) => Record<string, unknown>>;

export type DebugEcho = keyof typeof DEBUG_ECHOES;

/** Whether the request carried the token as its Basic user name: what the front issues its session for. */
function authenticated(headers: IncomingHttpHeaders, token: string): boolean {
  const credential = Buffer.from((headers.authorization ?? '').replace(/^Basic /i, ''), 'base64').toString('utf8');
  return credential.startsWith(`${token}:`);
}

export interface DebugEchoTarget {
  url: string;
  close(): Promise<void>;
}

/**
 * The reference server behind a front in debug mode: every JSON answer gets the echo's fields beside status, message
 * and data, and an authenticated request gets a session cookie, an API key, an auth token and a CSRF token in the
 * response headers. Otherwise it answers as the reference server does, so a run against it is conformant.
 */
export async function debugEchoTarget(token: string, echo: DebugEcho): Promise<DebugEchoTarget> {
  const reference = await startReferenceServer({ token });
  const upstream = new URL(reference.url);
  const front = await serveHttp((request, response) => {
    // Plain bodies, so that the echo can be added to them.
    const headers = { ...request.headers, 'accept-encoding': 'identity' };
    const onward = httpRequest({ host: upstream.hostname, port: upstream.port, path: request.url, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const echoed = JSON.stringify({ ...body, ...DEBUG_ECHOES[echo](request) });
        const issued: Record<string, string | string[]> = authenticated(request.headers, token)
          ? {
              'set-cookie': [`session=${ISSUED.session}; Path=/; HttpOnly; SameSite=Lax`, `XSRF-TOKEN=${ISSUED.csrf}; Path=/`],
              'x-api-key': ISSUED.apiKey,
              'x-auth-token': ISSUED.authToken,
              'x-csrf-token': ISSUED.csrf,
            }
          : {};
        response.writeHead(answer.statusCode ?? 502, {
          'content-type': answer.headers['content-type'] ?? 'application/json',
          'content-length': String(Buffer.byteLength(echoed)),
          ...issued,
        });
        response.end(echoed);
      });
    });
    onward.on('error', () => response.destroy());
    onward.end();
  });
  return {
    url: front.url,
    close: async () => {
      await Promise.all([front.close(), reference.close()]);
    },
  };
}
