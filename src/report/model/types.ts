import type { FaultParty, RunError } from '../../errors.js';
import type { Diagnosis } from '../../diagnosis/types.js';
import type { JudgedExchange, RecordedCheck } from '../../judge/scenario-result.js';
import type * as ReportFile from '../../validators/types/report.generated.js';
import type { Profile, Requirement } from '../../requirements/types.js';

/** flaky: the verdict changed between repeated runs (--repeat); it is never counted as a pass. */
export type Verdict = ReportFile.Verdict;
export const VERDICTS = ['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'] as const satisfies readonly Verdict[];

export type RunVerdict = ReportFile.TicketingConformanceReport['verdict'];
export type ExitCode = ReportFile.TicketingConformanceReport['exitCode'];

/** The catalog's typed IDs, and the checks' typed error codes, where the schema only checks their form. */
export type RequirementResult = Omit<ReportFile.RequirementResult, keyof Requirement | 'checks'> &
  Requirement & {
    /** Whose fault a result that is not a pass most likely is. */
    party?: FaultParty;
    checks: RecordedCheck[];
  };

/** What identifies the target beyond its address, taken from the answers it already gave. */
export type TargetFingerprint = NonNullable<ReportFile.TicketingConformanceReport['target']['fingerprint']>;

export type { RunWarning } from '../../errors.js';

/** One known failure of the baseline, as it turned out in this run. */
export type BaselineResult = ReportFile.BaselineResult;

/** What a profile's requirements found, said once for every view (--profile official-client). */
export type ProfileResult = Omit<NonNullable<ReportFile.TicketingConformanceReport['profile']>, 'name'> & { name: Profile };

/**
 * report.json as its schema has it, with the vocabularies the code owns typed by the code: requirement IDs (the
 * catalog), error codes (errors.ts) and diagnosis IDs (the diagnosis rules); the schema checks only their form.
 */
export type Report = Omit<ReportFile.TicketingConformanceReport, 'requirements' | 'diagnoses' | 'errors'> & {
  requirements: RequirementResult[];
  diagnoses: Diagnosis[];
  errors: RunError[];
};

/**
 * What one pass over the target found, with the causes the diagnosis named: the facts a report is built from (see
 * buildReport), before the passes are merged, the baseline judged and the verdict settled.
 */
export type DiagnosedPass = Omit<Report, 'verdict' | 'exitCode' | 'summary' | 'totals' | 'profile' | 'baseline' | 'integrity' | 'warnings'>;

/** The exchange a check judged, looked up by the key it names. */
export function exchangeOf(report: Pick<Report, 'exchanges'>, check: RecordedCheck): JudgedExchange | undefined {
  return check.exchange === undefined ? undefined : report.exchanges[check.exchange];
}
