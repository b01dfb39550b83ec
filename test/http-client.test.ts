import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { afterEach, expect, test } from 'vitest';
import { HarnessError } from '../src/errors.js';
import { jsonDepth, MAX_JSON_DEPTH, parseJson } from '../src/exchange/body-text.js';
import type { Exchange } from '../src/exchange/exchange.js';
import { HttpClient } from '../src/http/client.js';
import { collectGarbage } from '../src/judge/memory.js';
import { retryAfterMs } from '../src/http/rate-limit.js';
import { serveSockets, type LoopbackServer } from './helpers/loopback-server.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';
import { tokenFormsIn } from './helpers/token-forms.js';

const TOKEN = 'client-token-abc123';
const servers: Server[] = [];
const rawServers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all([
    ...servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
    ...rawServers.splice(0).map((server) => server.close()),
  ]);
});

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    seen.push(request);
    handler(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const client = (baseUrl: string, overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient =>
  new HttpClient({
    baseUrl,
    token: TOKEN,
    password: 'x',
    timeoutMs: 2000,
    maxBodyBytes: 64 * 1024,
    maxRequests: 10,
    userAgent: 'test',
    ...overrides,
  });

async function harnessError(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HarnessError);
  return error as HarnessError;
}

test.each(['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'])('%s is refused before anything is sent: the suite only reads', async (method) => {
  const target = await serve((_request, response) => response.end('{}'));
  const error = await harnessError(client(target.url).send(method, { path: '/api/ticket/status/1', credentials: 'valid' }));
  expect(error.code).toBe('HARNESS_METHOD_REFUSED');
  expect(target.seen).toHaveLength(0);
});

test('a body over the cap stops the read with a coded error', async () => {
  const target = await serve((_request, response) => response.end(Buffer.alloc(200 * 1024, 0x61)));
  const error = await harnessError(client(target.url).get({ path: '/big', credentials: 'valid' }));
  expect(error.code).toBe('HARNESS_BODY_TOO_LARGE');
  expect(error.party).toBe('target');
});

test('a small gzip body that unpacks past the cap is stopped too', async () => {
  const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
  expect(bomb.byteLength).toBeLessThan(64 * 1024);
  const target = await serve((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end(bomb);
  });
  const error = await harnessError(client(target.url).get({ path: '/bomb', credentials: 'valid' }));
  expect(error.code).toBe('HARNESS_BODY_TOO_LARGE');
  expect(error.message).toMatch(/unpacks to more than/);
});

test('a redirect is recorded, not followed, so credentials go nowhere else', async () => {
  const elsewhere = await serve((_request, response) => response.end('{}'));
  const target = await serve((_request, response) => {
    response.writeHead(302, { location: `${elsewhere.url}/api/ticket/status/1` });
    response.end();
  });
  const exchange = await client(target.url).get({ path: '/api/ticket/status/1', credentials: 'valid' });
  expect(exchange.response.status).toBe(302);
  expect(elsewhere.seen).toHaveLength(0);
});

test('a server that never answers times out with the phase named', async () => {
  const target = await serve(() => undefined);
  const error = await harnessError(client(target.url, { timeoutMs: 300 }).get({ path: '/slow', credentials: 'valid' }));
  expect(error.code).toBe('HARNESS_TIMEOUT');
  expect(error.message).toMatch(/timed out after 300 ms waiting for the response headers \(headers time-out\)/);
  expect(error.party).toBe('environment');
});

test('a body that declares more than the cap is refused before any of it is read', async () => {
  const target = await serve((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
    response.flushHeaders();
  });
  const error = await harnessError(client(target.url).get({ path: '/declared', credentials: 'valid' }));
  expect(error.code).toBe('HARNESS_BODY_TOO_LARGE');
  expect(error.message).toMatch(/declares 52428800 bytes, more than the 65536 the suite reads/);
});

test('an early hint before the answer, repeated headers and headers named like properties of every object are recorded as sent', async () => {
  // Written as raw bytes: node:http sends no early hint before an answer, nor a header named __proto__.
  const target = await serveSockets((socket) =>
    socket.once('data', () =>
      socket.end(
        [
          'HTTP/1.1 103 Early Hints\r\nLink: </hint>; rel=preload\r\n\r\n',
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Seen: a\r\nX-Seen: b\r\n__proto__: p\r\nConstructor: c\r\n',
          'Content-Length: 11\r\nConnection: close\r\n\r\n{"ok":true}',
        ].join(''),
      ),
    ),
  );
  rawServers.push(target);
  const { response } = await client(target.url).get({ path: '/api/ticket/status/1', credentials: 'valid' });
  expect(response.status).toBe(200);
  expect(response.json).toEqual({ ok: true, value: { ok: true } });
  expect(response.headers['x-seen']).toBe('a, b');
  expect(Object.getPrototypeOf(response.headers)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(response.headers, '__proto__')?.value).toBe('p');
  expect(Object.hasOwn(response.headers, 'constructor') && response.headers.constructor).toBe('c');
  expect(response.headers.link).toBeUndefined();
});

test('the deadline stops a body that never comes, and leaves no listener on the signal', async () => {
  const target = await serve((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    response.flushHeaders();
  });
  const interruption = new AbortController();
  const limited = client(target.url, { timeoutMs: SAFETY_NET_MS, deadlineAt: Date.now() + 300, interruption: interruption.signal });
  const error = await harnessError(limited.get({ path: '/stalls', credentials: 'valid' }));
  expect(error.code).toBe('HARNESS_DEADLINE');
  expect(error.message).toMatch(/before GET \/stalls was answered/);
  await limited.close();
  expect(getEventListeners(interruption.signal, 'abort')).toHaveLength(0);
});

test('the deadline stops a request in flight and refuses the next', async () => {
  const target = await serve(() => undefined);
  // The server never answers: only the deadline can end the request, however long it took to reach the server.
  const limited = client(target.url, { timeoutMs: SAFETY_NET_MS, deadlineAt: Date.now() + 300 });
  const inFlight = await harnessError(limited.get({ path: '/hangs', credentials: 'valid' }));
  expect(inFlight.code).toBe('HARNESS_DEADLINE');
  const seenAtDeadline = target.seen.length;
  expect((await harnessError(limited.get({ path: '/next', credentials: 'valid' }))).code).toBe('HARNESS_DEADLINE');
  expect(target.seen).toHaveLength(seenAtDeadline);
});

test("an interruption stops a request in flight, and a closed client leaves no listener on the run's signal", async () => {
  const target = await serve((request, response) => {
    if (request.url !== '/hangs') response.end('{}');
  });
  // The same signal serves every target of a matrix: a client that kept listening to it would be kept alive by it.
  const interruption = new AbortController();
  const interrupted = client(target.url, { timeoutMs: SAFETY_NET_MS, interruption: interruption.signal });
  await Promise.all(['/a', '/b', '/c'].map((path) => interrupted.get({ path, credentials: 'valid' })));
  const hanging = harnessError(interrupted.get({ path: '/hangs', credentials: 'valid' }));
  while (!target.seen.some((request) => request.url === '/hangs')) await new Promise((resolve) => setTimeout(resolve, 5));
  interruption.abort('SIGTERM');
  expect((await hanging).code).toBe('HARNESS_INTERRUPTED');
  await interrupted.close();
  const finished = new AbortController();
  const closed = client(target.url, { timeoutMs: SAFETY_NET_MS, interruption: finished.signal });
  await Promise.all(['/a', '/b', '/c'].map((path) => closed.get({ path, credentials: 'valid' })));
  await closed.close();
  expect(getEventListeners(finished.signal, 'abort')).toEqual([]);
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  expect(retryAfterMs('2', now)).toBe(2000);
  expect(retryAfterMs('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3000);
  expect(retryAfterMs('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
  expect(retryAfterMs('soon', now)).toBeUndefined();
  expect(retryAfterMs(undefined, now)).toBeUndefined();
});

test('JSON depth counts nesting, not brackets inside strings', () => {
  expect(jsonDepth('{"a":[1,{"b":"[[[[\\"{{"}]}')).toBe(3);
  const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
  // As deep as the vendor's PHP client reads (json_decode depth 512); deeper is the suite's own cap, said as such.
  expect(MAX_JSON_DEPTH).toBeGreaterThanOrEqual(512);
  expect(parseJson({ text: deep })).toEqual({
    ok: false,
    error: expect.stringMatching(/nested more than 512 levels deep, the suite's cap/) as string,
    why: 'suite-limit',
  });
  const allowed = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
  expect(parseJson({ text: allowed }).ok).toBe(true);
});

test('the request budget is enforced', async () => {
  const target = await serve((_request, response) => response.end('{}'));
  const limited = client(target.url, { maxRequests: 2 });
  await limited.get({ path: '/a', credentials: 'valid' });
  await limited.get({ path: '/b', credentials: 'valid' });
  expect((await harnessError(limited.get({ path: '/c', credentials: 'valid' }))).code).toBe('HARNESS_REQUEST_BUDGET');
  expect(target.seen).toHaveLength(2);
});

test('a token echoed back by the target is redacted from the record', async () => {
  const target = await serve((request, response) => response.end(JSON.stringify({ echo: request.headers.authorization, token: TOKEN })));
  const exchange = await client(target.url).get({ path: '/echo', credentials: 'valid' });
  expect(exchange.response.bodyText).not.toContain(TOKEN);
  expect(exchange.response.bodyText).not.toContain(Buffer.from(`${TOKEN}:x`).toString('base64'));
  expect(exchange.request.headers.authorization).toBe('Basic <redacted>');
  expect(exchange.request.curl).toBe(`curl -sS -u '<API_TOKEN>:x' '${target.url}/echo'`);
});

test.each([
  ['a header of its own, verbatim', { 'x-echo': TOKEN }],
  ['a link holding it in hex', { link: `<http://cdn.example/t/${Buffer.from(TOKEN).toString('hex')}>; rel="next"` }],
  ['a trace header holding the credential in base64', { 'x-trace': `request ${Buffer.from(`${TOKEN}:x`).toString('base64')} seen` }],
  ['the name of a header', { [`x-${TOKEN}`]: '1' }],
  ['one of a repeated header', { 'x-hop': ['plain', `via ${TOKEN.toUpperCase()}`] }],
])('a token in the answer headers, %s among plain ones, is redacted from the record', async (_shape, echoed) => {
  const target = await serve((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', server: 'Apache', ...echoed });
    response.end('{}');
  });
  const { headers } = (await client(target.url).get({ path: '/a', credentials: 'valid' })).response;
  expect(tokenFormsIn(JSON.stringify(headers), TOKEN)).toEqual([]);
  expect(JSON.stringify(headers)).toContain('<redacted>');
  expect(headers).toMatchObject({ 'content-type': 'application/json', server: 'Apache' });
});

test('a password given in the settings is shown as <PASSWORD> in every repro; the default x as it is', async () => {
  const target = await serve((_request, response) => response.end('{}'));
  const own = client(target.url, { password: 'my-own-pa55word', maxRequests: 3 });
  const repros = await Promise.all(
    (['valid', 'wrong-token', 'token-truncated'] as const).map(
      async (credentials) => (await own.get({ path: '/a', credentials })).request.curl,
    ),
  );
  expect(repros.join('\n')).not.toContain('my-own-pa55word');
  expect(repros).toEqual([
    `curl -sS -u '<API_TOKEN>:<PASSWORD>' '${target.url}/a'`,
    `curl -sS -u 'conformance-invalid-token-0000:<PASSWORD>' '${target.url}/a'`,
    `curl -sS -u "$(printf '%s' '<API_TOKEN>' | sed 's/.$//')"':<PASSWORD>' '${target.url}/a'`,
  ]);
});

test('what is kept of a long answer is its excerpt: the whole body is not held alive', async () => {
  const body = 'a'.repeat(200 * 1024);
  const target = await serve((_request, response) => response.end(body));
  const answers = 40;
  const many = client(target.url, { maxRequests: answers, maxBodyBytes: 1024 * 1024 });
  await many.get({ path: '/warm', credentials: 'valid' });
  collectGarbage();
  const before = getHeapStatistics().used_heap_size;
  const kept: Exchange[] = [];
  for (let answer = 1; answer < answers; answer += 1) kept.push(await many.get({ path: '/a', credentials: 'valid' }));
  collectGarbage();
  const grown = getHeapStatistics().used_heap_size - before;
  expect(kept.every((exchange) => exchange.response.bodyTruncated && exchange.response.bodyText.length === 4000)).toBe(true);
  // The bodies are about 8 MB; their excerpts a few hundred kB.
  expect(grown).toBeLessThan(3 * 1024 * 1024);
});

test('a base URL with a path prefix keeps it, with or without a trailing slash', () => {
  expect(client('https://example.com/support/').urlFor('/api/ticket/status/1', { lang: 'fr' }).toString()).toBe(
    'https://example.com/support/api/ticket/status/1?lang=fr',
  );
  expect(client('https://example.com/support').urlFor('/api/selfservice/type').toString()).toBe(
    'https://example.com/support/api/selfservice/type',
  );
});
