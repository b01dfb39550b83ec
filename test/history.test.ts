import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import type { Report } from '../src/report/model/types.js';
import { TONES } from '../src/report/views/vocabulary.js';
import { fileResources } from './helpers/file-resources.js';
import { nightlyRuns } from './helpers/nightly-runs.js';

let work = '';
let history = '';
let reports: Report[] = [];
const resources = fileResources();
const { inProcess } = resources;

beforeAll(async () => {
  ({ work, reports } = await nightlyRuns(resources));
  history = join(work, 'history-out');
});

test('history DIR --out OUT writes one history.html, leaves out an unreadable file with a line saying why', async () => {
  const result = await inProcess.exec(['history', join(work, 'runs'), '--out', history]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^History of 4 runs of 2 target\(s\): .*history\.html$/m);
  expect(result.stderr).toMatch(/^Left out broken-file\/report\.json: /m);
  const page = await readFile(join(history, 'history.html'), 'utf8');
  // Self-contained: no script, nothing fetched.
  expect(page).not.toMatch(/<script|<link|src="http|href="http/);
  expect(page).toContain("default-src 'none'");
});

test('history with no report under the folder, or no folder, exits 2 with one line', async () => {
  const empty = await mkdtemp(join(work, 'empty-'));
  const none = await inProcess.exec(['history', empty, '--out', join(work, 'none')]);
  expect(none.code).toBe(2);
  expect(none.stderr.trim()).toMatch(/^CONFIG_INVALID: no readable report\.json under .*\. Point history at/);
  const missing = await inProcess.exec(['history', join(work, 'no-such-folder'), '--out', join(work, 'none')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr.trim().split('\n')).toHaveLength(1);
});

test('every run writes a shields-style badge.svg: "conformance | N/N MUST" in the verdict colour', async () => {
  const badge = await readFile(join(work, 'reference-badge.svg'), 'utf8');
  const must = reports[0]?.requirements.filter((result) => result.level === 'MUST').length ?? 0;
  expect(badge).toContain(`aria-label="conformance: ${must}/${must} MUST (conformant)"`);
  expect(badge).toContain(`>${must}/${must} MUST</text>`);
  expect(badge).toContain(`fill="${TONES.pass.ink}"`);
  expect(badge.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
});

test('a run that reached no verdict has a badge that says so, in its own colour', async () => {
  const { renderBadge } = await import('../src/report/views/badge.js');
  const report = reports[1];
  if (!report) throw new Error('no report');
  const must = report.requirements.filter((result) => result.level === 'MUST');
  const passed = must.filter((result) => result.verdict === 'pass').length;
  expect(passed).toBeLessThan(must.length);
  const failing = renderBadge(report);
  expect(failing).toContain(`>${passed}/${must.length} MUST</text>`);
  expect(failing).toContain(`fill="${TONES.fail.ink}"`);
  const inconclusive = renderBadge({ ...report, verdict: 'inconclusive', exitCode: 2 });
  expect(inconclusive).toContain('>no verdict</text>');
  expect(inconclusive).toContain(`fill="${TONES.error.ink}"`);
});

/**
 * Four runs of one address: a SHOULD not met (a byte order mark), the same with --strict, a MUST broken and waived by
 * a baseline, then the same without it. Each run is dated, a night apart.
 */
async function gatedNights(): Promise<string> {
  const { startReferenceServer } = await import('../src/reference-server/server.js');
  const token = 'history-gate-token-71c3';
  const bom = await startReferenceServer({ token, variants: ['utf8-bom'] });
  const colour = await startReferenceServer({ token, variants: ['colour-missing'] });
  resources.cleanUpAfterAll(bom.close);
  resources.cleanUpAfterAll(colour.close);
  const dir = await resources.tempFolder('conformance-history-gate-');
  const night = async (index: number, url: string, args: string[]): Promise<Report> => {
    const run = await inProcess.run(['--base-url', url, '--token', token, ...args]);
    resources.cleanUpAfterAll(run.cleanup);
    if (!run.report) throw new Error(`night ${index}: no report (${run.stderr})`);
    const report = {
      ...run.report,
      startedAt: `2030-01-0${index}T02:00:00.000Z`,
      target: { ...run.report.target, baseUrl: 'https://helpdesk.example/' },
    };
    delete report.integrity;
    await mkdir(join(dir, `night-${index}`));
    await writeFile(join(dir, `night-${index}`, 'report.json'), JSON.stringify(report));
    return report;
  };
  const [, , broken] = await Promise.all([night(1, bom.url, []), night(2, bom.url, ['--strict']), night(4, colour.url, [])]);
  const knownFailures = (broken?.requirements ?? [])
    .filter((result) => result.verdict === 'fail')
    .map((result) => ({ requirement: result.id, reason: 'ticket OPS-12', owner: 'ops', expires: '2999-12-31' }));
  const baseline = join(dir, 'baseline.json');
  await writeFile(baseline, JSON.stringify({ schemaVersion: 1, knownFailures }));
  await night(3, colour.url, ['--baseline', baseline]);
  await rm(baseline);
  return dir;
}

test('history counts as the exit code does: a warning fails no run, a SHOULD fails one under --strict, a waived failure none', async () => {
  const dir = await gatedNights();
  const out = join(dir, 'out');
  const result = await inProcess.exec(['history', dir, '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  const page = await readFile(join(out, 'history.html'), 'utf8');
  const text = (html: string): string => html.replace(/<[^>]+>/g, '');
  const bars = [...page.matchAll(/<title>Run (\d+), [^<]*?; \d+ passed, (\d+) failed, \d+ other; MUST \d+ passed, (\d+) failed/g)];
  expect(bars.map(([, run, failed, must]) => [Number(run), Number(failed), Number(must)])).toEqual([
    [1, 0, 0],
    [2, 1, 0],
    [3, 0, 0],
    [4, 1, 1],
  ]);
  const changes = [...page.matchAll(/<li>(<code>.*?)<\/li>/g)].map(([, item]) => text(item ?? ''));
  expect(changes).toEqual([
    expect.stringMatching(/^ENV-NO-BOM started failing in run 2 \(.*\): WARN → WARN$/),
    expect.stringMatching(/^ENV-NO-BOM stopped failing in run 3 \(.*\): WARN → PASS$/),
    expect.stringMatching(/^STATUS-COLOUR started failing in run 4 \(.*\): PASS → FAIL$/),
  ]);
  expect(text(/<p>Failing in the latest run: (.*?)<\/p>/.exec(page)?.[1] ?? '')).toBe('STATUS-COLOUR.');
});
