import { expect } from 'vitest';
import { contradictions } from '../../src/diagnosis/causes.js';
import type { HarnessErrorCode } from '../../src/errors.js';
import type { Report, Verdict } from '../../src/report/model/types.js';
import { openSocketsAfter, type LoopbackServer } from './loopback-server.js';
import { COUNTS_LINE, type CliRun } from './run-cli.js';

export interface RunExpectation {
  exit: 0 | 1 | 2;
  /** A line of the terminal output that names the problem. */
  line?: RegExp;
  /** A harness error the report must record. */
  code?: HarnessErrorCode;
  token: string;
  servers: LoopbackServer[];
}

/** The requirements of a report with this verdict, sorted. */
export const requirementsWith = (report: Report, verdict: Verdict): string[] =>
  report.requirements
    .filter((result) => result.verdict === verdict)
    .map((result) => result.id)
    .sort();

/** Every harness error code in the report: the run's own and those of each check. */
export function errorCodes(report: Report | undefined): string[] {
  const codes = (report?.errors ?? []).map((error) => error.code);
  for (const result of report?.requirements ?? []) for (const check of result.checks) if (check.error) codes.push(check.error.code);
  return [...new Set(codes)];
}

/**
 * What every run against a bad target must show: it ended by itself with the right exit code, said what went wrong
 * in one line, wrote a report whose diagnoses agree with the classification of the answers they cite, kept the token
 * out of everything, and left no connection open.
 */
export async function expectSettledRun(run: CliRun, expected: RunExpectation): Promise<void> {
  expect({ exit: run.code, signal: run.signal, stderr: run.stderr.slice(0, 400) }).toEqual({
    exit: expected.exit,
    signal: null,
    stderr: expect.any(String) as string,
  });
  if (expected.line) expect(run.stdout).toMatch(expected.line);
  expect(run.stdout + run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stdout.trim().split('\n').at(-1)).toMatch(COUNTS_LINE);
  expect(run.report?.exitCode).toBe(expected.exit);
  expect(run.report?.requests.sent).toBeLessThanOrEqual(run.report?.options.maxRequests ?? 0);
  if (expected.code) expect(errorCodes(run.report)).toContain(expected.code);
  if (run.report) expect(contradictions(run.report.diagnoses, run.report.exchanges)).toEqual([]);

  const basic = Buffer.from(`${expected.token}:x`).toString('base64');
  const outputs = [run.stdout, run.stderr, ...(await run.files()).map((file) => file.content.toString('utf8'))];
  expect(outputs.filter((text) => text.includes(expected.token) || text.includes(basic))).toEqual([]);
  expect(await openSocketsAfter(expected.servers)).toBe(0);
}
