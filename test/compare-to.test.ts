import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatSchemaErrors, validator } from '../src/validators/schemas.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Comparison } from '../src/report/comparison/types.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { COUNTS_LINE, type CliRun } from './helpers/run-cli.js';
import { tokenForms } from './helpers/token-forms.js';

const TARGET_TOKEN = 'compare-target-token-4e7a';
const COMPARE_TOKEN = 'compare-other-token-9b2c';
const { inProcess, cleanUpAfterAll } = fileResources();

async function server(token: string, variants: string[] = []): Promise<string> {
  const started = await startReferenceServer({ token, variants });
  cleanUpAfterAll(started.close);
  return started.url;
}

async function runWithCompareTo(target: string[], compareTo: string): Promise<CliRun & { comparison: Comparison }> {
  const run = await inProcess.run([...target, '--compare-to', compareTo, '--compare-token', COMPARE_TOKEN, '--reports', 'json,md']);
  cleanUpAfterAll(run.cleanup);
  const path = join(run.outDir, 'comparison.json');
  expect(existsSync(path), `comparison.json missing; stderr: ${run.stderr}`).toBe(true);
  const comparison = JSON.parse(readFileSync(path, 'utf8')) as Comparison;
  const matchesSchema = validator('comparison');
  const valid = matchesSchema(comparison);
  expect(formatSchemaErrors(matchesSchema.errors)).toBe('');
  expect(valid).toBe(true);
  expect(run.stdout.trim().split('\n').at(-1)).toMatch(COUNTS_LINE);
  return { ...run, comparison };
}

const compareToReport = (run: CliRun): Report => JSON.parse(readFileSync(join(run.outDir, 'compare-to', 'report.json'), 'utf8')) as Report;

describe('--compare-to: two servers judged side by side', () => {
  test.concurrent('a fault that breaks a MUST: the verdict difference is listed and the run exits 1', async () => {
    const faulty = await server(TARGET_TOKEN, ['password-checked']);
    const reference = await server(COMPARE_TOKEN);
    const run = await runWithCompareTo(['--base-url', faulty, '--token', TARGET_TOKEN], reference);

    expect(run.code).toBe(1);
    expect(run.comparison.mustDiffers).toBe(true);
    expect(run.comparison.exitCode).toBe(1);
    expect(run.comparison.requirements.map(({ id, level, target, compareTo }) => ({ id, level, target, compareTo }))).toEqual([
      { id: 'AUTH-PASSWORD-IGNORED', level: 'MUST', target: 'fail', compareTo: 'pass' },
    ]);
    expect(run.comparison.requirements[0]?.targetDetail).toMatch(/password .* succeeds: HTTP 401/);
    expect(run.comparison.observations).toHaveLength(1);
    expect(run.comparison.observations[0]).toMatchObject({ aspect: 'answer', requirements: ['AUTH-PASSWORD-IGNORED'] });
    expect(run.comparison.observations[0]?.requests).toHaveLength(4);
    expect(run.comparison.observations[0]?.target).toMatch(/^HTTP 401 /);
    expect(run.comparison.observations[0]?.compareTo).toMatch(/^HTTP 200 /);

    expect(run.stdout).toContain('AUTH-PASSWORD-IGNORED (MUST)  FAIL / PASS');
    expect(run.report?.verdict).toBe('not-conformant');
    expect(compareToReport(run).verdict).toBe('conformant');
    expect(readFileSync(join(run.outDir, 'report.md'), 'utf8')).toContain(`## Comparison with ${run.comparison.compareTo.baseUrl}`);

    const everything = [run.stdout, run.stderr, ...(await run.files()).map((file) => file.content.toString('latin1'))].join('\n');
    for (const form of [...tokenForms(TARGET_TOKEN), ...tokenForms(COMPARE_TOKEN)]) expect(everything).not.toContain(form);
  });

  test.concurrent('the same fault on the compare-to side also exits 1, though the target conforms', async () => {
    const reference = await server(TARGET_TOKEN);
    const faulty = await server(COMPARE_TOKEN, ['password-checked']);
    const run = await runWithCompareTo(['--base-url', reference, '--token', TARGET_TOKEN], faulty);

    expect(run.report?.verdict).toBe('conformant');
    expect(run.code).toBe(1);
    expect(run.comparison.requirements.map(({ id, target, compareTo }) => [id, target, compareTo])).toEqual([
      ['AUTH-PASSWORD-IGNORED', 'pass', 'fail'],
    ]);
  });

  test.concurrent(
    'quirks differ in observations only: answers, the missing-translation fallback, extra fields, Content-Type; exit 0',
    async () => {
      const quirky = await server(TARGET_TOKEN, ['refuse-with-403', 'missing-lang-404', 'extra-fields', 'charset']);
      const reference = await server(COMPARE_TOKEN);
      const run = await runWithCompareTo(['--base-url', quirky, '--token', TARGET_TOKEN], reference);

      expect(run.code).toBe(0);
      expect(run.comparison.requirements).toEqual([]);
      expect(run.comparison.mustDiffers).toBe(false);
      const byAspect = (aspect: string): Comparison['observations'] =>
        run.comparison.observations.filter((difference) => difference.aspect === aspect);

      const refusals = byAspect('answer').filter((difference) => difference.target.startsWith('HTTP 403'));
      expect(refusals).toHaveLength(2);
      for (const refusal of refusals) expect(refusal.compareTo).toMatch(/^HTTP 401 /);
      expect(refusals.flatMap((refusal) => refusal.requirements)).toContain('AUTH-ERROR-RESPONSE');

      const fallback = byAspect('answer').filter((difference) => difference.requirements.includes('LANG-MISSING-FALLBACK'));
      expect(fallback).toHaveLength(1);
      expect(fallback[0]?.target).toMatch(/^HTTP 404 /);
      expect(fallback[0]?.compareTo).toMatch(/^HTTP 200 /);

      // The status, and the front controller's answer the hosting check notes (its data not read as a status).
      expect(byAspect('extra-fields').map(({ target, compareTo }) => [target, compareTo])).toEqual([
        ['top level: count, limit, start; data: description, icon', 'none'],
        ['top level: count, limit, start', 'none'],
      ]);
      expect(byAspect('content-type').map(({ target, compareTo }) => [target, compareTo])).toEqual([
        ['application/json; charset=utf-8', 'application/json'],
      ]);
      expect(run.comparison.observations).toHaveLength(6);
      expect(run.stdout).toContain('Observations that differ:');
    },
  );

  test.concurrent('two conforming servers, one of them embedded: no difference, exit 0', async () => {
    const reference = await server(COMPARE_TOKEN);
    const run = await runWithCompareTo([], reference);

    expect(run.code).toBe(0);
    expect(run.comparison.target.embeddedReference).toBe(true);
    expect(run.comparison.requirements).toEqual([]);
    expect(run.comparison.observations).toEqual([]);
    expect(run.comparison.summary).toBe('0 requirement verdict(s) differ; 0 observation(s) differ.');
  });

  test.concurrent('a compare-to server that cannot be reached gives no comparison verdict: exit 2', async () => {
    const closed = await startReferenceServer({ token: COMPARE_TOKEN });
    await closed.close();
    const run = await runWithCompareTo([], closed.url);

    expect(run.code).toBe(2);
    expect(run.comparison.exitCode).toBe(2);
    expect(run.comparison.summary).toMatch(/^Could not compare: no verdict for /);
  });

  test.concurrent('--compare-to without its own token is refused in one line, exit 2', async () => {
    const run = await inProcess.run(['--compare-to', 'http://127.0.0.1:9/']);
    cleanUpAfterAll(run.cleanup);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'CONFIG_MISSING_TOKEN: no API token for --compare-to http://127.0.0.1:9/. Pass --compare-token TOKEN, or set CONFORMANCE_COMPARE_TOKEN in the environment or in .env',
    );
  });

  test.concurrent('the compare-to token can come from CONFORMANCE_COMPARE_TOKEN', async () => {
    const reference = await server(COMPARE_TOKEN);
    const run = await inProcess.run(['--compare-to', reference], { CONFORMANCE_COMPARE_TOKEN: COMPARE_TOKEN });
    cleanUpAfterAll(run.cleanup);
    expect(run.code).toBe(0);
    expect(existsSync(join(run.outDir, 'comparison.json'))).toBe(true);
  });
});
