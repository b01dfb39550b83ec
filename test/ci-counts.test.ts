import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CTRFReport } from 'ctrf';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { lastLine, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'ci-counts-token-2b7d41';
const { inProcess, cleanUpAfterAll } = fileResources();

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  other: number;
}

const none = (): Counts => ({ passed: 0, failed: 0, skipped: 0, other: 0 });

/** The closing line: passed, failed, skipped, then "other" in its parts (INFO observations, could not be judged). */
function terminalCounts(run: CliRun): Counts {
  const match = /^(\d+) passed, (\d+) failed, (\d+) skipped(?:, (\d+) info)?(?:, (\d+) could not be judged)? in [\d.]+ s$/.exec(
    lastLine(run) ?? '',
  );
  if (!match) throw new Error(`no counts line: ${lastLine(run) ?? ''}`);
  const [, passed, failed, skipped, info, unjudged] = match.map(Number);
  return { passed: passed ?? 0, failed: failed ?? 0, skipped: skipped ?? 0, other: (info || 0) + (unjudged || 0) };
}

/** JUnit as docs/reports.md maps it: <failure> failed, <skipped type="info"> and <error> other, <skipped> skipped. */
function junitCounts(xml: string): Counts {
  const counts = none();
  for (const [, body = ''] of xml.matchAll(/<testcase [^>]*>([\s\S]*?)<\/testcase>/g)) {
    if (body.includes('<failure')) counts.failed += 1;
    else if (body.includes('<error') || /<skipped [^>]*type="info"/.test(body)) counts.other += 1;
    else if (body.includes('<skipped')) counts.skipped += 1;
    else counts.passed += 1;
  }
  return counts;
}

/** Allure as docs/reports.md maps it: broken and the skipped INFO observations are other. */
async function allureCounts(dir: string): Promise<Counts> {
  const counts = none();
  for (const name of (await readdir(dir)).filter((file) => file.endsWith('-result.json'))) {
    const result = JSON.parse(await readFile(join(dir, name), 'utf8')) as { status: string; statusDetails: { message?: string } };
    const observation = /^\S+ \(INFO\) info\b/.test(result.statusDetails.message ?? '');
    if (result.status === 'passed') counts.passed += 1;
    else if (result.status === 'failed') counts.failed += 1;
    else if (result.status === 'broken' || observation) counts.other += 1;
    else counts.skipped += 1;
  }
  return counts;
}

test('one run: the terminal, junit.xml, ctrf.json and allure-results count passed, failed, skipped and other alike', async () => {
  // A SHOULD not met (the byte order mark), a MUST failed (no listing), skips (a status with no translations) and observations.
  const server = await startReferenceServer({ token: TOKEN, variants: ['utf8-bom', 'selfservice-missing'] });
  cleanUpAfterAll(server.close);
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--status-id', '3']);
  cleanUpAfterAll(run.cleanup);
  const totals = run.report?.totals;
  if (!totals) throw new Error(`the run wrote no report.json: ${run.stderr}`);
  expect(totals.warn).toBeGreaterThan(0);
  expect(totals.fail).toBeGreaterThan(0);
  expect(totals.skip).toBeGreaterThan(0);
  expect(totals.info).toBeGreaterThan(0);

  // The rule of docs/reports.md, from report.json's verdicts.
  const expected: Counts = {
    passed: totals.pass,
    failed: totals.fail + totals.warn + totals.flaky,
    skipped: totals.skip,
    other: totals.info + totals.error,
  };
  const ctrf = (JSON.parse(await readFile(join(run.outDir, 'ctrf.json'), 'utf8')) as CTRFReport).results.summary;
  expect({
    terminal: terminalCounts(run),
    junit: junitCounts(await readFile(join(run.outDir, 'junit.xml'), 'utf8')),
    ctrf: { passed: ctrf.passed, failed: ctrf.failed, skipped: ctrf.skipped, other: ctrf.other },
    allure: await allureCounts(join(run.outDir, 'allure-results')),
  }).toEqual({ terminal: expected, junit: expected, ctrf: expected, allure: expected });

  // JUnit's own totals: with no "other", its skipped and errors hold it.
  const junit = await readFile(join(run.outDir, 'junit.xml'), 'utf8');
  const attribute = (name: string): number => Number(new RegExp(`<testsuites [^>]*${name}="(\\d+)"`).exec(junit)?.[1]);
  expect(attribute('failures')).toBe(expected.failed);
  expect(attribute('skipped') + attribute('errors')).toBe(expected.skipped + expected.other);
});

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
