import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, test } from 'vitest';
import { cli } from '../src/cli/cli.js';
import { TARGETS_DIR } from '../src/pipeline/matrix.js';
import type { Report } from '../src/report/model/types.js';
import type { Matrix } from '../src/report/matrix/types.js';
import { validator } from '../src/validators/schemas.js';
import { fileResources } from './helpers/file-resources.js';
import { unfrozenPaths } from './helpers/frozen.js';
import { serveHttp } from './helpers/loopback-server.js';
import { SAFETY_NET_MS, removeFolder } from './helpers/safety-net.js';

const { inProcess, tempFolder, cleanUpAfterAll } = fileResources();
const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map(removeFolder));
});

test('a matrix interrupted while a target hangs sends nothing more, writes every report and the matrix cut short, and exits 130', async () => {
  // Two targets that never answer, recorded one at a time: the second has sent nothing when the signal comes.
  const servers = [await serveHttp(() => undefined), await serveHttp(() => undefined)];
  const folder = await mkdtemp(join(tmpdir(), 'conformance-interrupted-matrix-'));
  folders.push(folder);
  const targets = join(folder, 'targets.yaml');
  await writeFile(
    targets,
    `targets:\n${servers.map((server, index) => `  - { name: t${index}, baseUrl: "${server.url}", tokenEnv: MATRIX_TOKEN }\n`).join('')}`,
  );
  const controller = new AbortController();
  const errors: string[] = [];
  const out = join(folder, 'out');
  const running = cli(['--targets', targets, '--target-concurrency', '1', '--concurrency', '1', '--out', out, '--reports', 'json'], {
    log: () => undefined,
    error: (line) => errors.push(line),
    progress: () => undefined,
    colour: { stdout: false, stderr: false },
    env: {
      MATRIX_TOKEN: 'interrupted-matrix-token-8d',
      CONFORMANCE_TIMEOUT_MS: String(SAFETY_NET_MS),
      CONFORMANCE_DEADLINE_MS: String(SAFETY_NET_MS),
    },
    dotenvPath: join(folder, '.env'),
    startedAt: new Date(),
    interruptible: () => ({ signal: controller.signal, stop: () => undefined }),
  });
  const waitUntil = Date.now() + SAFETY_NET_MS;
  while (servers.every((server) => server.requests.length === 0) && Date.now() < waitUntil) await sleep(20);
  const seen = servers.map((server) => server.requests.length);
  controller.abort('SIGINT');
  expect(await running).toBe(130);
  expect(servers.map((server) => server.requests.length)).toEqual(seen);
  expect(errors.join('\n')).toMatch(/^Interrupted by Ctrl-C \(SIGINT\): no request was sent after it; /m);
  const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
  expect(validator('matrix')(matrix)).toBe(true);
  expect(matrix.targets.map((target) => target.verdict)).toEqual(['inconclusive', 'inconclusive']);
  for (const name of ['t0', 't1']) {
    const report = JSON.parse(await readFile(join(out, TARGETS_DIR, name, 'report.json'), 'utf8')) as Report;
    expect(validator('report')(report)).toBe(true);
    expect(report.complete).toBe(false);
    expect(report.errors.map((error) => error.code)).toContain('HARNESS_INTERRUPTED');
  }
  await Promise.all(servers.map((server) => server.close()));
});

test('a matrix cut short is built once, frozen, and written as built: every target without a verdict, the file on its schema', async () => {
  const servers = [await serveHttp(() => undefined), await serveHttp(() => undefined)];
  for (const server of servers) cleanUpAfterAll(server.close);
  const folder = await tempFolder('conformance-interrupted-frozen-');
  const targets = join(folder, 'targets.json');
  await writeFile(
    targets,
    JSON.stringify(servers.map((server, index) => ({ name: `t${index}`, baseUrl: server.url, tokenEnv: 'MATRIX_TOKEN' }))),
  );
  const controller = new AbortController();
  const running = inProcess.matrix(
    ['--targets', targets, '--target-concurrency', '1', '--concurrency', '1'],
    { MATRIX_TOKEN: 'interrupted-frozen-token-3c' },
    controller.signal,
  );
  const waitUntil = Date.now() + SAFETY_NET_MS;
  while (servers.every((server) => server.requests.length === 0) && Date.now() < waitUntil) await sleep(20);
  controller.abort('SIGTERM');
  const { matrix, outDir } = await running;
  expect(unfrozenPaths(matrix)).toEqual([]);
  expect(matrix.targets.map((target) => target.verdict)).toEqual(['inconclusive', 'inconclusive']);
  expect(matrix.exitCode).toBe(2);
  const written = JSON.parse(await readFile(join(outDir, 'matrix.json'), 'utf8')) as Matrix;
  expect(validator('matrix')(written)).toBe(true);
  expect(written).toEqual(JSON.parse(JSON.stringify(matrix)));
});
