import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validate } from 'ctrf';
import type { CTRFReport } from 'ctrf';
import { beforeAll, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import type { CliRun } from './helpers/run-cli.js';

const TOKEN = 'ci-views-token-77a1f0';
const { inProcess, cleanUpAfterAll } = fileResources({ reports: REPORT_KINDS });

let plain: CliRun | undefined;
let waived: CliRun | undefined;
let waivedIds: string[] = [];

beforeAll(async () => {
  // The failure ops meet most: Apache drops the Authorization header, so a diagnosis with its .htaccess lines explains it.
  const server = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
  cleanUpAfterAll(server.close);
  plain = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
  cleanUpAfterAll(plain.cleanup);
  waivedIds = (plain.report?.requirements ?? []).filter((result) => result.verdict === 'fail').map((result) => result.id);
  const baseline = join(plain.outDir, '..', 'baseline.json');
  await writeFile(
    baseline,
    JSON.stringify({
      schemaVersion: 1,
      knownFailures: waivedIds.map((requirement) => ({ requirement, reason: 'ticket OPS-7', owner: 'ops', expires: '2999-12-31' })),
    }),
  );
  waived = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--baseline', baseline]);
  cleanUpAfterAll(waived.cleanup);
});

const read = (run: CliRun | undefined, name: string): Promise<string> => readFile(join(run?.outDir ?? '', name), 'utf8');
const unescapeXml = (text: string): string =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');

function testcases(xml: string): Map<string, string> {
  return new Map(
    [...xml.matchAll(/<testcase classname="[^"]*" name="([A-Z0-9-]+) [^"]*">([\s\S]*?)<\/testcase>/g)].map((match) => [
      match[1] ?? '',
      unescapeXml(match[2] ?? ''),
    ]),
  );
}

test('the runs under test: failures explained by a diagnosis; the same failures waived by a baseline exit 0', () => {
  expect(plain?.code).toBe(1);
  expect(waivedIds.length).toBeGreaterThan(0);
  expect(plain?.report?.diagnoses.map((diagnosis) => diagnosis.id)).toContain('authorization-header-stripped');
  expect(waived?.code, waived?.stdout).toBe(0);
});

test('junit.xml: each failure carries the diagnosis, its fix and its configuration lines, and its message names the cause', async () => {
  const diagnosis = plain?.report?.diagnoses[0];
  const cases = testcases(await read(plain, 'junit.xml'));
  for (const id of waivedIds) {
    const body = cases.get(id) ?? '';
    expect(body, id).toMatch(/<failure message=".*\| likely cause: /);
    expect(body).toContain(`Diagnosis (${diagnosis?.party ?? '?'}`);
    expect(body).toContain('RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]');
  }
});

test('junit.xml with --baseline: waived failures are skipped with the reason, and the totals agree with exit 0', async () => {
  const xml = await read(waived, 'junit.xml');
  const cases = testcases(xml);
  for (const id of waivedIds) {
    expect(cases.get(id), id).toContain('<skipped message="known failure waived by the baseline until 2999-12-31 (ops): ticket OPS-7"/>');
    expect(cases.get(id)).not.toContain('<failure');
  }
  // JUnit has no "other": an INFO observation is a <skipped type="info">.
  const skips = (waived?.report?.totals.skip ?? 0) + (waived?.report?.totals.info ?? 0);
  expect(xml).toMatch(new RegExp(`<testsuites [^>]*failures="0" errors="0" skipped="${skips + waivedIds.length}"`));
});

test('ctrf.json is a valid CTRF document whose counts agree with the report and the gate', async () => {
  for (const run of [plain, waived]) {
    const ctrf = JSON.parse(await read(run, 'ctrf.json')) as CTRFReport;
    const validation = validate(ctrf);
    expect(validation.errors ?? [], JSON.stringify(validation.errors)).toEqual([]);
    expect(validation.valid).toBe(true);
    const totals = run?.report?.totals;
    if (!totals) throw new Error('the run wrote no report.json');
    const waiving = run === waived ? waivedIds.length : 0;
    expect(ctrf.results.summary).toMatchObject({
      tests: run?.report?.requirements.length,
      passed: totals.pass,
      failed: totals.fail + totals.warn + totals.flaky - waiving,
      skipped: totals.skip + waiving,
      other: totals.info + totals.error,
    });
    expect(ctrf.results.environment?.healthy).toBe(run?.code === 0);
  }
  const failed = (JSON.parse(await read(plain, 'ctrf.json')) as CTRFReport).results.tests.find((entry) => entry.status === 'failed');
  expect(failed?.message).toContain('likely cause:');
  expect(failed?.trace).toContain('RewriteCond %{HTTP:Authorization} .');
  const skipped = (JSON.parse(await read(waived, 'ctrf.json')) as CTRFReport).results.tests.find((entry) =>
    entry.name.startsWith(`${waivedIds[0] ?? '?'} `),
  );
  expect(skipped).toMatchObject({ status: 'skipped', rawStatus: 'fail', message: expect.stringContaining('ticket OPS-7') as unknown });
});

interface AllureResult {
  status: string;
  statusDetails: { message?: string; known?: boolean };
  labels: { name: string; value: string }[];
}

async function allureResults(run: CliRun | undefined): Promise<{ results: AllureResult[]; files: string[] }> {
  const dir = join(run?.outDir ?? '', 'allure-results');
  const files = await readdir(dir);
  const results = await Promise.all(
    files
      .filter((name) => name.endsWith('-result.json'))
      .map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as AllureResult),
  );
  return { results, files };
}

test('Allure: INFO is not a pass, failures fall in the category of their diagnosis, Environment and Executor are filled', async () => {
  const report = plain?.report;
  const { results, files } = await allureResults(plain);
  const level = (result: AllureResult): string | undefined => result.labels.find((label) => label.name === 'tag')?.value;
  expect(results.filter((result) => result.status === 'passed')).toHaveLength(report?.totals.pass ?? -1);
  expect(results.filter((result) => level(result) === 'INFO' && result.status === 'passed')).toEqual([]);

  const categories = JSON.parse(await read(plain, 'allure-results/categories.json')) as { name: string; messageRegex?: string }[];
  const cause = categories[0];
  expect(cause?.name).toBe(`Cause: ${report?.diagnoses[0]?.summary ?? '?'}`);
  const failed = results.filter((result) => result.status === 'failed');
  expect(failed.length).toBeGreaterThan(0);
  for (const result of failed) expect(result.statusDetails.message ?? '').toMatch(new RegExp(cause?.messageRegex ?? 'none'));

  expect(files).toContain('environment.properties');
  const environment = await read(plain, 'allure-results/environment.properties');
  expect(environment).toContain('Verdict=not-conformant');
  expect(environment).toContain('Exit\\ code=1');
  const executor = JSON.parse(await read(plain, 'allure-results/executor.json')) as { name?: string; reportName?: string };
  expect(executor.name).toMatch(/^ticketing-conformance /);
  expect(executor.reportName).toContain('not-conformant');

  const known = (await allureResults(waived)).results.filter((result) => result.statusDetails.known);
  expect(known).toHaveLength(waivedIds.length);
});
