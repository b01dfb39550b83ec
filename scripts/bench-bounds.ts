import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer } from '../src/reference-server/server.js';
import { serveHttp } from '../test/helpers/loopback-server.js';
import { compile, compiledCli } from './bench/compile.js';
import { measure } from './bench/process-stats.js';

/**
 * npm run bench:bounds: what the bounds hold against the targets that test them. Peak memory of the compiled CLI
 * against a target answering every request with dense JSON (`[[],[],...]` just under 256 KiB), alone and as sixteen
 * targets of one matrix; and the time a run takes to exit through a proxy that never answers, with a 3 s deadline.
 */
const TOKEN = 'bench-bounds-token-5b90c1';
const TARGETS = 16;
const DENSE = `[${Array(87_000).fill('[]').join(',')}]`;

async function stalledProxy(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function bench(): Promise<void> {
  await compile();
  const work = await mkdtemp(join(tmpdir(), 'bench-bounds-'));
  const dense = await serveHttp((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(DENSE)) });
    response.end(DENSE);
  });
  const proxy = await stalledProxy();
  try {
    const reference = await startReferenceServer({ token: TOKEN });
    const peaks: string[] = [];
    for (const [name, url] of [
      ['reference server (baseline)', reference.url],
      ['dense JSON', dense.url],
    ] as const) {
      const one = await measure(process.execPath, [compiledCli, '--base-url', url, '--token', TOKEN, '--out', join(work, 'one')], {
        cwd: work,
      });
      const targetsFile = join(work, 'targets.json');
      const targets = Array.from({ length: TARGETS }, (_, index) => ({ name: `target-${index}`, baseUrl: url, tokenEnv: 'BENCH_TOKEN' }));
      await writeFile(targetsFile, JSON.stringify(targets));
      const matrix = await measure(
        process.execPath,
        [compiledCli, '--targets', targetsFile, '--target-concurrency', String(TARGETS), '--out', join(work, 'matrix')],
        { cwd: work, env: { ...process.env, BENCH_TOKEN: TOKEN } },
      );
      peaks.push(
        `${name}: peak RSS ${one.peakRssMb.toFixed(1)} MB for one target (exit ${one.code}), ${matrix.peakRssMb.toFixed(1)} MB for a ${TARGETS}-target matrix (exit ${matrix.code})`,
      );
    }
    await reference.close();
    const stalled = await measure(
      process.execPath,
      [
        compiledCli,
        '--base-url',
        'https://target.invalid',
        '--token',
        TOKEN,
        '--deadline-ms',
        '3000',
        '--timeout-ms',
        '600000',
        '--out',
        join(work, 'stalled'),
      ],
      { cwd: work, env: { ...process.env, HTTPS_PROXY: proxy.url }, timeoutMs: 600_000 },
    );
    for (const line of peaks) console.log(line);
    console.log(`stalled proxy, 3 s deadline: exit ${stalled.code} after ${(stalled.wallMs / 1000).toFixed(1)} s (--timeout-ms 600000)`);
  } finally {
    await Promise.all([dense.close(), proxy.close()]);
    await rm(work, { recursive: true, force: true });
  }
}

await bench();
