import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { failedRequirements, repoRoot } from './helpers/run-cli.js';
import { userEnv } from './helpers/user-env.js';

const TOKEN = 'example-token-8e13c0';
const SCRIPT = join(repoRoot, 'examples', 'conformance.sh');

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

function runScript(script: string, cwd: string, env: Record<string, string>): Promise<Output> {
  return new Promise((done) => {
    execFile(
      'bash',
      [script],
      { cwd, env: { ...userEnv, NO_COLOR: '1', ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

const { cleanUpAfterAll, tempFolder } = fileResources();
let work = '';
let good: RunningReferenceServer;
let broken: RunningReferenceServer;

beforeAll(async () => {
  work = await tempFolder('conformance-examples-');
  good = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(good.close);
  broken = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
  cleanUpAfterAll(broken.close);
});

const reportIn = (folder: string): Report => JSON.parse(readFileSync(join(folder, 'conformance-reports', 'report.json'), 'utf8')) as Report;

test('examples/conformance.sh runs as written from a checkout, in a fresh folder: 0 on a conformant target', async () => {
  const folder = await mkdtemp(join(work, 'fresh-'));
  const run = await runScript(SCRIPT, folder, { CONFORMANCE_BASE_URL: good.url, CONFORMANCE_TOKEN: TOKEN });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim().split('\n').at(-1)).toBe('conformant');
  expect(reportIn(folder).verdict).toBe('conformant');
  expect(run.stdout + run.stderr).not.toContain(TOKEN);
});

test('examples/conformance.sh gives 1 and points at a report.md that exists when the target is not conformant', async () => {
  const folder = await mkdtemp(join(work, 'fresh-'));
  const run = await runScript(SCRIPT, folder, { CONFORMANCE_BASE_URL: broken.url, CONFORMANCE_TOKEN: TOKEN });
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toContain('not conformant: see conformance-reports/report.md');
  expect(existsSync(join(folder, 'conformance-reports', 'report.md'))).toBe(true);
  expect(failedRequirements(reportIn(folder))).toEqual(['STATUS-COLOUR']);
});

test('a package that cannot be installed exits 2 with its own message, never "not conformant"', async () => {
  const folder = await mkdtemp(join(work, 'fresh-'));
  const run = await runScript(SCRIPT, folder, {
    CONFORMANCE_BASE_URL: good.url,
    CONFORMANCE_TOKEN: TOKEN,
    CONFORMANCE_PACKAGE: join(folder, 'no-such-ticketing-conformance-0.1.0.tgz'),
    CONFORMANCE_INSTALL_DIR: join(folder, 'install'),
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('could not install the suite from');
  expect(run.stdout).not.toContain('not conformant');
  expect(existsSync(join(folder, 'conformance-reports'))).toBe(false);
});

test('a checkout whose dependencies are not installed exits 2 and says to run npm ci', async () => {
  const checkout = await mkdtemp(join(work, 'checkout-'));
  await mkdir(join(checkout, 'bin'));
  await symlink(join(repoRoot, 'bin', 'ticketing-conformance.js'), join(checkout, 'bin', 'ticketing-conformance.js'));
  const run = await runScript(SCRIPT, checkout, {
    CONFORMANCE_BASE_URL: good.url,
    CONFORMANCE_TOKEN: TOKEN,
    CONFORMANCE_PACKAGE: checkout,
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("run 'npm ci' there first");
});

test('without its address or token the script says which variable to set', async () => {
  const folder = await mkdtemp(join(work, 'fresh-'));
  const run = await runScript(SCRIPT, folder, { CONFORMANCE_TOKEN: TOKEN });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('set CONFORMANCE_BASE_URL');
});
