import { expect } from 'vitest';
import { variants } from '../../src/reference-server/faults.js';
import { expectedFronts, expectedKills, expectedWarnings } from '../../src/reference-server/kills.js';
import type { Report } from '../../src/report/model/types.js';
import { COUNTS_LINE, failedRequirements, type CliRun } from './run-cli.js';

/** What a run against the reference server with one of its variants must show: a fault, a warning or a front. */
export const verdicts = (report: Report | undefined): Record<string, string> =>
  Object.fromEntries((report?.requirements ?? []).map((result) => [result.id, result.verdict]));

export function expectFaultCaught(run: CliRun, name: string): void {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(1);
  expect(run.report?.verdict).toBe('not-conformant');
  expect(failedRequirements(run.report)).toEqual([...(expectedKills[name] ?? ['<no expectation written for this fault>'])].sort());
  expect(run.stdout.trim().split('\n').at(-1)).toMatch(COUNTS_LINE);
}

export function expectWarned(run: CliRun, name: string): void {
  expect(run.code).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
  expect(failedRequirements(run.report)).toEqual([]);
  const warned = (run.report?.requirements ?? []).filter((result) => result.verdict === 'warn').map((result) => result.id);
  expect(warned.sort()).toEqual([...(expectedWarnings[name] ?? ['<no expectation written for this variant>'])].sort());
}

export function expectFrontNamed(run: CliRun, name: string): void {
  expect(run.code).toBe(2);
  expect(run.report?.verdict).toBe('inconclusive');
  expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual([expectedFronts[name]]);
  expect((run.report?.requirements ?? []).filter((result) => result.verdict === 'pass' || result.verdict === 'fail')).toEqual([]);
}

/** Every quirk of the reference server at once, with brotli as the one response encoding. */
export const ALL_QUIRKS_AT_ONCE = variants
  .filter((variant) => variant.kind === 'quirk')
  .map((variant) => variant.name)
  .filter((name) => name !== 'gzip' && name !== 'deflate');

/** A conformant run: nothing but passes and observations, exit 0. */
export function expectConformant(run: CliRun): void {
  const notPassing = (run.report?.requirements ?? [])
    .filter((result) => !['pass', 'info'].includes(result.verdict))
    .map((result) => `${result.id}: ${result.verdict}`);
  expect(notPassing).toEqual([]);
  expect(run.code).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
}
