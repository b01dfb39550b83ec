import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as relay } from 'node:http';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, expect, test } from 'vitest';
import { CLI_BUNDLE_DIR, LEFT_OUT_MESSAGE, LEFT_OUT_PART, undiciWithoutUnusedParts } from '../scripts/generate/bundle-cli.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { runCli, repoRoot } from './helpers/run-cli.js';
import { selfSignedCertificate } from './helpers/self-signed.js';

const scratch = mkdtempSync(join(tmpdir(), 'bundled-undici-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every value the suite's source imports from undici's index (a type import costs nothing at run time). */
function valuesImportedFromUndici(): string[] {
  const names = new Set<string>();
  const sources = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  for (const file of sources) {
    const text = readFileSync(join(repoRoot, 'src', file), 'utf8');
    for (const [, list] of text.matchAll(/import \{([^}]*)\} from 'undici';/g)) {
      for (const name of list?.split(',').map((entry) => entry.trim()) ?? []) {
        if (name !== '' && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return [...names].sort();
}

/** undici's index bundled as the command line bundles it, with the values named re-exported beside the left-out ones. */
async function bundledUndici(names: string[]): Promise<Record<string, unknown>> {
  const entry = join(scratch, 'entry.mjs');
  writeFileSync(entry, `export { ${[...names, 'fetch', 'Headers', 'WebSocket', 'caches', 'MockAgent'].join(', ')} } from 'undici';\n`);
  await build({
    entryPoints: [entry],
    outfile: join(scratch, 'undici.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    nodePaths: [join(repoRoot, 'node_modules')],
    plugins: [undiciWithoutUnusedParts()],
    banner: { js: "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return (await import(pathToFileURL(join(scratch, 'undici.mjs')).href)) as Record<string, unknown>;
}

test('the bundle keeps whole every part of undici the source imports, and a left-out part throws when used', async () => {
  const names = valuesImportedFromUndici();
  expect(names).toEqual(expect.arrayContaining(['Agent', 'buildConnector']));
  const bundled = await bundledUndici(names);
  const whole = (await import('undici')) as unknown as Record<string, unknown>;
  const partOf = (value: unknown): unknown => (value as Record<symbol, unknown>)[Symbol.for(LEFT_OUT_PART)];
  for (const name of names) {
    expect([typeof bundled[name], partOf(bundled[name])], name).toEqual([typeof whole[name], undefined]);
  }
  expect(['Headers', 'WebSocket', 'caches', 'MockAgent'].map((name) => partOf(bundled[name]))).toEqual([
    'undici/lib/web/fetch/headers',
    'undici/lib/web/websocket/websocket',
    'undici/lib/web/cache/cachestorage',
    'undici/lib/mock/mock-agent',
  ]);

  const served: string[] = [];
  const server = createServer((request, response) => {
    served.push(`${request.method} ${request.url}`);
    response.end('{"status":"success"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const Agent = bundled.Agent as typeof import('undici').Agent;
  const agent = new Agent({ connect: (bundled.buildConnector as typeof import('undici').buildConnector)({}) });
  try {
    // As the client sends: the dispatcher's own request, given the origin and the path.
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await agent.request({ origin, path: '/api/ticket/status/1?lang=fr', method: 'GET' });
    expect([response.statusCode, await response.body.text()]).toEqual([200, '{"status":"success"}']);
    expect(served).toEqual(['GET /api/ticket/status/1?lang=fr']);
  } finally {
    await agent.close();
    server.close();
  }

  const fetch = bundled.fetch as () => unknown;
  expect(() => fetch()).toThrow(`undici/lib/web/fetch: fetch ${LEFT_OUT_MESSAGE}`);
  const WebSocket = bundled.WebSocket as new () => { send: unknown };
  expect(() => new WebSocket().send).toThrow(`WebSocket.send ${LEFT_OUT_MESSAGE}`);
  expect(() => (bundled.caches as { open: unknown }).open).toThrow(`CacheStorage.open ${LEFT_OUT_MESSAGE}`);
  expect(() => new (bundled.MockAgent as new () => { get: unknown })().get).toThrow(`mock-agent.get ${LEFT_OUT_MESSAGE}`);
});

test('the bundled command line holds the parts of undici the client runs on and none of the parts left out', () => {
  const folder = join(repoRoot, 'dist', CLI_BUNDLE_DIR);
  const bundle = readdirSync(folder)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('\n');
  // esbuild heads each module it bundles with its path.
  const modules = new Set([...bundle.matchAll(/^\/\/ (node_modules\/undici\/\S+)$/gm)].map(([, path]) => path));
  for (const kept of ['agent', 'pool', 'env-http-proxy-agent', 'proxy-agent', 'client', 'client-h1']) {
    expect(modules).toContain(`node_modules/undici/lib/dispatcher/${kept}.js`);
  }
  expect(modules).toContain('node_modules/undici/lib/api/api-request.js');
  expect(modules).toContain('node_modules/undici/lib/core/connect.js');
  // Were undici to move these, the stand-ins would match nothing: the bundle would still work, only load more.
  for (const leftOut of ['web/fetch/index.js', 'web/websocket/websocket.js', 'web/cookies/index.js', 'web/eventsource/eventsource.js']) {
    expect(modules).not.toContain(`node_modules/undici/lib/${leftOut}`);
  }
  for (const leftOut of ['mock/mock-agent.js', 'cache/memory-cache-store.js', 'web/cache/cachestorage.js', 'dispatcher/client-h2.js']) {
    expect(modules).not.toContain(`node_modules/undici/lib/${leftOut}`);
  }
});

test('the bundled command line speaks HTTP/1.1 to a target whose TLS offers HTTP/2 first, and is judged conformant', async () => {
  const token = 'h2-first-token';
  const reference = await startReferenceServer({ token });
  const upstream = new URL(reference.url);
  const identity = await selfSignedCertificate();
  const versions: string[] = [];
  // HTTP/2 preferred, HTTP/1.1 allowed, as a front such as nginx with http2 on: a client offering h2 would get it.
  const front = createSecureServer({ key: identity.key, cert: identity.cert, allowHTTP1: true }, (incoming, outgoing) => {
    versions.push(incoming.httpVersion);
    const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !name.startsWith(':')));
    const forwarded = relay({ host: upstream.hostname, port: upstream.port, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    forwarded.end();
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  try {
    const url = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
    const run = await runCli(['--base-url', url, '--token', token, '--ca', identity.certPath, '--reports', 'json']);
    await run.cleanup();
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(versions.length).toBeGreaterThan(0);
    expect(new Set(versions)).toEqual(new Set(['1.1']));
  } finally {
    await new Promise((resolve) => front.close(resolve));
    await reference.close();
    await identity.cleanup();
  }
});
