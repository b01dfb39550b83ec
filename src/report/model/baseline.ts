import type { KnownFailure, LoadedBaseline } from '../../config/baseline.js';
import { settleOutcome } from './build.js';
import type { BaselineResult, Report, RequirementResult } from './types.js';
import { failsRun } from './outcomes.js';

function judge(entry: KnownFailure, result: RequirementResult | undefined, strict: boolean, today: string): BaselineResult {
  const { requirement, reason, owner, expires } = entry;
  const base = { requirement, ...(entry.target === undefined ? {} : { target: entry.target }), reason, owner, expires };
  if (result && failsRun(result, strict)) {
    return expires < today
      ? { ...base, outcome: 'expired', note: `expired on ${expires}: the failure counts again; fix it or renew the entry` }
      : { ...base, outcome: 'known', note: `known failure until ${expires} (${owner})` };
  }
  if (!result || result.verdict === 'skip' || result.verdict === 'error') {
    return { ...base, outcome: 'not-judged', note: 'could not be judged in this run, so it is neither known nor fixed' };
  }
  return { ...base, outcome: 'fixed', note: 'fixed: remove it from the baseline' };
}

/**
 * Applies the entries meant for this target (those without a target, and those naming it):
 * a known failure before its expiry does not fail the run; an expired one does.
 */
export function applyBaseline(
  report: Report,
  baseline: LoadedBaseline,
  targetName?: string,
  today = new Date().toISOString().slice(0, 10),
): void {
  const entries = baseline.knownFailures.filter((entry) => entry.target === undefined || entry.target === targetName);
  report.baseline = {
    file: baseline.file,
    entries: entries.map((entry) =>
      judge(
        entry,
        report.requirements.find((result) => result.id === entry.requirement),
        report.options.strict,
        today,
      ),
    ),
  };
  settleOutcome(report);
}
