import { expect, test } from 'vitest';
import { allureFiles, type AllureFile } from '../src/report/views/allure.js';
import { buildReport } from '../src/report/model/build.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import type { Report } from '../src/report/model/types.js';
import { samplePass, sampleReport } from './helpers/sample-report.js';

interface Result {
  uuid: string;
  historyId: string;
  name: string;
  status: string;
  statusDetails: { message: string; trace?: string; known?: boolean; flaky?: boolean };
  labels: { name: string; value: string }[];
  attachments: { name: string; source: string; type: string }[];
}

const resultsOf = (files: AllureFile[]): Result[] =>
  files.filter((file) => file.name.endsWith('-result.json')).map((file) => JSON.parse(file.content) as Result);
const byRequirement = (report: Report, id: string): Result | undefined =>
  resultsOf(allureFiles(report)).find((result) => result.labels.some((label) => label.name === 'story' && label.value === id));

test('one Allure result per requirement, with the status the gate gives it: a SHOULD not met fails only with --strict', () => {
  const report = sampleReport();
  const results = resultsOf(allureFiles(report));
  expect(results).toHaveLength(report.requirements.length);
  const statusesOf = (shown: Report) =>
    Object.fromEntries(shown.requirements.map((result) => [result.verdict, byRequirement(shown, result.id)?.status]));
  expect(statusesOf(report)).toMatchObject({ fail: 'failed', pass: 'passed', skip: 'skipped', warn: 'skipped' });
  const strict = { ...report, options: { ...report.options, strict: true } };
  expect(statusesOf(strict)).toMatchObject({ fail: 'failed', pass: 'passed', skip: 'skipped', warn: 'failed' });
  const warned = report.requirements.find((result) => result.verdict === 'warn');
  expect(byRequirement(report, warned?.id ?? '')?.statusDetails.message).toMatch(/^\S+ \(SHOULD\) warn: /);
  const failed = byRequirement(report, 'AUTH-TOKEN-ACCEPTED');
  expect(failed?.statusDetails.message).toMatch(/^AUTH-TOKEN-ACCEPTED \(MUST\) fail: GET with valid token/);
  expect(failed?.statusDetails.trace).toContain('Expected: HTTP 2xx');
  expect(failed?.labels).toContainEqual({ name: 'severity', value: 'critical' });
});

test('a requirement the suite could not judge is broken, and a flaky one failed and is marked flaky', () => {
  const report = structuredClone(sampleReport());
  const target = report.requirements.find((result) => result.id === 'ENV-JSON');
  if (!target) throw new Error('sample report lost ENV-JSON');
  // A flaky requirement keeps the checks of a run that did not pass.
  target.verdict = 'flaky';
  target.checks = target.checks.map((check) => ({ ...check, verdict: 'fail' }));
  target.repeat = { runs: 3, agreed: 2, verdicts: { pass: 2, fail: 1 } };
  const unjudged = report.requirements.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED');
  if (!unjudged) throw new Error('sample report lost AUTH-TOKEN-ACCEPTED');
  unjudged.verdict = 'error';
  expect(byRequirement(report, 'ENV-JSON')).toMatchObject({
    status: 'failed',
    statusDetails: { flaky: true, message: expect.stringMatching(/^ENV-JSON \(MUST\) flaky: 2 of 3 runs agreed: /) as string },
  });
  expect(byRequirement(report, 'AUTH-TOKEN-ACCEPTED')?.status).toBe('broken');
});

test('a failure the baseline waives is marked known, so Allure shows it as a known issue', () => {
  const report = buildReport({
    passes: [samplePass()],
    baseline: {
      baseline: {
        file: 'baseline.json',
        schemaVersion: 1,
        knownFailures: [{ requirement: 'AUTH-TOKEN-ACCEPTED', reason: 'ticket OPS-1', owner: 'ops', expires: '2030-01-31' }],
      },
      today: '2030-01-01',
    },
    scanner: createSecretScanner([]),
  });
  expect(byRequirement(report, 'AUTH-TOKEN-ACCEPTED')?.statusDetails.known).toBe(true);
  expect(byRequirement(report, 'STATUS-OPEN-FIRST')?.statusDetails.known).toBeUndefined();
});

test('each exchange a result judged is one attachment of its own: request, repro and answer', () => {
  const files = allureFiles(sampleReport('<b>hostile</b>'));
  const names = new Set(files.map((file) => file.name));
  const results = resultsOf(files);
  const failed = results.find((result) => result.status === 'failed' && result.name.startsWith('AUTH-TOKEN-ACCEPTED'));
  expect(failed?.attachments.map((attachment) => attachment.name)).toEqual(['1: GET /api/ticket/status/1 → HTTP 401']);
  const sources = results.flatMap((result) => result.attachments.map((attachment) => attachment.source));
  for (const source of sources) expect(names).toContain(source);
  // Allure shows a file under one result only, so two results judged on the same answer have a copy each.
  expect(new Set(sources).size).toBe(sources.length);
  const exchange = files.find((file) => file.name === failed?.attachments[0]?.source)?.content ?? '';
  expect(exchange).toMatch(/^GET http:\/\/127\.0\.0\.1:9\/api\/ticket\/status\/1\n/);
  expect(exchange).toContain("Reproduce: curl -sS -u '<API_TOKEN>:x'");
  expect(exchange).toMatch(/\n\nHTTP 401\n[\s\S]*<b>hostile<\/b>$/);
  expect(names).toContain('categories.json');
});

test('the description quotes the requirement and lists every check with what was expected and found', () => {
  const result = byRequirement(sampleReport(), 'AUTH-TOKEN-ACCEPTED') as Result & { description: string };
  expect(result.description).toMatch(/^AUTH-TOKEN-ACCEPTED \(MUST\): "/);
  expect(result.description).toContain(
    '- **FAIL** GET with valid token, configured password succeeds: expected HTTP 2xx with status "success"; actual HTTP 401',
  );
});

test('the same requirement of the same target keeps its history id across runs; result ids differ', () => {
  const first = sampleReport();
  const second = { ...sampleReport(), startedAt: '2026-02-02T03:04:05.000Z' };
  const [a, b] = [byRequirement(first, 'ENV-JSON'), byRequirement(second, 'ENV-JSON')];
  expect(a?.historyId).toBe(b?.historyId);
  expect(a?.uuid).not.toBe(b?.uuid);
  expect(a?.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
});
