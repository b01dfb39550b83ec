import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RecordingFile } from '../src/record/recording-file.js';
import { buildReport } from '../src/report/model/build.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { exchangeOf, type Report } from '../src/report/model/types.js';
import { validator } from '../src/validators/schemas.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot, type CliRun } from './helpers/run-cli.js';
import { samplePass } from './helpers/sample-report.js';

const VERSION_1_LINE =
  /^HARNESS_REPORT_UNREADABLE: \S*report-v1\.json is a report\.json of schema version 1, which this suite \(\S+\) does not read: it reads version 2\. Re-run with this version, or judge its recording\.json again with `ticketing-conformance judge`$/;

let run: CliRun | undefined;
const { inProcess, cleanUpAfterAll } = fileResources({ reports: REPORT_KINDS });

beforeAll(async () => {
  // No --base-url: the embedded reference server, as a default run.
  run = await inProcess.run([]);
  cleanUpAfterAll(run.cleanup);
});

function finished(): { run: CliRun; report: Report } {
  if (!run?.report) throw new Error(`the run wrote no report.json: ${run?.stderr ?? ''}`);
  return { run, report: run.report };
}

const checksOf = (report: Report) => report.requirements.flatMap((result) => result.checks);

/** The same report as version 1 wrote it: a copy of its exchange in every check, no exchanges of its own. */
function asVersion1(report: Report): unknown {
  const { exchanges, ...rest } = report;
  return {
    ...rest,
    schemaVersion: 1,
    requirements: report.requirements.map((result) => ({
      ...result,
      checks: result.checks.map(({ exchange: key, ...check }) => {
        // Version 1 knew no classification: a check carried the request, the answer and the repro.
        const copy = key === undefined ? undefined : exchanges[key];
        return { ...check, ...(copy ? { request: copy.request, response: copy.response, repro: copy.repro } : {}) };
      }),
    })),
  };
}

describe('a default run', () => {
  test('report.json holds each exchange exactly once: one per request sent, keyed as recording.json keys it', async () => {
    const { run: finishedRun, report } = finished();
    expect(finishedRun.code).toBe(0);
    expect(report.schemaVersion).toBe(2);
    const keys = Object.keys(report.exchanges);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys).toHaveLength(report.requests.sent);
    const requests = Object.values(report.exchanges).map(({ request }) => `${request.credentials} ${request.url}`);
    expect(new Set(requests).size).toBe(keys.length);
    const recording = JSON.parse(await readFile(join(finishedRun.outDir, 'recording.json'), 'utf8')) as RecordingFile;
    expect([...keys].sort()).toEqual(recording.runs.flatMap((recorded) => recorded.exchanges.map((entry) => entry.key)).sort());
  });

  test('every key a check names resolves, every exchange is named by a check, and no check carries a copy', () => {
    const { report } = finished();
    const named = checksOf(report).flatMap((check) => (check.exchange === undefined ? [] : [check.exchange]));
    expect(named.length).toBeGreaterThan(Object.keys(report.exchanges).length);
    expect(named.filter((key) => report.exchanges[key] === undefined)).toEqual([]);
    expect(Object.keys(report.exchanges).filter((key) => !named.includes(key))).toEqual([]);
    expect(JSON.stringify(checksOf(report))).not.toMatch(/"(request|response|repro)":/);
  });

  test('report.json is about half the size of the same report with a copy of the exchange in every check', async () => {
    const { run: finishedRun, report } = finished();
    const written = (await readFile(join(finishedRun.outDir, 'report.json'))).length;
    const copied = Buffer.byteLength(`${JSON.stringify(asVersion1(report), null, 2)}\n`);
    expect(written).toBeLessThan(copied * 0.7);
  });
});

describe('a version-1 report is refused in one line with the way forward, exit 2', () => {
  let old = '';
  let outputs: Record<string, { code: number; stderr: string }> = {};

  beforeAll(async () => {
    const { run: finishedRun, report } = finished();
    old = join(finishedRun.outDir, '..', 'report-v1.json');
    await writeFile(old, `${JSON.stringify(asVersion1(report), null, 2)}\n`);
    const current = join(finishedRun.outDir, 'report.json');
    const folder = join(finishedRun.outDir, '..');
    const commands: Record<string, string[]> = {
      diff: ['diff', old, current],
      merge: ['merge', old, '--out', join(folder, 'merged')],
      verify: ['verify', old],
      'baseline --from': [
        'baseline',
        '--from',
        old,
        '--owner',
        'ops',
        '--reason',
        'r',
        '--expires',
        '2999-01-01',
        '--out',
        join(folder, 'b.json'),
      ],
      '--baseline': ['--baseline', old, '--out', join(folder, 'gated')],
    };
    const results = await Promise.all(Object.entries(commands).map(async ([name, args]) => [name, await inProcess.exec(args)] as const));
    outputs = Object.fromEntries(results);
  });

  test.each(['diff', 'merge', 'verify', 'baseline --from', '--baseline'])('%s', (name) => {
    const output = outputs[name];
    expect(output?.code).toBe(2);
    expect(output?.stderr.trim()).toMatch(VERSION_1_LINE);
  });

  test('the version-1 report the test refuses is otherwise the run’s own: only the version and the copies differ', async () => {
    const v1 = JSON.parse(await readFile(old, 'utf8')) as { schemaVersion: number; requirements: { checks: object[] }[] };
    expect(v1.schemaVersion).toBe(1);
    expect(v1.requirements.flatMap((result) => result.checks).some((check) => 'repro' in check && 'response' in check)).toBe(true);
  });

  test('history still shows the verdicts of a version-1 report: a past run cannot be run again', async () => {
    const { run: finishedRun } = finished();
    const runs = join(finishedRun.outDir, '..', 'runs');
    await mkdir(join(runs, 'old'), { recursive: true });
    await mkdir(join(runs, 'new'), { recursive: true });
    await copyFile(old, join(runs, 'old', 'report.json'));
    await copyFile(join(finishedRun.outDir, 'report.json'), join(runs, 'new', 'report.json'));
    const history = await inProcess.exec(['history', runs, '--out', join(runs, '..', 'history')]);
    expect(history.code, history.stderr).toBe(0);
    expect(history.stderr).not.toMatch(/Left out/);
    expect(history.stdout).toMatch(/^History of 2 runs of 1 target\(s\)/m);
  });

  test('diff still reads two reports of this version', async () => {
    const { run: finishedRun } = finished();
    const current = join(finishedRun.outDir, 'report.json');
    const same = await inProcess.exec(['diff', current, current]);
    expect(same.code).toBe(0);
  });
});

describe('--repeat: keys stay unique over the runs', () => {
  /** Two runs: AUTH-TOKEN-ACCEPTED passed in the first and failed in the second, so it is flaky with run 2's checks. */
  function merged(): Report {
    const first = samplePass('first answer');
    const accepted = first.requirements.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED');
    if (!accepted) throw new Error('sample has no AUTH-TOKEN-ACCEPTED');
    accepted.verdict = 'pass';
    accepted.checks = accepted.checks.map((check) => ({ ...check, verdict: 'pass' }));
    return buildReport({ passes: [first, samplePass('second answer')], scanner: createSecretScanner([]) });
  }

  test("a later run's exchange is under run N: KEY, the first run's under its own key, and each key resolves", () => {
    const report = merged();
    const flaky = report.requirements.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED');
    expect(flaky?.verdict).toBe('flaky');
    const check = flaky?.checks[0];
    expect(check?.exchange).toBe('run 2: valid /api/ticket/status/1?');
    expect(check && exchangeOf(report, check)?.response.body).toBe('second answer');
    const agreed = report.requirements.find((result) => result.id === 'STATUS-OPEN-FIRST')?.checks[0];
    expect(agreed?.exchange).toBe('valid /api/ticket/status/1?lang=de');
    const named = checksOf(report).flatMap((entry) => (entry.exchange === undefined ? [] : [entry.exchange]));
    expect([...new Set(named)].sort()).toEqual(Object.keys(report.exchanges).sort());
    expect(validator('report')(report)).toBe(true);
  });
});

test('docs/reports.md describes the version-2 shape with an example whose check names its exchange by key', async () => {
  const docs = await readFile(join(repoRoot, 'docs', 'reports.md'), 'utf8');
  const section = docs.slice(docs.indexOf('## report.json: each exchange once'));
  expect(section).toContain('`schemaVersion` 2');
  expect(section).toContain('`run N: KEY`');
  const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  const parsed = JSON.parse(example ?? '{}') as Pick<Report, 'schemaVersion' | 'requirements' | 'exchanges'>;
  expect(parsed.schemaVersion).toBe(2);
  const checks = parsed.requirements.flatMap((result) => result.checks);
  expect(checks.length).toBeGreaterThan(0);
  for (const check of checks) {
    expect(check.exchange && parsed.exchanges[check.exchange]).toBeDefined();
    expect(check).not.toHaveProperty('request');
  }
  expect(section).toMatch(/HARNESS_REPORT_UNREADABLE: .* schema version 1, .*Re-run with this version, or judge its recording\.json again/);
});
