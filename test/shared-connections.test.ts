import { X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { HttpClient } from '../src/http/client.js';
import { SharedConnections } from '../src/http/shared-connections.js';
import { selfSignedCertificate } from './helpers/self-signed.js';
import { opensslMissing } from './helpers/tls-front.js';

/**
 * A matrix's targets share connections: a target behind the same host as an earlier one sends its requests on the
 * connections that one left open, each with its own credentials, at most its own concurrency at once, and still learns
 * the certificate the host presented.
 */

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

interface CountingServer {
  url: string;
  connections: () => number;
  /** The Authorization header of each request, in order of arrival. */
  authorizations: (string | undefined)[];
  /** The most requests the server held unanswered at once since it started or was last asked to forget. */
  mostAtOnce: () => number;
  forgetMostAtOnce: () => void;
}

/**
 * A server that keeps idle connections for minutes (so that reuse does not hang on the machine's speed), counts the
 * connections it accepts and holds each answer a moment, so that requests sent together overlap.
 */
async function countingServer(server: Server, scheme: 'http' | 'https'): Promise<CountingServer> {
  let connections = 0;
  let open = 0;
  let most = 0;
  const authorizations: (string | undefined)[] = [];
  server.keepAliveTimeout = 300_000;
  server.on('connection', () => (connections += 1));
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    authorizations.push(request.headers.authorization);
    open += 1;
    most = Math.max(most, open);
    setTimeout(() => {
      open -= 1;
      response.setHeader('content-type', 'application/json');
      response.end('{"status":"success","message":null,"data":{}}');
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    authorizations,
    mostAtOnce: () => most,
    forgetMostAtOnce: () => (most = 0),
  };
}

const client = (baseUrl: string, token: string, options: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient =>
  new HttpClient({
    baseUrl,
    token,
    password: 'x',
    timeoutMs: 5000,
    maxBodyBytes: 64 * 1024,
    maxRequests: 20,
    userAgent: 'test',
    concurrency: 4,
    ...options,
  });

const sendTogether = (http: HttpClient, count: number) =>
  Promise.all(Array.from({ length: count }, () => http.get({ path: '/api/ticket/status/1', credentials: 'valid' })));

/** undici frees a connection once its answer has ended, on a later turn of the event loop: waited for, not timed. */
const connectionsFreed = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

const basic = (token: string): string => `Basic ${Buffer.from(`${token}:x`).toString('base64')}`;

test('a target after another on the same host sends on the connections it left, all at once, each request with its own token', async () => {
  const server = await countingServer(createServer(), 'http');
  const connections = new SharedConnections(2);
  closing.push(() => connections.close());
  const first = client(server.url, 'first-token-0001', { connections });
  await sendTogether(first, 4);
  await first.close();
  await connectionsFreed();
  const opened = server.connections();
  server.forgetMostAtOnce();
  const second = client(server.url, 'second-token-0002', { connections });
  await sendTogether(second, 4);
  await second.close();

  expect(opened).toBe(4);
  expect(server.connections()).toBe(opened);
  // The host was reached by the first target: the second's first request does not go alone to find that out.
  expect(server.mostAtOnce()).toBe(4);
  expect(server.authorizations).toEqual([...Array(4).fill(basic('first-token-0001')), ...Array(4).fill(basic('second-token-0002'))]);
});

test('without shared connections each target opens its own, as a single run does', async () => {
  const server = await countingServer(createServer(), 'http');
  for (const token of ['first-token-0001', 'second-token-0002']) {
    const alone = client(server.url, token);
    await sendTogether(alone, 4);
    await alone.close();
  }
  expect(server.connections()).toBe(8);
});

test('a target keeps its own concurrency on shared connections that could carry more', async () => {
  const server = await countingServer(createServer(), 'http');
  const connections = new SharedConnections(4);
  closing.push(() => connections.close());
  await sendTogether(client(server.url, 'first-token-0001', { connections, concurrency: 2 }), 6);
  expect(server.mostAtOnce()).toBe(2);
});

test.skipIf(opensslMissing)('a target that reuses a TLS connection still names the certificate its host presented', async () => {
  const identity = await selfSignedCertificate();
  closing.push(identity.cleanup);
  const server = await countingServer(createTlsServer({ key: identity.key, cert: identity.cert }), 'https');
  const connections = new SharedConnections(2);
  closing.push(() => connections.close());
  const ca = { path: identity.certPath, pem: identity.cert };
  const first = client(server.url, 'first-token-0001', { connections, ca });
  await sendTogether(first, 2);
  await first.close();
  await connectionsFreed();
  const second = client(server.url, 'second-token-0002', { connections, ca });
  await sendTogether(second, 2);

  expect(server.connections()).toBe(2);
  expect(second.tlsCertificates).toEqual([new X509Certificate(identity.cert).fingerprint256]);
});
