import { STRICT_LEVELS } from '../../requirements/types.js';
import type { Report, RequirementResult, Verdict } from './types.js';

/**
 * What a requirement's verdict is to the gate, and so how every view counts it: the exit code (runOutcome), the counts
 * line, junit.xml, ctrf.json, Allure, report.md and the job summary, report.html and the badge all read outcomeOf.
 * - passed;
 * - failed: it fails the run: a MUST broken, a SHOULD or CLIENT broken under --strict, or one of them broken in any
 *   --repeat run (flaky);
 * - warned: a SHOULD or CLIENT broken without --strict: a rule broken that does not fail the run;
 * - waived: a failure the baseline waives, which does not fail the run either;
 * - skipped: not judged, with the reason;
 * - observed: an INFO observation, where the document sets no rule;
 * - unjudged: the suite could not judge it (an error, or a verdict that changed between runs with no failure in any).
 * Each format writes them as it can; docs/reports.md says how.
 */
export const OUTCOMES = ['passed', 'failed', 'warned', 'waived', 'skipped', 'observed', 'unjudged'] as const;
export type Outcome = (typeof OUTCOMES)[number];

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

/** The outcome of a verdict that does not fail the run. A flaky one that did not fail is unjudged, as the gate has it. */
const NOT_FAILING: Record<Verdict, Outcome> = {
  pass: 'passed',
  fail: 'failed',
  warn: 'warned',
  skip: 'skipped',
  info: 'observed',
  error: 'unjudged',
  flaky: 'unjudged',
};

/** The one rule: what a requirement's verdict is to the gate under these options and waivers. */
export function outcomeOf(result: Pick<RequirementResult, 'verdict' | 'level' | 'checks'>, strict: boolean, waived: boolean): Outcome {
  if (failsRun(result, strict)) return waived ? 'waived' : 'failed';
  if (result.verdict === 'flaky' && result.level === 'INFO') return 'observed';
  return NOT_FAILING[result.verdict];
}

/** Each requirement of the report with its outcome, under the run's --strict and the baseline's waivers. */
export function outcomesOf(
  report: Pick<Report, 'requirements' | 'baseline' | 'options'>,
): { result: RequirementResult; outcome: Outcome }[] {
  const waived = waivedRequirements(report);
  return report.requirements.map((result) => ({ result, outcome: outcomeOf(result, report.options.strict, waived.has(result.id)) }));
}

/** How many of each outcome, every outcome named. */
export function countOutcomes(outcomes: Iterable<Outcome>): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, 0])) as Record<Outcome, number>;
  for (const outcome of outcomes) counts[outcome] += 1;
  return counts;
}

export function outcomeCounts(report: Pick<Report, 'requirements' | 'baseline' | 'options'>): Record<Outcome, number> {
  return countOutcomes(outcomesOf(report).map(({ outcome }) => outcome));
}
