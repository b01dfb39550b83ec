import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CTRFReport } from 'ctrf';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { lastLine, type CliRun } from './helpers/run-cli.js';
import type { Report } from '../src/report/model/types.js';

const TOKEN = 'ci-counts-token-2b7d41';
type Verdicts = Report['totals'];
const { inProcess, cleanUpAfterAll } = fileResources({ reports: REPORT_KINDS });

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  warned: number;
  other: number;
}

const none = (): Counts => ({ passed: 0, failed: 0, skipped: 0, warned: 0, other: 0 });

/** The closing line: passed, failed, skipped, then what is neither in its parts (warnings, INFO observations, could not be judged). */
function terminalCounts(run: CliRun): Counts {
  const match =
    /^(\d+) passed, (\d+) failed, (\d+) skipped(?:, (\d+) warnings?)?(?:, (\d+) info)?(?:, (\d+) could not be judged)? in [\d.]+ s$/.exec(
      lastLine(run) ?? '',
    );
  if (!match) throw new Error(`no counts line: ${lastLine(run) ?? ''}`);
  const [, passed, failed, skipped, warned, info, unjudged] = match.map(Number);
  return { passed: passed ?? 0, failed: failed ?? 0, skipped: skipped ?? 0, warned: warned || 0, other: (info || 0) + (unjudged || 0) };
}

/** JUnit as docs/reports.md maps it: <failure> failed, <skipped type="warn"> warned, <skipped type="info"> and <error> other. */
function junitCounts(xml: string): Counts {
  const counts = none();
  for (const [, body = ''] of xml.matchAll(/<testcase [^>]*>([\s\S]*?)<\/testcase>/g)) {
    if (body.includes('<failure')) counts.failed += 1;
    else if (/<skipped [^>]*type="warn"/.test(body)) counts.warned += 1;
    else if (body.includes('<error') || /<skipped [^>]*type="info"/.test(body)) counts.other += 1;
    else if (body.includes('<skipped')) counts.skipped += 1;
    else counts.passed += 1;
  }
  return counts;
}

/** CTRF as docs/reports.md maps it: "other" holds warnings (rawStatus "warn"), observations and what could not be judged. */
function ctrfCounts(tests: CTRFReport['results']['tests']): Counts {
  const counts = none();
  for (const entry of tests) {
    if (entry.status === 'other') counts[entry.rawStatus === 'warn' ? 'warned' : 'other'] += 1;
    else if (entry.status === 'passed' || entry.status === 'failed' || entry.status === 'skipped') counts[entry.status] += 1;
  }
  return counts;
}

/** Allure as docs/reports.md maps it: broken and the skipped INFO observations are other, the skipped warnings warned. */
async function allureCounts(dir: string): Promise<Counts> {
  const counts = none();
  for (const name of (await readdir(dir)).filter((file) => file.endsWith('-result.json'))) {
    const result = JSON.parse(await readFile(join(dir, name), 'utf8')) as { status: string; statusDetails: { message?: string } };
    const message = result.statusDetails.message ?? '';
    if (result.status === 'passed') counts.passed += 1;
    else if (result.status === 'failed') counts.failed += 1;
    else if (result.status === 'broken' || /^\S+ \(INFO\) info\b/.test(message)) counts.other += 1;
    else if (/^\S+ \((SHOULD|CLIENT)\) warn\b/.test(message)) counts.warned += 1;
    else counts.skipped += 1;
  }
  return counts;
}

test.each([
  ['without --strict', [], (totals: Verdicts) => ({ failed: totals.fail, warned: totals.warn })],
  ['with --strict', ['--strict'], (totals: Verdicts) => ({ failed: totals.fail + totals.warn, warned: 0 })],
])(
  'one run %s: the terminal, junit.xml, ctrf.json and allure-results count passed, failed, skipped, warned and other alike',
  async (_, flags, rule) => {
    // A SHOULD not met (the byte order mark), a MUST failed (no listing), skips (a status with no translations) and observations.
    const server = await startReferenceServer({ token: TOKEN, variants: ['utf8-bom', 'selfservice-missing'] });
    cleanUpAfterAll(server.close);
    const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--status-id', '3', ...flags]);
    cleanUpAfterAll(run.cleanup);
    const totals = run.report?.totals;
    if (!totals) throw new Error(`the run wrote no report.json: ${run.stderr}`);
    expect(totals.warn).toBeGreaterThan(0);
    expect(totals.fail).toBeGreaterThan(0);
    expect(totals.skip).toBeGreaterThan(0);
    expect(totals.info).toBeGreaterThan(0);

    // The rule of docs/reports.md, from report.json's verdicts: a SHOULD not met fails only with --strict.
    const expected: Counts = { passed: totals.pass, skipped: totals.skip, other: totals.info + totals.error, ...rule(totals) };
    const ctrf = JSON.parse(await readFile(join(run.outDir, 'ctrf.json'), 'utf8')) as CTRFReport;
    expect({
      terminal: terminalCounts(run),
      junit: junitCounts(await readFile(join(run.outDir, 'junit.xml'), 'utf8')),
      ctrf: ctrfCounts(ctrf.results.tests),
      allure: await allureCounts(join(run.outDir, 'allure-results')),
    }).toEqual({ terminal: expected, junit: expected, ctrf: expected, allure: expected });
    expect(ctrf.results.summary.failed).toBe(expected.failed);

    // JUnit's own totals: with no warning and no "other", its skipped and errors hold them.
    const junit = await readFile(join(run.outDir, 'junit.xml'), 'utf8');
    const attribute = (name: string): number => Number(new RegExp(`<testsuites [^>]*${name}="(\\d+)"`).exec(junit)?.[1]);
    expect(attribute('failures')).toBe(expected.failed);
    expect(attribute('skipped') + attribute('errors')).toBe(expected.skipped + expected.warned + expected.other);
  },
);

test('each CTRF test takes the time of the answers it was judged on, not the whole run', async () => {
  const run = await inProcess.run([]);
  cleanUpAfterAll(run.cleanup);
  const report = run.report;
  if (!report) throw new Error(`the run wrote no report.json: ${run.stderr}`);
  // Every judged answer carries its own time, so a duration of 0 below is a requirement judged on no answer.
  expect(Object.values(report.exchanges).map((exchange) => typeof exchange.response.durationMs)).not.toContain('undefined');
  const tests = (JSON.parse(await readFile(join(run.outDir, 'ctrf.json'), 'utf8')) as CTRFReport).results.tests;
  for (const entry of tests) {
    const id = entry.name.split(' ')[0] ?? '';
    const keys = new Set(report.requirements.find((result) => result.id === id)?.checks.flatMap((check) => check.exchange ?? []));
    const own = [...keys].reduce((sum, key) => sum + (report.exchanges[key]?.response.durationMs ?? 0), 0);
    expect({ id, duration: entry.duration }).toEqual({ id, duration: own });
  }
});
