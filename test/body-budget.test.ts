import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, expect, test } from 'vitest';
import { BODY_ALLOWANCE_BYTES, BodyBudget, SHARED_BODY_BYTES } from '../src/http/body-budget.js';
import { HarnessError } from '../src/errors.js';
import { HttpClient } from '../src/http/client.js';

test('each body holds its allowance freely and shares the bytes beyond it, within the cap', () => {
  const budget = new BodyBudget(1000, 100, 300);
  expect(budget.limit()).toBe(400);
  const first = budget.grow(350, 0);
  expect(first).toBe(250);
  // The second body may use what the first left of the shared bytes, and no more.
  expect(budget.limit()).toBe(150);
  expect(budget.grow(150, 0)).toBe(50);
  expect(budget.grow(151, 50)).toBeUndefined();
  budget.release(50);
  budget.release(first ?? 0);
  expect(budget.limit()).toBe(400);
  expect(new BodyBudget(300, 100, 1000).grow(301, 0)).toBeUndefined();
});

test('once a body was cut for its size, the others keep to the allowance', () => {
  const budget = new BodyBudget(1000, 100, 300);
  expect(budget.grow(90, 0)).toBe(0);
  budget.cut();
  expect(budget.limit()).toBe(100);
  expect(budget.grow(100, 0)).toBe(0);
  expect(budget.grow(101, 0)).toBeUndefined();
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function serve(body: (path: string) => { headers?: Record<string, string>; chunks: Buffer[] }): Promise<string> {
  const server = createServer((request, response) => {
    const { headers = {}, chunks } = body(request.url ?? '/');
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    const next = (): void => {
      const chunk = chunks.shift();
      if (!chunk) return void response.end();
      if (response.write(chunk)) setImmediate(next);
      else response.once('drain', next);
    };
    response.on('error', () => undefined);
    next();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const MB = 1024 * 1024;
const client = (baseUrl: string): HttpClient =>
  new HttpClient({ baseUrl, token: 'budget-token', password: 'x', timeoutMs: 5000, maxBodyBytes: MB, maxRequests: 40, userAgent: 'test' });
const failure = async (promise: Promise<unknown>): Promise<HarnessError | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => error as HarnessError,
  );

test('one large answer under the cap is read whole', async () => {
  const url = await serve(() => ({ chunks: [Buffer.from(`"${'a'.repeat(900 * 1024)}"`)] }));
  const exchange = await client(url).get({ path: '/large', credentials: 'valid' });
  expect(exchange.response.bytes).toBe(900 * 1024 + 2);
});

test('a target answering every request with a huge body is cut at the allowance once the shared bytes are spent', async () => {
  const url = await serve(() => ({ chunks: Array.from({ length: 80 }, () => Buffer.alloc(64 * 1024, 0x61)) }));
  const http = client(url);
  const errors = await Promise.all(
    Array.from({ length: 15 }, (_, index) => failure(http.get({ path: `/huge/${index}`, credentials: 'valid' }))),
  );
  expect(errors.map((error) => error?.code)).toEqual(Array(15).fill('HARNESS_BODY_TOO_LARGE'));
  // Fifteen bodies at the 1 MB cap would hold 15 MB; the budget lets them hold 15 allowances and the 2 MB shared. Which
  // body holds how much of the shared bytes depends on how they interleave: together they never hold more than those.
  const cutAt = errors.map((error) => Number(/larger than (\d+) bytes/.exec(error?.message ?? '')?.[1]));
  for (const size of cutAt) {
    expect(size).toBeGreaterThanOrEqual(BODY_ALLOWANCE_BYTES);
    expect(size).toBeLessThanOrEqual(MB);
  }
  expect(cutAt.reduce((sum, size) => sum + size - BODY_ALLOWANCE_BYTES, 0)).toBeLessThanOrEqual(SHARED_BODY_BYTES);
});

test('after a compressed bomb, the next answers of that target unpack within the allowance', async () => {
  const bomb = gzipSync(Buffer.alloc(50 * MB, 0x20));
  const url = await serve((path) =>
    path === '/bomb'
      ? { headers: { 'content-encoding': 'gzip' }, chunks: [bomb] }
      : { headers: { 'content-encoding': 'gzip' }, chunks: [gzipSync(Buffer.alloc(300 * 1024, 0x20))] },
  );
  const http = client(url);
  expect((await failure(http.get({ path: '/bomb', credentials: 'valid' })))?.message).toMatch(/unpacks to more than 1048576 bytes/);
  expect((await failure(http.get({ path: '/next', credentials: 'valid' })))?.message).toMatch(/unpacks to more than 262144 bytes/);
});
