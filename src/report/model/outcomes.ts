import type { Report, RequirementResult, Verdict } from './types.js';
import { waivedRequirements } from './verdicts.js';

/**
 * The four outcomes the terminal and every CI file count by, so that their totals agree: passed, failed (a rule the
 * target broke: a MUST, a SHOULD, or either of them in one --repeat run), skipped (not judged, or a failure the
 * baseline waives) and other (an INFO observation, where the document sets no rule, or a requirement the suite could
 * not judge). Each format writes them as it can; docs/reports.md says how.
 */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'other';
export const OUTCOMES: readonly Outcome[] = ['passed', 'failed', 'skipped', 'other'];

const BY_VERDICT: Record<Verdict, Outcome> = {
  pass: 'passed',
  fail: 'failed',
  warn: 'failed',
  flaky: 'failed',
  skip: 'skipped',
  info: 'other',
  error: 'other',
};

export function outcomeOf(result: Pick<RequirementResult, 'verdict'>, waived: boolean): Outcome {
  return waived ? 'skipped' : BY_VERDICT[result.verdict];
}

/** Each requirement of the report with its outcome, the baseline's waivers applied. */
export function outcomesOf(report: Pick<Report, 'requirements' | 'baseline'>): { result: RequirementResult; outcome: Outcome }[] {
  const waived = waivedRequirements(report);
  return report.requirements.map((result) => ({ result, outcome: outcomeOf(result, waived.has(result.id)) }));
}

export function outcomeCounts(report: Pick<Report, 'requirements' | 'baseline'>): Record<Outcome, number> {
  const counts: Record<Outcome, number> = { passed: 0, failed: 0, skipped: 0, other: 0 };
  for (const { outcome } of outcomesOf(report)) counts[outcome] += 1;
  return counts;
}
