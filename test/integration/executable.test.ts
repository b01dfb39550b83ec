import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatSchemaErrors, validator } from '../../src/validators/schemas.js';
import type { Report } from '../../src/report/model/types.js';
import { hostileTargets } from '../helpers/hostile-targets.js';
import { serveHttp } from '../helpers/loopback-server.js';
import { execCli, repoRoot } from '../helpers/run-cli.js';
import { SAFETY_NET_MS, TEST_SAFETY_NET_MS, removeFolder } from '../helpers/safety-net.js';

const BUILT = join(repoRoot, 'dist', 'ticketing-conformance-linux-x64');
const TOKEN = 'single-file-token-58b1';

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The executable copied alone into an empty folder, and a PATH of one more empty folder: no Node to fall back on. */
let folder: string;
let executable: string;
let env: Record<string, string>;
const started: { stop(): void }[] = [];

beforeAll(async () => {
  await new Promise<void>((done, fail) =>
    execFile('npm', ['run', '--silent', 'build:executable'], { cwd: repoRoot, timeout: SAFETY_NET_MS }, (error, _stdout, stderr) =>
      error ? fail(new Error(`npm run build:executable failed: ${stderr}`)) : done(),
    ),
  );
  folder = await mkdtemp(join(tmpdir(), 'conformance-executable-'));
  const bin = join(folder, 'empty-bin');
  await mkdir(bin);
  await mkdir(join(folder, 'work'));
  executable = join(folder, 'work', 'ticketing-conformance-linux-x64');
  await copyFile(BUILT, executable);
  env = { PATH: bin, HOME: join(folder, 'home'), NO_COLOR: '1', TOKEN };
}, TEST_SAFETY_NET_MS);

afterAll(async () => {
  for (const server of started) server.stop();
  await removeFolder(folder);
});

/** Runs the executable itself, in its folder, with nothing of this process's environment. */
function runExecutable(args: string[], extraEnv: Record<string, string> = {}): Promise<Output> {
  return new Promise((done) => {
    execFile(
      executable,
      args,
      { cwd: join(folder, 'work'), env: { ...env, ...extraEnv }, timeout: SAFETY_NET_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Starts a listening command of the executable (serve, exporter) and resolves with the address it prints. */
function listen(args: string[], printed: RegExp, extraEnv: Record<string, string> = {}): Promise<string> {
  const child = spawn(executable, args, { cwd: join(folder, 'work'), env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push({ stop: () => child.kill('SIGTERM') });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = printed.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code} before listening: ${output}`)));
  });
}

const reportIn = async (outDir: string): Promise<Report> => JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report;

/** What a run decided: its gate, its verdict, and the verdict of each requirement. */
function decisions(code: number | null, report: Report): object {
  return {
    code,
    verdict: report.verdict,
    exitCode: report.exitCode,
    requirements: Object.fromEntries(report.requirements.map((requirement) => [requirement.id, requirement.verdict])),
  };
}

/** The same run by the executable and by the package's command line: the same decisions, each report valid. */
async function judgedAlike(name: string, args: string[], expectedCode: number): Promise<Report> {
  const single = join(folder, 'work', `${name}-single`);
  const packaged = join(folder, `${name}-package`);
  const fromExecutable = await runExecutable([...args, '--token', TOKEN, '--reports', 'json', '--out', single]);
  const fromPackage = await execCli([...args, '--token', TOKEN, '--reports', 'json', '--out', packaged], folder);
  const [singleReport, packageReport] = [await reportIn(single), await reportIn(packaged)];
  const validate = validator('report');
  expect(validate(singleReport), formatSchemaErrors(validate.errors)).toBe(true);
  expect(fromExecutable.code, fromExecutable.stderr).toBe(expectedCode);
  expect(decisions(fromExecutable.code, singleReport)).toEqual(decisions(fromPackage.code, packageReport));
  return singleReport;
}

test("the README's size of the executable is the built one's, within the 3 % a Node 24 release may move it", async () => {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const stated = Number(/writes `dist\/ticketing-conformance-linux-x64`: (\d+) MB/.exec(readme)?.[1]);
  const built = (await stat(BUILT)).size / 1e6;
  expect(Math.abs(stated - built) / built, `README.md says ${stated} MB, the build is ${built.toFixed(1)} MB`).toBeLessThanOrEqual(0.03);
});

test('the executable runs with no Node to be found: neither on its PATH nor beside it', async () => {
  expect(await readdir(env.PATH ?? '')).toEqual([]);
  expect(await readdir(join(folder, 'work'))).toEqual(['ticketing-conformance-linux-x64']);
  const version = await runExecutable(['--version']);
  expect(version.code).toBe(0);
  expect(version.stdout).toMatch(/\d+\.\d+\.\d+/);
});

test(
  'the reference server the executable serves is judged conformant by it, as by the package',
  async () => {
    const url = await listen(['serve', '--port', '0', '--token', TOKEN], /Reference server at (\S+?)\. /);
    const report = await judgedAlike('reference', ['--base-url', url], 0);
    expect(report.verdict).toBe('conformant');
  },
  TEST_SAFETY_NET_MS,
);

test(
  'a faulty server is judged not conformant by the executable, on the same requirements as by the package',
  async () => {
    const url = await listen(
      ['serve', '--port', '0', '--token', TOKEN, '--fault', 'status-ok', '--fault', 'name-null'],
      /Reference server at (\S+?) with /,
    );
    const report = await judgedAlike('faulty', ['--base-url', url], 1);
    expect(report.requirements.filter((requirement) => requirement.verdict === 'fail').length).toBeGreaterThan(0);
  },
  TEST_SAFETY_NET_MS,
);

const CLOUDFLARE_BLOCK_PAGE =
  '<!DOCTYPE html><html lang="en-US"><head><title>Attention Required! | Cloudflare</title></head><body><div id="cf-wrapper"><h1>Sorry, you have been blocked</h1></div></body></html>';

/** Servers that are not the reference: one that breaks the API's answers, and a front that never lets a request through. */
const unusualServers: [string, () => Promise<{ url: string; close(): Promise<void> }>, number][] = [
  ['an API answering 500 to everything', () => hostileTargets['error-500'](TOKEN), 1],
  ['an API answering text that is not JSON', () => hostileTargets['not-json'](TOKEN), 1],
  [
    "a WAF's block page in front of the API",
    () =>
      serveHttp((_request, response) => {
        response.writeHead(403, { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' });
        response.end(CLOUDFLARE_BLOCK_PAGE);
      }),
    2,
  ],
];

test.each(unusualServers)(
  '%s is judged by the executable as by the package',
  async (_name, start, expectedCode) => {
    const server = await start();
    try {
      await judgedAlike(`unusual-${expectedCode}-${server.url.split(':').at(-1)}`, ['--base-url', server.url], expectedCode);
    } finally {
      await server.close();
    }
  },
  TEST_SAFETY_NET_MS,
);

test(
  'judge, doctor, init and the exporter run from the executable alone',
  async () => {
    const url = await listen(['serve', '--port', '0', '--token', TOKEN], /Reference server at (\S+?)\. /);
    const recorded = join(folder, 'work', 'recorded');
    expect((await runExecutable(['--base-url', url, '--token', TOKEN, '--reports', 'json,recording', '--out', recorded])).code).toBe(0);
    const judged = await runExecutable(['judge', join(recorded, 'recording.json'), '--out', join(folder, 'work', 'judged')]);
    expect(judged.code, judged.stderr).toBe(0);
    expect((await reportIn(join(folder, 'work', 'judged'))).verdict).toBe('conformant');

    const doctor = await runExecutable(['doctor', '--base-url', url, '--token', TOKEN]);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain('no problem found');

    const init = await runExecutable(['init', '--out', join(folder, 'work', 'init')]);
    expect(init.code, init.stderr).toBe(0);
    expect((await readdir(join(folder, 'work', 'init'))).sort()).toEqual(['.env', 'targets.yaml']);

    const targets = join(folder, 'work', 'targets.yaml');
    await writeFile(targets, `targets:\n  - name: reference\n    baseUrl: ${url}\n    tokenEnv: TOKEN\n`);
    const exporter = await listen(['exporter', '--targets', targets, '--listen', '127.0.0.1:0'], /Exporter at (\S+?) for /);
    const probe = await fetch(`${exporter}/probe?target=reference`);
    expect(await probe.text()).toContain('ticketing_conformance_verdict{verdict="conformant"} 1');
  },
  TEST_SAFETY_NET_MS,
);
