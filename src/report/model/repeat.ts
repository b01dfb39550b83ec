import { settleOutcome } from './build.js';
import type { Report, RequirementResult, Verdict } from './types.js';
import { VERDICTS } from './types.js';

function countVerdicts(results: RequirementResult[]): Partial<Record<Verdict, number>> {
  const counts: Partial<Record<Verdict, number>> = {};
  for (const result of results) counts[result.verdict] = (counts[result.verdict] ?? 0) + 1;
  return counts;
}

/** Errors that say the invocation ran out (of time or requests), not that the target answered differently. */
const OUT_OF_BUDGET = new Set(['HARNESS_DEADLINE', 'HARNESS_REQUEST_BUDGET']);
const outOfBudget = (result: RequirementResult): boolean =>
  result.checks.some((check) => check.error !== undefined && OUT_OF_BUDGET.has(check.error.code));

/** Whether a run was cut short by the deadline or the request budget of the invocation. */
export function cutShort(report: Report): boolean {
  return report.errors.some((error) => OUT_OF_BUDGET.has(error.code)) || report.requirements.some(outOfBudget);
}

/**
 * One requirement over every run: its verdict if all runs agree, otherwise flaky with the checks of a run that did not
 * pass. A run that the deadline or the request budget cut short did not judge the requirement, so it is not compared.
 */
function mergeRequirement(all: RequirementResult[]): RequirementResult {
  const judged = all.filter((run) => !outOfBudget(run));
  const runs = judged.length > 0 ? judged : all.slice(0, 1);
  const [first] = runs;
  if (!first) throw new Error('no run to merge');
  const verdicts = countVerdicts(runs);
  const repeat = { runs: runs.length, agreed: Math.max(...Object.values(verdicts)), verdicts };
  if (repeat.agreed === runs.length) return { ...first, repeat };
  const telling =
    runs.find((run) => run.verdict === 'fail' || run.verdict === 'warn') ?? runs.find((run) => run.verdict !== 'pass') ?? first;
  return { ...telling, verdict: 'flaky', party: telling.party ?? 'target', repeat };
}

/** Folds the reports of --repeat runs into one; a requirement whose verdict changed is flaky, never a pass. */
export function mergeRepeatedRuns(reports: Report[]): Report {
  const [first] = reports;
  if (!first) throw new Error('no report to merge');
  if (reports.length === 1) return first;
  const last = reports[reports.length - 1] ?? first;
  const requirements = first.requirements.map((requirement, index) =>
    mergeRequirement(reports.map((report) => report.requirements[index] ?? requirement)),
  );
  const diagnoses = [...new Map(reports.flatMap((report) => report.diagnoses).map((diagnosis) => [diagnosis.id, diagnosis])).values()];
  const merged: Report = {
    ...first,
    finishedAt: last.finishedAt,
    durationMs: new Date(last.finishedAt).getTime() - new Date(first.startedAt).getTime(),
    complete: reports.every((report) => report.complete),
    requests: { sent: reports.reduce((sum, report) => sum + report.requests.sent, 0) },
    requirements,
    totals: Object.fromEntries(
      VERDICTS.map((verdict) => [verdict, requirements.filter((result) => result.verdict === verdict).length]),
    ) as Record<Verdict, number>,
    diagnoses,
    errors: reports.flatMap((report) => report.errors),
  };
  settleOutcome(merged);
  return merged;
}
