import type { RecordedCheck } from '../../judge/scenario-result.js';
import type { Level, Requirement } from '../../requirements/types.js';
import type { ExitCode, Report, RequirementResult, RunVerdict, Verdict } from './types.js';
import type { RunError } from '../../errors.js';

/** What a failed check makes of its requirement: a broken MUST fails, a SHOULD or CLIENT warns, an INFO is observed. */
const FAILED_AS: Record<Level, Verdict> = { MUST: 'fail', SHOULD: 'warn', CLIENT: 'warn', INFO: 'info' };

/** The levels whose failure fails the run only under --strict. */
const STRICT_LEVELS: ReadonlySet<Level> = new Set(['SHOULD', 'CLIENT']);

/** Folds every check of one requirement into its verdict: a failure outweighs an error, which outweighs a pass. */
export function requirementVerdict(requirement: Pick<Requirement, 'level'>, checks: RecordedCheck[]): Verdict {
  const has = (verdict: RecordedCheck['verdict']): boolean => checks.some((check) => check.verdict === verdict);
  if (has('fail')) return FAILED_AS[requirement.level];
  if (has('error')) return 'error';
  if (has('pass')) return 'pass';
  if (has('info')) return 'info';
  return 'skip';
}

/**
 * Whether a requirement's verdict fails the run by itself, before any baseline: a MUST broken, a SHOULD or CLIENT under
 * --strict, or either of them broken in any --repeat run.
 */
export function failsRun(result: Pick<RequirementResult, 'verdict' | 'level' | 'checks'>, strict: boolean): boolean {
  if (result.verdict === 'flaky') {
    return (
      result.checks.some((check) => check.verdict === 'fail') && (result.level === 'MUST' || (strict && STRICT_LEVELS.has(result.level)))
    );
  }
  return result.verdict === 'fail' || (strict && result.verdict === 'warn');
}

/** Requirements whose failure a baseline waives: known failures before their expiry. */
export function waivedRequirements(report: Pick<Report, 'baseline'>): Set<string> {
  return new Set((report.baseline?.entries ?? []).filter((entry) => entry.outcome === 'known').map((entry) => entry.requirement));
}

export function runOutcome(
  results: RequirementResult[],
  strict: boolean,
  runErrors: RunError[],
  waived: ReadonlySet<string> = new Set(),
  couldNotJudge = false,
): { verdict: RunVerdict; exitCode: ExitCode } {
  // A report that could not be written safely gives no verdict, whatever it found.
  // Nor does a run the deadline cut short: what it found is in the report, but the verdict would be on part of the API.
  // Nor does a run whose requests never reached the API (a front answered, or the set-up points at nothing).
  if (couldNotJudge || runErrors.some((error) => error.code === 'HARNESS_SECRET_LEAK' || error.code === 'HARNESS_DEADLINE')) {
    return { verdict: 'inconclusive', exitCode: 2 };
  }
  const failing = results.filter((result) => failsRun(result, strict));
  if (failing.some((result) => !waived.has(result.id))) return { verdict: 'not-conformant', exitCode: 1 };
  const errored =
    runErrors.length > 0 || results.some((result) => result.verdict === 'error' || (result.verdict === 'flaky' && result.level !== 'INFO'));
  // Every failure is a known one: still not conformant, but nothing new for the gate.
  if (failing.length > 0) return errored ? { verdict: 'inconclusive', exitCode: 2 } : { verdict: 'not-conformant', exitCode: 0 };
  const mustPassed = results.some((result) => result.level === 'MUST' && result.verdict === 'pass');
  if (errored || !mustPassed) return { verdict: 'inconclusive', exitCode: 2 };
  return { verdict: 'conformant', exitCode: 0 };
}
