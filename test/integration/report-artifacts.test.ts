import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference-server/server.js';
import type { Report } from '../../src/report/model/types.js';
import { fileResources } from '../helpers/file-resources.js';
import { repoRoot, type CliRun } from '../helpers/run-cli.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

const TOKEN = 'artifacts-token-41d7aa';
const { inProcess, cleanUpAfterAll } = fileResources({ reports: ['json', 'allure'] });
let run: CliRun | undefined;

beforeAll(async () => {
  // A status without translations leaves the translation requirements unjudged: failures, skips and passes in one run.
  const server = await startReferenceServer({ token: TOKEN, variants: ['selfservice-missing'] });
  cleanUpAfterAll(server.close);
  run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--status-id', '3']);
  cleanUpAfterAll(run.cleanup);
});

function finished(): { run: CliRun; report: Report } {
  if (!run?.report) throw new Error('the run wrote no report.json');
  return { run, report: run.report };
}

test('npm run report:allure -- DIR makes a single-file report of that folder that calls nobody', async () => {
  const { run: finishedRun, report } = finished();
  await promisify(execFile)('npm', ['run', '--silent', 'report:allure', '--', finishedRun.outDir], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    timeout: SAFETY_NET_MS,
  });
  const reportDir = join(finishedRun.outDir, 'allure-report');
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8')) as { stats: Record<string, number> };
  const results = (await readdir(join(finishedRun.outDir, 'allure-results'))).filter((name) => name.endsWith('-result.json'));
  expect(summary.stats.total).toBe(results.length);
  expect(summary.stats.failed).toBe(1);
  // An INFO observation is not a pass: Allure counts as passed exactly what the report passed.
  expect(summary.stats.passed ?? 0).toBe(report.totals.pass);
  const html = await readFile(join(reportDir, 'index.html'), 'utf8');
  // Matched here rather than with toMatch: a failure message would print the whole multi-megabyte page.
  expect(/googletagmanager|<script[^>]+src="https?:/i.exec(html)?.[0] ?? 'no outside script').toBe('no outside script');
});

test("Allure's own report counts a SHOULD not met as no failure without --strict, and as one with it", async () => {
  // A UTF-8 byte order mark before the JSON: the one miss is a SHOULD.
  const server = await startReferenceServer({ token: TOKEN, variants: ['utf8-bom'] });
  cleanUpAfterAll(server.close);
  const allureStats = async (
    flags: string[],
    folder: (outDir: string) => string[],
  ): Promise<{ code: number; stats: Record<string, number> }> => {
    const warned = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--reports', 'allure', ...flags]);
    cleanUpAfterAll(warned.cleanup);
    await promisify(execFile)('npm', ['run', '--silent', 'report:allure', '--', ...folder(warned.outDir)], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: SAFETY_NET_MS,
    });
    const summary = await readFile(join(warned.outDir, 'allure-report', 'summary.json'), 'utf8');
    return { code: warned.code, stats: (JSON.parse(summary) as { stats: Record<string, number> }).stats };
  };
  const plain = await allureStats([], (outDir) => ['--out', outDir]);
  expect({ code: plain.code, failed: plain.stats.failed ?? 0, broken: plain.stats.broken ?? 0 }).toEqual({ code: 0, failed: 0, broken: 0 });
  // The allure-results folder itself names the run as well as the folder holding it.
  const strict = await allureStats(['--strict'], (outDir) => [join(outDir, 'allure-results')]);
  expect({ code: strict.code, failed: strict.stats.failed ?? 0, broken: strict.stats.broken ?? 0 }).toEqual({
    code: 1,
    failed: 1,
    broken: 0,
  });
});

test('npm run report:allure -- DIR on a folder without Allure results says so in one line and exits 2', async () => {
  const withoutResults = await mkdtemp(join(tmpdir(), 'allure-none-'));
  const withEmptyResults = await mkdtemp(join(tmpdir(), 'allure-empty-'));
  await mkdir(join(withEmptyResults, 'allure-results'));
  cleanUpAfterAll(() => rm(withoutResults, { recursive: true, force: true }));
  cleanUpAfterAll(() => rm(withEmptyResults, { recursive: true, force: true }));
  const cases = [
    { folder: withoutResults, results: join(withoutResults, 'allure-results') },
    { folder: withEmptyResults, results: join(withEmptyResults, 'allure-results') },
    { folder: join(withEmptyResults, 'allure-results'), results: join(withEmptyResults, 'allure-results') },
  ];
  for (const { folder, results } of cases) {
    const refused = await promisify(execFile)('npm', ['run', '--silent', 'report:allure', '--', folder], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: SAFETY_NET_MS,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect({ code: refused.code, lines: refused.stderr.trim().split('\n') }).toEqual({
      code: 2,
      lines: [expect.stringContaining(`no Allure results in ${results}:`)],
    });
  }
});
