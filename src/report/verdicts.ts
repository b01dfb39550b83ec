import type { RecordedCheck } from '../harness/scenario-result.js';
import type { Requirement } from '../requirements/types.js';
import type { ExitCode, RequirementResult, RunError, RunVerdict, Verdict } from './types.js';

/** Folds every check of one requirement into its verdict: a failure outweighs an error, which outweighs a pass. */
export function requirementVerdict(requirement: Requirement, checks: RecordedCheck[]): Verdict {
  const has = (verdict: RecordedCheck['verdict']): boolean => checks.some((check) => check.verdict === verdict);
  if (has('fail')) return requirement.level === 'MUST' ? 'fail' : requirement.level === 'SHOULD' ? 'warn' : 'info';
  if (has('error')) return 'error';
  if (has('pass')) return 'pass';
  if (has('info')) return 'info';
  return 'skip';
}

export function runOutcome(
  results: RequirementResult[],
  strict: boolean,
  runErrors: RunError[],
): { verdict: RunVerdict; exitCode: ExitCode } {
  // A report that could not be written safely gives no verdict, whatever it found.
  // Nor does a run the deadline cut short: what it found is in the report, but the verdict would be on part of the API.
  if (runErrors.some((error) => error.code === 'HARNESS_SECRET_LEAK' || error.code === 'HARNESS_DEADLINE')) {
    return { verdict: 'inconclusive', exitCode: 2 };
  }
  const failedOnce = (result: RequirementResult): boolean =>
    result.verdict === 'flaky' &&
    result.checks.some((check) => check.verdict === 'fail') &&
    (result.level === 'MUST' || (strict && result.level === 'SHOULD'));
  const failed = results.some((result) => result.verdict === 'fail' || (strict && result.verdict === 'warn') || failedOnce(result));
  if (failed) return { verdict: 'not-conformant', exitCode: 1 };
  const errored =
    runErrors.length > 0 || results.some((result) => result.verdict === 'error' || (result.verdict === 'flaky' && result.level !== 'INFO'));
  const mustPassed = results.some((result) => result.level === 'MUST' && result.verdict === 'pass');
  if (errored || !mustPassed) return { verdict: 'inconclusive', exitCode: 2 };
  return { verdict: 'conformant', exitCode: 0 };
}
