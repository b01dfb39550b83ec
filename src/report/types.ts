import type { FaultParty, HarnessErrorCode } from '../errors.js';
import type { RecordedCheck } from '../harness/scenario-result.js';
import type { Requirement } from '../requirements/types.js';

export type Verdict = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error';
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warn', 'info', 'skip', 'error'];

export type RunVerdict = 'conformant' | 'not-conformant' | 'inconclusive';
export type ExitCode = 0 | 1 | 2;

export interface RequirementResult extends Requirement {
  verdict: Verdict;
  /** Whose fault a result that is not a pass most likely is. */
  party?: FaultParty;
  checks: RecordedCheck[];
}

export interface Diagnosis {
  id: string;
  party: FaultParty;
  confidence: 'high' | 'medium' | 'low';
  summary: string;
  evidence: string;
  advice: string[];
}

export interface RunError {
  code: HarnessErrorCode;
  message: string;
  hint: string;
  party: FaultParty;
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

export interface Report {
  schemaVersion: 1;
  suite: { name: string; version: string };
  target: { baseUrl: string; embeddedReference: boolean };
  options: { statusId: number; lang?: string; missingLang?: string; strict: boolean; timeoutMs: number; maxRequests: number };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  complete: boolean;
  verdict: RunVerdict;
  exitCode: ExitCode;
  summary: string;
  totals: Record<Verdict, number>;
  requests: { sent: number };
  requirements: RequirementResult[];
  diagnoses: Diagnosis[];
  errors: RunError[];
  /** Set when the run was given a baseline of known failures. */
  baseline?: { file: string; entries: BaselineResult[] };
}
