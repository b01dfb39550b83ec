import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference-server/server.js';
import type { Report } from '../../src/report/model/types.js';
import { fileResources } from '../helpers/file-resources.js';
import { failedRequirements, repoRoot } from '../helpers/run-cli.js';
import { userEnv } from '../helpers/user-env.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

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
      { cwd, env: { ...userEnv, NO_COLOR: '1', ...env }, timeout: SAFETY_NET_MS, maxBuffer: 16 * 1024 * 1024 },
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

describe('a package that is not a checkout is installed where no one else can have put anything', () => {
  /**
   * An npm that installs, into the --prefix it is given, a suite that says where it runs from and exits 0; each
   * --prefix is logged.
   */
  async function fakeNpm(folder: string): Promise<{ path: string; prefixes: () => string[] }> {
    const bin = join(folder, 'fake-npm-bin');
    const log = join(folder, 'prefixes.log');
    await mkdir(bin);
    await writeFile(
      join(bin, 'npm'),
      [
        '#!/usr/bin/env bash',
        'while [ $# -gt 0 ]; do if [ "$1" = --prefix ]; then prefix=$2; fi; shift; done',
        `printf '%s\\n' "$prefix" >> ${JSON.stringify(log)}`,
        'mkdir -p "$prefix/node_modules/.bin"',
        `printf '#!/usr/bin/env bash\\necho "installed suite in %s"\\n' "$prefix" > "$prefix/node_modules/.bin/ticketing-conformance"`,
        'chmod +x "$prefix/node_modules/.bin/ticketing-conformance"',
      ].join('\n'),
      { mode: 0o755 },
    );
    return {
      path: `${bin}:${process.env.PATH ?? ''}`,
      prefixes: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []),
    };
  }

  test('without CONFORMANCE_INSTALL_DIR, a new folder of its own, removed at the end; the shared name is left alone', async () => {
    const folder = await mkdtemp(join(work, 'fresh-'));
    const tmp = join(folder, 'tmp');
    // What another user of the machine could have made under the name the script once used.
    const planted = join(tmp, 'ticketing-conformance-install');
    await mkdir(join(planted, 'node_modules'), { recursive: true });
    await writeFile(join(planted, 'package.json'), '{ "private": true, "dependencies": { "undici": "file:./planted" } }\n');
    const npm = await fakeNpm(folder);
    const env = { CONFORMANCE_BASE_URL: good.url, CONFORMANCE_TOKEN: TOKEN, CONFORMANCE_PACKAGE: 'ticketing-conformance@0.1.0' };
    const runs = [
      await runScript(SCRIPT, folder, { ...env, TMPDIR: tmp, PATH: npm.path }),
      await runScript(SCRIPT, folder, { ...env, TMPDIR: tmp, PATH: npm.path }),
    ];
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const prefixes = npm.prefixes();
    expect(prefixes).toHaveLength(2);
    expect(new Set(prefixes).size).toBe(2);
    for (const [index, prefix] of prefixes.entries()) {
      expect(prefix.startsWith(`${tmp}/ticketing-conformance-install.`)).toBe(true);
      expect(runs[index]?.stdout).toContain(`installed suite in ${prefix}`);
      expect(existsSync(prefix)).toBe(false);
    }
    expect(readFileSync(join(planted, 'package.json'), 'utf8')).toContain('planted');
  });

  test('CONFORMANCE_INSTALL_DIR is kept between runs, and refused when another user owns it', async () => {
    const folder = await mkdtemp(join(work, 'fresh-'));
    const npm = await fakeNpm(folder);
    const env = {
      CONFORMANCE_BASE_URL: good.url,
      CONFORMANCE_TOKEN: TOKEN,
      CONFORMANCE_PACKAGE: 'ticketing-conformance@0.1.0',
      PATH: npm.path,
    };
    const own = join(folder, 'install');
    const kept = await runScript(SCRIPT, folder, { ...env, CONFORMANCE_INSTALL_DIR: own });
    expect(kept.code, kept.stderr).toBe(0);
    expect(existsSync(join(own, 'node_modules', '.bin', 'ticketing-conformance'))).toBe(true);

    // Root owns everything it makes, so it hands one to nobody; any other user meets a folder of root's.
    const foreign = process.getuid?.() === 0 ? join(folder, 'foreign') : '/';
    if (foreign !== '/') {
      await mkdir(foreign);
      await chown(foreign, 65534, 65534);
    }
    const refused = await runScript(SCRIPT, folder, { ...env, CONFORMANCE_INSTALL_DIR: foreign });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('(CONFORMANCE_INSTALL_DIR): it cannot be made, or belongs to another user; no verdict');
    expect(npm.prefixes()).toEqual([own]);
  });
});
