import type { FaultParty, HarnessErrorCode } from '../errors.js';

export type CheckVerdict = 'pass' | 'fail' | 'info' | 'skip' | 'error';

export interface RecordedCheck {
  requirement: string;
  scenario: string;
  verdict: CheckVerdict;
  description: string;
  expected?: string;
  actual?: string;
  request?: { method: string; url: string; credentials: string; headers: Record<string, string> };
  response?: { status: number; headers: Record<string, string>; body: string; bodyTruncated: boolean };
  repro?: string;
  error?: { code: HarnessErrorCode; message: string; hint: string; party: FaultParty };
}

/** What a scenario hands back from the Vitest worker to the CLI: plain JSON, no secrets. */
export interface ScenarioResult {
  id: string;
  title: string;
  requirements: string[];
  checks: RecordedCheck[];
  requestsSent: number;
  /** Fingerprints of the TLS certificates seen so far in the run (https targets only). */
  tlsCertificates?: string[];
  /** HTTP 429 answers met so far in the run, and the time paused for them. */
  rateLimited?: number;
  waitedMs?: number;
  /** Which target of a batch this scenario judged; absent for the only target of a single run. */
  targetIndex?: number;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: ScenarioResult;
  }
}
