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

/** Something the user chose or allowed that weakens what the suite promises about the token. */
export interface RunWarning {
  code: 'TLS_NOT_VERIFIED' | 'TOKEN_OVER_PLAIN_HTTP';
  message: string;
}

export interface Report {
  schemaVersion: 1;
  suite: { name: string; version: string };
  target: { baseUrl: string; embeddedReference: boolean };
  options: {
    statusId: number;
    lang?: string;
    missingLang?: string;
    strict: boolean;
    timeoutMs: number;
    maxRequests: number;
    deadlineMs?: number;
    concurrency?: number;
    /** Path of the --ca file trusted instead of the system's CAs. */
    ca?: string;
    insecure?: boolean;
  };
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
  diagnoses: Diagnosis[];
  errors: RunError[];
  warnings?: RunWarning[];
}
