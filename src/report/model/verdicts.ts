import type { RecordedCheck } from '../../judge/scenario-result.js';
import type { Level, Requirement } from '../../requirements/types.js';
import type { ExitCode, RequirementResult, RunVerdict, Verdict } from './types.js';
import type { RunError } from '../../errors.js';
import { outcomeOf } from './outcomes.js';

/** What a failed check makes of its requirement: a broken MUST fails, a SHOULD or CLIENT warns, an INFO is observed. */
const FAILED_AS: Record<Level, Verdict> = { MUST: 'fail', SHOULD: 'warn', CLIENT: 'warn', INFO: 'info' };

/** Folds every check of one requirement into its verdict: a failure outweighs an error, which outweighs a pass. */
export function requirementVerdict(requirement: Pick<Requirement, 'level'>, checks: RecordedCheck[]): Verdict {
  const has = (verdict: RecordedCheck['verdict']): boolean => checks.some((check) => check.verdict === verdict);
  if (has('fail')) return FAILED_AS[requirement.level];
  if (has('error')) return 'error';
  if (has('pass')) return 'pass';
  if (has('info')) return 'info';
  return 'skip';
}

/** What gives no verdict whatever else the run found: a report not written safely, a run cut short. */
const CUT_SHORT = new Set(['HARNESS_SECRET_LEAK', 'HARNESS_DEADLINE', 'HARNESS_INTERRUPTED']);

export function runOutcome(
  results: RequirementResult[],
  strict: boolean,
  runErrors: RunError[],
  waived: ReadonlySet<string> = new Set(),
  couldNotJudge = false,
): { verdict: RunVerdict; exitCode: ExitCode } {
  // A report that could not be written safely gives no verdict, whatever it found.
  // Nor does a run the deadline or an interruption cut short: what it found is in the report, but the verdict would be
  // on part of the API.
  // Nor does a run whose requests never reached the API (a front answered, or the set-up points at nothing).
  if (couldNotJudge || runErrors.some((error) => CUT_SHORT.has(error.code))) {
    return { verdict: 'inconclusive', exitCode: 2 };
  }
  const outcomes = results.map((result) => outcomeOf(result, strict, waived.has(result.id)));
  if (outcomes.includes('failed')) return { verdict: 'not-conformant', exitCode: 1 };
  const errored =
    runErrors.length > 0 || results.some((result) => result.verdict === 'error' || (result.verdict === 'flaky' && result.level !== 'INFO'));
  // Every failure is a known one: still not conformant, but nothing new for the gate.
  if (outcomes.includes('waived')) return errored ? { verdict: 'inconclusive', exitCode: 2 } : { verdict: 'not-conformant', exitCode: 0 };
  const mustPassed = results.some((result) => result.level === 'MUST' && result.verdict === 'pass');
  if (errored || !mustPassed) return { verdict: 'inconclusive', exitCode: 2 };
  return { verdict: 'conformant', exitCode: 0 };
}
