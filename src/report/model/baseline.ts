import type { KnownFailure, LoadedBaseline } from '../../config/baseline.js';
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

/** The known failures a run is judged against. */
export interface BaselineInput {
  baseline: LoadedBaseline;
  /** The target's name in a matrix: entries naming another target are left out. */
  targetName?: string;
  /** The day expiries are judged on (YYYY-MM-DD); today by default. */
  today?: string;
}

/**
 * How each entry meant for this target (those without a target, and those naming it) turned out: a known failure
 * before its expiry does not fail the run; an expired one does.
 */
export function baselineResults(
  { baseline, targetName, today = new Date().toISOString().slice(0, 10) }: BaselineInput,
  requirements: readonly RequirementResult[],
  strict: boolean,
): NonNullable<Report['baseline']> {
  const entries = baseline.knownFailures.filter((entry) => entry.target === undefined || entry.target === targetName);
  return {
    file: baseline.file,
    entries: entries.map((entry) =>
      judge(
        entry,
        requirements.find((result) => result.id === entry.requirement),
        strict,
        today,
      ),
    ),
  };
}
