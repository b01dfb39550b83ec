import type { DiagnosedPass, Report, RequirementResult, Verdict } from './types.js';

function countVerdicts(results: RequirementResult[]): Partial<Record<Verdict, number>> {
  const counts: Partial<Record<Verdict, number>> = {};
  for (const result of results) counts[result.verdict] = (counts[result.verdict] ?? 0) + 1;
  return counts;
}

/** Errors that say the invocation ran out (of time or requests), not that the target answered differently. */
const OUT_OF_BUDGET = new Set(['HARNESS_DEADLINE', 'HARNESS_REQUEST_BUDGET', 'HARNESS_INTERRUPTED']);
const outOfBudget = (result: RequirementResult): boolean =>
  result.checks.some((check) => check.error !== undefined && OUT_OF_BUDGET.has(check.error.code));

/** Whether a run was cut short by the deadline or the request budget of the invocation, or by an interruption. */
export function cutShort(report: Pick<DiagnosedPass, 'errors' | 'requirements'>): boolean {
  return report.errors.some((error) => OUT_OF_BUDGET.has(error.code)) || report.requirements.some(outOfBudget);
}

/**
 * The key of run N's exchange in the merged report: the first run's keys are the recording's own; a later run's answer
 * to the same request may differ (that is what --repeat looks for), so its key says which run of recording.json it is.
 */
function repeatedRunKey(key: string, runIndex: number): string {
  return runIndex === 0 ? key : `run ${runIndex + 1}: ${key}`;
}

/** One run's judgement of a requirement, with the exchanges its checks name under their merged keys. */
function fromRun(result: RequirementResult, pass: DiagnosedPass, runIndex: number, exchanges: Report['exchanges']): RequirementResult {
  const checks = result.checks.map((check) => {
    if (check.exchange === undefined) return check;
    const exchange = pass.exchanges[check.exchange];
    const key = repeatedRunKey(check.exchange, runIndex);
    if (exchange) exchanges[key] = exchange;
    return { ...check, exchange: key };
  });
  return { ...result, checks };
}

/**
 * One requirement over every run: its verdict if all runs agree, otherwise flaky with the checks of a run that did not
 * pass. A run that the deadline or the request budget cut short did not judge the requirement, so it is not compared.
 */
function mergeRequirement(all: { result: RequirementResult; runIndex: number }[]): { result: RequirementResult; runIndex: number } {
  const judged = all.filter((run) => !outOfBudget(run.result));
  const runs = judged.length > 0 ? judged : all.slice(0, 1);
  const [first] = runs;
  if (!first) throw new Error('no run to merge');
  const verdicts = countVerdicts(runs.map((run) => run.result));
  const repeat = { runs: runs.length, agreed: Math.max(...Object.values(verdicts)), verdicts };
  if (repeat.agreed === runs.length) return { result: { ...first.result, repeat }, runIndex: first.runIndex };
  const telling =
    runs.find((run) => run.result.verdict === 'fail' || run.result.verdict === 'warn') ??
    runs.find((run) => run.result.verdict !== 'pass') ??
    first;
  return {
    result: { ...telling.result, verdict: 'flaky', party: telling.result.party ?? 'target', repeat },
    runIndex: telling.runIndex,
  };
}

/** Folds the passes of --repeat into one; a requirement whose verdict changed is flaky, never a pass. */
export function mergePasses(passes: readonly DiagnosedPass[]): DiagnosedPass {
  const [first] = passes;
  if (!first) throw new Error('no pass to merge');
  if (passes.length === 1) return first;
  const last = passes[passes.length - 1] ?? first;
  // Only the exchanges the kept checks name are kept, each under a key unique over the runs.
  const exchanges: Report['exchanges'] = {};
  const requirements = first.requirements.map((requirement, index) => {
    const { result, runIndex } = mergeRequirement(
      passes.map((pass, runIndex) => {
        const result = pass.requirements[index];
        return result ? { result, runIndex } : { result: requirement, runIndex: 0 };
      }),
    );
    return fromRun(result, passes[runIndex] ?? first, runIndex, exchanges);
  });
  const diagnoses = [...new Map(passes.flatMap((pass) => pass.diagnoses).map((diagnosis) => [diagnosis.id, diagnosis])).values()];
  return {
    ...first,
    finishedAt: last.finishedAt,
    durationMs: new Date(last.finishedAt).getTime() - new Date(first.startedAt).getTime(),
    complete: passes.every((pass) => pass.complete),
    requests: { sent: passes.reduce((sum, pass) => sum + pass.requests.sent, 0) },
    requirements,
    exchanges,
    diagnoses,
    errors: passes.flatMap((pass) => pass.errors),
  };
}
