import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { formatSchemaErrors, validator } from '../../src/validators/schemas.js';
import { SETTINGS, type Setting } from '../../src/config/settings.js';
import { startReferenceServer } from '../../src/reference-server/server.js';
import type { Report } from '../../src/report/model/types.js';
import { fileResources } from '../helpers/file-resources.js';
import { failedRequirements, repoRoot } from '../helpers/run-cli.js';
import { userEnv } from '../helpers/user-env.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

const REPORT_FILES = ['report.json', 'report.md', 'junit.xml', 'allure-results'];
const TOKEN = 'packed-token-4d2e71';
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

function exec(file: string, args: string[], cwd: string, timeoutMs = SAFETY_NET_MS, env: Record<string, string> = {}): Promise<Output> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd, env: { ...userEnv, NO_COLOR: '1', ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

let work = '';
let project = '';
let bin = '';
let tarball = '';
const { cleanUpAfterAll, tempFolder } = fileResources();

beforeAll(async () => {
  work = await tempFolder('conformance-package-');
  // dist/ is compiled by the self-tests' global setup, as prepack compiles it when publishing (checked below); packing
  // without the script keeps dist/ in place for the other files' runs meanwhile.
  const pack = await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], repoRoot);
  expect(pack.code, pack.stderr).toBe(0);
  tarball = join(work, pack.stdout.trim().split('\n').at(-1) ?? '');
  // Where the GitHub Action installs the package: $RUNNER_TEMP/ticketing-conformance.
  project = join(work, 'ticketing-conformance');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), '{ "name": "uses-conformance", "private": true }\n');
  const install = await exec('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
  expect(install.code, install.stderr).toBe(0);
  bin = join(project, 'node_modules', '.bin', 'ticketing-conformance');
});

async function runInstalled(args: string[]): Promise<Output & { out: string; report?: Report }> {
  const out = await mkdtemp(join(work, 'out-'));
  const result = await exec(bin, [...args, '--out', out], project);
  const report = existsSync(join(out, 'report.json')) ? (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report) : undefined;
  return { ...result, out, report };
}

async function expectAllReports(out: string, report: Report | undefined): Promise<void> {
  expect((await readdir(out)).filter((name) => REPORT_FILES.includes(name)).sort()).toEqual([...REPORT_FILES].sort());
  expect((await readdir(join(out, 'allure-results'))).length).toBeGreaterThan(0);
  const validate = validator('report');
  expect(validate(report), formatSchemaErrors(validate.errors)).toBe(true);
}

test("docs/ci.md's figures of the installed suite the action caches are this install's", async () => {
  // Measured before any test writes into the folder, as the action caches it right after the install.
  const lock = JSON.parse(readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: object };
  const packages = Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/')).length;
  const bytes = await exec('du', ['-sb', project], work);
  const gzipped = await exec('bash', ['-c', 'tar -cf - -C "$0" . | gzip -6 | wc -c', project], work);
  const megabytes = (output: string): number => Number(output.trim().split(/\s/)[0]) / 1e6;
  const measured = { installed: megabytes(bytes.stdout), gzipped: megabytes(gzipped.stdout), packages };
  const ci = readFileSync(join(repoRoot, 'docs', 'ci.md'), 'utf8');
  const [, installed, compressed, count] = /the installed suite \((\d+) MB, (\d+) MB compressed with gzip, (\d+) packages\)/.exec(ci) ?? [];
  const measuredText = JSON.stringify(measured);
  // Sizes move a little with npm and the dependencies' patch releases; the package count is exact.
  expect(Math.abs(Number(installed) - measured.installed) / measured.installed, measuredText).toBeLessThanOrEqual(0.05);
  expect(Math.abs(Number(compressed) - measured.gzipped) / measured.gzipped, measuredText).toBeLessThanOrEqual(0.05);
  expect(Number(count), measuredText).toBe(measured.packages);
});

test('publishing builds dist/ as the self-tests do: prepack compiles from the same tsconfig as the global setup, then bundles the CLI', () => {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(scripts.prepack).toBe('npm run build');
  expect(scripts.build).toMatch(/rmSync\('dist'.*&& tsx scripts\/generate\/build\.ts$/);
  // The script runs the global setup's own build (test/helpers/build-package.ts), with the package's compiler settings.
  const script = readFileSync(join(repoRoot, 'scripts', 'generate', 'build.ts'), 'utf8');
  expect(script).toContain("import buildPackage from '../../test/helpers/build-package.js';");
});

test('the installed package holds compiled JavaScript only: no TypeScript source, no tsx, no dev dependency', () => {
  const installed = join(project, 'node_modules', 'ticketing-conformance');
  const files = readdirSync(installed, { recursive: true, encoding: 'utf8' });
  expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  expect(files.filter((file) => file.endsWith('.spec.js')).length).toBeGreaterThan(0);
  // Node 20 cannot load a .ts file without a loader such as tsx, so a run that passes below ran JavaScript only.
  const dev = Object.keys(
    (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: object }).devDependencies,
  );
  expect(dev.filter((name) => existsSync(join(project, 'node_modules', name)))).toEqual([]);
});

test('npx ticketing-conformance with no flags judges the embedded reference server and writes every report', async () => {
  const run = await runInstalled([]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
  expect(run.report?.target.embeddedReference).toBe(true);
  expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped, \d+ info in [\d.]+ s$/);
  await expectAllReports(run.out, run.report);
});

let brokenRun: ReturnType<typeof runInstalled> | undefined;
/** One installed run against a broken server, which is gone once the run has ended: the two tests below read it. */
function againstBrokenServer(): ReturnType<typeof runInstalled> {
  brokenRun ??= (async () => {
    const broken = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
    try {
      return await runInstalled(['--base-url', broken.url, '--token', TOKEN]);
    } finally {
      await broken.close();
    }
  })();
  return brokenRun;
}

test('--base-url and --token judge a server of its own: conformant passes, a broken one fails with its requirement', async () => {
  const good = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(good.close);

  const pass = await runInstalled(['--base-url', good.url, '--token', TOKEN]);
  expect(pass.code, pass.stderr).toBe(0);
  expect(pass.report?.target.baseUrl).toBe(new URL(good.url).toString());
  await expectAllReports(pass.out, pass.report);

  const fail = await againstBrokenServer();
  expect(fail.code, fail.stderr).toBe(1);
  expect(failedRequirements(fail.report)).toEqual(['STATUS-COLOUR']);
  await expectAllReports(fail.out, fail.report);
  for (const file of REPORT_FILES.slice(0, 3)) expect(readFileSync(join(fail.out, file), 'utf8')).not.toContain(TOKEN);
});

test('installed, a run writes recording.json and recording.har, and judge reaches its verdict again without the target', async () => {
  const live = await againstBrokenServer();
  expect(live.code, live.stderr).toBe(1);
  const har = JSON.parse(readFileSync(join(live.out, 'recording.har'), 'utf8')) as { log: { version: string; entries: unknown[] } };
  expect(har.log.version).toBe('1.2');
  expect(har.log.entries).toHaveLength(live.report?.requests.sent ?? -1);
  const recording = readFileSync(join(live.out, 'recording.json'), 'utf8');
  const validate = validator('recording');
  expect(validate(JSON.parse(recording)), formatSchemaErrors(validate.errors)).toBe(true);
  for (const text of [recording, JSON.stringify(har)]) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(Buffer.from(`${TOKEN}:x`).toString('base64'));
  }

  // The target is gone: only the recording can give the verdict.
  const judged = await runInstalled(['judge', join(live.out, 'recording.json')]);
  expect(judged.code, judged.stderr).toBe(1);
  expect(judged.stdout).toContain('no request was sent');
  expect(failedRequirements(judged.report)).toEqual(['STATUS-COLOUR']);
  expect(judged.report?.requirements).toEqual(live.report?.requirements);
  await expectAllReports(judged.out, judged.report);
});

test('--version and --help work installed; --help names every option with its environment variable', async () => {
  const shown = await exec(bin, ['--version'], project);
  expect(shown.stdout.trim()).toBe(version);
  const help = await exec(bin, ['--help'], project);
  expect(help.code).toBe(0);
  for (const spec of Object.values(SETTINGS) as Setting<unknown>[]) {
    expect(help.stdout).toContain(`--${spec.flag}`);
    if (spec.env) expect(help.stdout).toContain(spec.env);
  }
});

test('the programmatic API: run(options) from the installed package returns the report', async () => {
  const script = [
    "import { run } from 'ticketing-conformance';",
    "const report = await run({ out: 'api-reports', maxRequests: 40 });",
    'console.log(JSON.stringify({ verdict: report.verdict, exitCode: report.exitCode }));',
  ].join('\n');
  const result = await exec(process.execPath, ['--input-type=module', '-e', script], project);
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({ verdict: 'conformant', exitCode: 0 });
  expect(existsSync(join(project, 'api-reports', 'report.json'))).toBe(true);
});

interface ActionStep {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { steps: ActionStep[] };
}

test("the GitHub Action's run step runs the installed package and sets the outputs verdict and report-path", async () => {
  const broken = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
  cleanUpAfterAll(broken.close);
  const action = parse(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as Action;
  const step = action.runs.steps.find((candidate) => candidate.id === 'conformance');
  const inputs: Record<string, string> = {
    ...Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? ''])),
    'base-url': broken.url,
    token: TOKEN,
  };
  // What the runner does with the step's env: each ${{ inputs.NAME }} becomes the input's value.
  const env = Object.fromEntries(
    Object.entries(step?.env ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, input: string) => inputs[input] ?? ''),
    ]),
  );
  const workspace = await mkdtemp(join(work, 'workspace-'));
  const outputs = join(work, 'github-output');
  await writeFile(outputs, '');
  // The shell GitHub runs a composite step's bash script with.
  const result = await exec('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step?.run ?? 'false'], workspace, SAFETY_NET_MS, {
    ...env,
    RUNNER_TEMP: work,
    GITHUB_OUTPUT: outputs,
  });
  expect(result.code, result.stderr).toBe(1);
  const reportPath = `${inputs.out ?? ''}/report.json`;
  // GitHub's multi-line form, one random delimiter for both.
  const [, delimiter = ''] = /^verdict<<(.+)\n/.exec(readFileSync(outputs, 'utf8')) ?? [];
  expect(readFileSync(outputs, 'utf8')).toBe(
    `verdict<<${delimiter}\nnot-conformant\n${delimiter}\nreport-path<<${delimiter}\n${reportPath}\n${delimiter}\n`,
  );
  const report = JSON.parse(readFileSync(join(workspace, reportPath), 'utf8')) as Report;
  expect(failedRequirements(report)).toEqual(['STATUS-COLOUR']);
  expect(result.stdout).not.toContain(TOKEN);
});

interface GitlabJob {
  variables: Record<string, string>;
  script: string[];
}

test('the shell and GitLab examples run as written in a fresh folder with CONFORMANCE_PACKAGE set to the packed tarball', async () => {
  const good = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(good.close);
  const target = { CONFORMANCE_BASE_URL: good.url, CONFORMANCE_TOKEN: TOKEN };

  const shellFolder = await mkdtemp(join(work, 'shell-'));
  // The install folder kept between runs, as the script offers: the one the package was installed into above, so
  // the script installs the same tarball again over it instead of fetching every dependency anew.
  const shell = await exec('bash', [join(repoRoot, 'examples', 'conformance.sh')], shellFolder, SAFETY_NET_MS, {
    ...target,
    CONFORMANCE_PACKAGE: tarball,
    CONFORMANCE_INSTALL_DIR: project,
  });
  expect(shell.code, shell.stderr).toBe(0);
  expect(shell.stdout.trim().split('\n').at(-1)).toBe('conformant');
  expect(existsSync(join(shellFolder, 'conformance-reports', 'report.json'))).toBe(true);

  // The GitLab job: its variables (the token from the CI/CD variable), then its script lines, one shell each as GitLab runs them.
  const job = (parse(readFileSync(join(repoRoot, 'examples', 'gitlab-ci.yml'), 'utf8')) as Record<string, GitlabJob>)['api-conformance'];
  const gitlabFolder = await mkdtemp(join(work, 'gitlab-'));
  await writeFile(join(gitlabFolder, job?.variables.CONFORMANCE_PACKAGE ?? 'missing'), readFileSync(tarball));
  // The job's npm cache (.npm), as GitLab restores it from an earlier job: here the machine's own, already filled.
  const npmCache = await exec('npm', ['config', 'get', 'cache'], gitlabFolder);
  await symlink(npmCache.stdout.trim(), join(gitlabFolder, '.npm'));
  const script = (job?.script ?? []).join('\n');
  const gitlab = await exec('bash', ['-eo', 'pipefail', '-c', script], gitlabFolder, SAFETY_NET_MS, {
    ...job?.variables,
    CONFORMANCE_BASE_URL: good.url,
    CONFORMANCE_TOKEN: TOKEN,
  });
  expect(gitlab.code, gitlab.stderr).toBe(0);
  expect(existsSync(join(gitlabFolder, 'conformance-reports', 'junit.xml'))).toBe(true);

  const missing = await exec('bash', ['-eo', 'pipefail', '-c', script], gitlabFolder, SAFETY_NET_MS, {
    ...job?.variables,
    CONFORMANCE_PACKAGE: './not-packed-yet.tgz',
    CONFORMANCE_BASE_URL: good.url,
    CONFORMANCE_TOKEN: TOKEN,
  });
  expect(missing.code).toBe(2);
  expect(missing.stdout).toContain('could not install the suite');
});
