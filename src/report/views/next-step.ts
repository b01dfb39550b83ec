import { failingChecks } from './failure-text.js';
import type { Report } from '../model/types.js';

/** The first thing to do after a run that was not conformant, in plain words. */
function nextStep(report: Report): string | undefined {
  if (report.exitCode === 0) return undefined;
  const advice = report.diagnoses[0]?.advice[0];
  if (advice) return advice;
  const error = report.errors[0] ?? report.requirements.flatMap((result) => result.checks).find((check) => check.error)?.error;
  if (error) return error.hint;
  // The first MUST that failed comes first; a SHOULD is named only when no MUST failed.
  const failed =
    report.requirements.find((result) => result.level === 'MUST' && (result.verdict === 'fail' || result.verdict === 'flaky')) ??
    report.requirements.find((result) => result.verdict === 'fail' || result.verdict === 'flaky' || result.verdict === 'warn');
  const check = failed ? failingChecks(failed)[0] : undefined;
  if (failed && check)
    return `make ${failed.id} pass: ${check.description} (expected ${check.expected ?? 'see the report'}; got ${check.actual ?? '?'})`;
  return 'see report.json for what could not be judged';
}

export function verdictLine(report: Report): string {
  const next = nextStep(report);
  return `Verdict for ${report.target.baseUrl}: ${report.summary}${next ? ` Next: ${next}` : ''}`;
}
