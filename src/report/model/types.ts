import type { FaultParty, RunError } from '../../errors.js';
import type { RecordedOptions } from '../../record/settings.js';
import type { Diagnosis } from '../../diagnosis/types.js';
import type { JudgedExchange, RecordedCheck } from '../../judge/scenario-result.js';
import type { Profile, Requirement } from '../../requirements/types.js';
import type { REPORT_SCHEMA_VERSION } from '../../version.js';

/** flaky: the verdict changed between repeated runs (--repeat); it is never counted as a pass. */
export type Verdict = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'flaky';
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'];

export type RunVerdict = 'conformant' | 'not-conformant' | 'inconclusive';
export type ExitCode = 0 | 1 | 2;

export interface RequirementResult extends Requirement {
  verdict: Verdict;
  /** Whose fault a result that is not a pass most likely is. */
  party?: FaultParty;
  checks: RecordedCheck[];
  /** With --repeat: how many runs there were, how many agreed on the commonest verdict, and the verdicts seen. */
  repeat?: { runs: number; agreed: number; verdicts: Partial<Record<Verdict, number>> };
}

/** What identifies the target beyond its address, taken from the answers it already gave. */
export interface TargetFingerprint {
  /** Distinct Server header values the target answered with. */
  server: string[];
  /** SHA-256 fingerprints of the TLS certificates it presented (https only), as openssl x509 -fingerprint -sha256 prints them. */
  tlsCertificateSha256: string[];
}

/** Hashes that make the report a verifiable record; each is "sha256:" and 64 hex digits. */
export interface Integrity {
  /** The requirement catalog the run judged by. */
  catalog: string;
  /** The effective configuration without secrets: the base URL and the options recorded in the report. */
  configuration: string;
  /** Everything in report.json except this field, in canonical JSON; set when the report is written. */
  content?: string;
}

/** Something the user chose or allowed that weakens what the suite promises about the token. */
export interface RunWarning {
  code: 'TLS_NOT_VERIFIED' | 'TOKEN_OVER_PLAIN_HTTP' | 'STEP_SUMMARY_NOT_WRITTEN';
  message: string;
}

export type BaselineOutcome = 'known' | 'expired' | 'fixed' | 'not-judged';

/** One known failure of the baseline, as it turned out in this run. */
export interface BaselineResult {
  requirement: string;
  target?: string;
  reason: string;
  owner: string;
  expires: string;
  /** known: still failing, waived; expired: still failing, no longer waived; fixed: passes now; not-judged: skipped or errored. */
  outcome: BaselineOutcome;
  note: string;
}

/** What a profile's requirements found, said once for every view (--profile official-client). */
export interface ProfileResult {
  name: Profile;
  /** The client whose code the profile's requirements quote, as read. */
  client: { repository: string; version: string; commit: string };
  /** would-work: its checks passed; would-fail: one of them failed; not-judged: none could be judged. */
  outcome: 'would-work' | 'would-fail' | 'not-judged';
  summary: string;
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  suite: { name: string; version: string };
  /** The trace id every request of the run carried in its W3C traceparent header, to join the target's logs to this report. */
  runId?: string;
  target: { baseUrl: string; embeddedReference: boolean; fingerprint?: TargetFingerprint };
  options: RecordedOptions;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  complete: boolean;
  verdict: RunVerdict;
  exitCode: ExitCode;
  summary: string;
  totals: Record<Verdict, number>;
  /** rateLimited: HTTP 429 answers met; waitedMs: time paused for them. */
  requests: { sent: number; rateLimited?: number; waitedMs?: number };
  requirements: RequirementResult[];
  /**
   * Each request the checks judged and its answer, once, by the key recording.json gives it; a check names its
   * exchange by that key. With --repeat, a later run's exchange is under "run N: KEY" (see docs/reports.md).
   */
  exchanges: Record<string, JudgedExchange>;
  diagnoses: Diagnosis[];
  errors: RunError[];
  integrity?: Integrity;
  warnings?: RunWarning[];
  /** Set when the run was given a baseline of known failures. */
  baseline?: { file: string; entries: BaselineResult[] };
  /** Set when the run was given a profile (--profile): its requirements are among requirements, level CLIENT. */
  profile?: ProfileResult;
}

/** The exchange a check judged, looked up by the key it names. */
export function exchangeOf(report: Pick<Report, 'exchanges'>, check: RecordedCheck): JudgedExchange | undefined {
  return check.exchange === undefined ? undefined : report.exchanges[check.exchange];
}
