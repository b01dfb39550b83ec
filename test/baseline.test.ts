import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { KnownFailure } from '../src/config/baseline.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { BaselineInput } from '../src/report/model/baseline.js';
import { buildReport, diagnoseFacts } from '../src/pipeline/pipeline.js';
import type { Report } from '../src/report/model/types.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { fileResources } from './helpers/file-resources.js';

const TOKEN = 'baseline-token-3c9d7e';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();

const tempDir = (): Promise<string> => tempFolder('conformance-baseline-');

/**
 * The report of a run in which STATUS-COLOUR failed, AUTH-TOKEN-ACCEPTED passed and SELFSERVICE-SHAPE was skipped,
 * judged against these known failures.
 */
function report(knownFailures?: KnownFailure[], judged: Omit<BaselineInput, 'baseline'> = {}): Report {
  const check = (requirement: string, verdict: 'pass' | 'fail' | 'skip') => ({ requirement, scenario: 's', verdict, description: 'd' });
  const pass = diagnoseFacts(
    {
      suite: { name: 'ticketing-conformance', version: '0' },
      target: { baseUrl: 'http://127.0.0.1:1/', embeddedReference: false },
      options: { statusId: 1, strict: false, timeoutMs: 1000, maxRequests: 40, repeat: 1 },
      startedAt: new Date(),
      finishedAt: new Date(),
      complete: true,
      scenarios: [
        {
          id: 's',
          title: 't',
          requirements: [],
          requestsSent: 1,
          checks: [check('STATUS-COLOUR', 'fail'), check('AUTH-TOKEN-ACCEPTED', 'pass'), check('SELFSERVICE-SHAPE', 'skip')],
          exchanges: {},
        },
      ],
      errors: [],
    },
    { statusId: [1] },
  );
  const baseline = knownFailures ? { baseline: { baseline: { file: 'b.json', schemaVersion: 1 as const, knownFailures }, ...judged } } : {};
  return buildReport({ passes: [pass], ...baseline, scanner: createSecretScanner([]) });
}

const entry = (requirement: string, expires: string, target?: string): KnownFailure => ({
  requirement,
  reason: 'waiting for the vendor',
  owner: 'ops-team',
  expires,
  ...(target ? { target } : {}),
});

describe('a baseline of known failures', () => {
  test('a known failure before its expiry does not fail the run, and the report says so', () => {
    expect(report().exitCode).toBe(1);
    const result = report([entry('STATUS-COLOUR', '2030-01-31')], { today: '2030-01-31' });
    expect(result.exitCode).toBe(0);
    expect(result.verdict).toBe('not-conformant');
    expect(result.baseline?.entries[0]?.outcome).toBe('known');
    expect(result.summary).toContain('known failure');
  });

  test('an expired entry fails the run again', () => {
    const result = report([entry('STATUS-COLOUR', '2030-01-30')], { today: '2030-01-31' });
    expect(result.exitCode).toBe(1);
    expect(result.baseline?.entries[0]).toMatchObject({ outcome: 'expired' });
    expect(result.baseline?.entries[0]?.note).toContain('expired on 2030-01-30');
  });

  test('a known failure that passes now is reported fixed; one that was skipped is neither', () => {
    const knownFailures = [
      entry('STATUS-COLOUR', '2030-01-31'),
      entry('AUTH-TOKEN-ACCEPTED', '2030-01-31'),
      entry('SELFSERVICE-SHAPE', '2030-01-31'),
    ];
    const result = report(knownFailures, { today: '2030-01-01' });
    expect(result.baseline?.entries.map((item) => [item.requirement, item.outcome])).toEqual([
      ['STATUS-COLOUR', 'known'],
      ['AUTH-TOKEN-ACCEPTED', 'fixed'],
      ['SELFSERVICE-SHAPE', 'not-judged'],
    ]);
    expect(result.baseline?.entries[1]?.note).toBe('fixed: remove it from the baseline');
    expect(result.exitCode).toBe(0);
  });

  test('an entry for another target of a matrix does not apply', () => {
    const result = report([entry('STATUS-COLOUR', '2030-01-31', 'other')], { targetName: 'this', today: '2030-01-01' });
    expect(result.baseline?.entries).toEqual([]);
    expect(result.exitCode).toBe(1);
  });

  test('end to end: a failing run, a baseline written from its report, and the next run passes the gate', async () => {
    const server = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
    cleanUpAfterAll(server.close);
    const failing = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
    cleanUpAfterAll(failing.cleanup);
    expect(failing.code).toBe(1);

    const dir = await tempDir();
    const written = await inProcess.exec([
      'baseline',
      '--from',
      join(failing.outDir, 'report.json'),
      '--owner',
      'ops',
      '--reason',
      'vendor fix due',
      '--expires',
      '2999-12-31',
      '--out',
      join(dir, 'baseline.json'),
    ]);
    expect(written.code).toBe(0);
    const baseline = JSON.parse(await readFile(join(dir, 'baseline.json'), 'utf8')) as { knownFailures: KnownFailure[] };
    expect(baseline.knownFailures.map((item) => item.requirement)).toEqual(['STATUS-COLOUR']);

    const gated = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--baseline', join(dir, 'baseline.json')]);
    cleanUpAfterAll(gated.cleanup);
    expect(gated.code).toBe(0);
    expect(gated.report?.baseline?.entries[0]).toMatchObject({ requirement: 'STATUS-COLOUR', outcome: 'known', owner: 'ops' });
    expect(gated.stdout).toContain('KNOWN    STATUS-COLOUR');
  });

  test('a baseline naming a requirement the suite does not have is refused in one line', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'b.json'), JSON.stringify({ schemaVersion: 1, knownFailures: [entry('NO-SUCH-REQUIREMENT', '2999-01-01')] }));
    const run = await inProcess.exec(['--baseline', join(dir, 'b.json'), '--out', join(dir, 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^CONFIG_INVALID: the baseline .* names NO-SUCH-REQUIREMENT, which is not a requirement of this suite\. /,
    );
  });

  test('a mistyped requirement ID in a baseline is answered with the closest ID of the catalog and where the IDs are listed', async () => {
    const dir = await tempDir();
    const typos = [
      { given: 'STATUS-COLOR', meant: 'STATUS-COLOUR' },
      { given: 'HOST-AUTHORISATION-PASSED', meant: 'HOST-AUTHORIZATION-PASSED' },
      { given: 'ENV-JSN', meant: 'ENV-JSON' },
      { given: 'SELFSERVICE-ACCEPT', meant: 'SELFSERVICE-ACCEPTED' },
    ];
    for (const { given, meant } of typos) {
      await writeFile(join(dir, 'b.json'), JSON.stringify({ schemaVersion: 1, knownFailures: [entry(given, '2999-01-01')] }));
      const run = await inProcess.exec(['--baseline', join(dir, 'b.json'), '--out', join(dir, 'out')]);
      expect({ code: run.code, lines: run.stderr.trim().split('\n').length }).toEqual({ code: 2, lines: 1 });
      expect(run.stderr).toContain(`names ${given}, which is not a requirement of this suite`);
      expect(run.stderr).toContain(`Did you mean ${meant}?`);
      expect(run.stderr).toContain('docs/requirements.md');
      expect(run.stderr).not.toContain('README');
    }
    // Nothing close: no guess, only where the IDs are.
    await writeFile(join(dir, 'b.json'), JSON.stringify({ schemaVersion: 1, knownFailures: [entry('NO-SUCH-REQUIREMENT', '2999-01-01')] }));
    const far = await inProcess.exec(['--baseline', join(dir, 'b.json'), '--out', join(dir, 'out')]);
    expect(far.stderr).not.toContain('Did you mean');
    expect(far.stderr).toContain('docs/requirements.md');
  });

  test('the baseline command refuses an expiry in the past', async () => {
    const dir = await tempDir();
    const run = await inProcess.exec([
      'baseline',
      '--from',
      join(dir, 'x.json'),
      '--owner',
      'o',
      '--reason',
      'r',
      '--expires',
      '2001-01-01',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--expires 2001-01-01 is in the past');
  });
});
