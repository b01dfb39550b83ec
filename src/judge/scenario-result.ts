import type { Classified } from '../classify/types.js';
import type { FaultParty, HarnessErrorCode } from '../errors.js';

export type CheckVerdict = 'pass' | 'fail' | 'info' | 'skip' | 'error';

/** One request and its answer as report.json shows it: credentials in words, the body as (redacted) text, a curl repro. */
export interface JudgedExchange {
  request: { method: string; url: string; credentials: string; headers: Record<string, string> };
  /** durationMs: from sending the request to reading its body (absent in reports of earlier versions). */
  response: { status: number; headers: Record<string, string>; body: string; bodyTruncated: boolean; durationMs?: number };
  repro: string;
  /** Who answered and what it means, as the classification stage decided before the checks. */
  classification?: Classified;
}

export interface RecordedCheck {
  requirement: string;
  scenario: string;
  verdict: CheckVerdict;
  description: string;
  expected?: string;
  actual?: string;
  /** The key of the exchange the check judged, in its scenario's (and the report's) exchanges. */
  exchange?: string;
  error?: { code: HarnessErrorCode; message: string; hint: string; party: FaultParty };
}

/** What a scenario hands back from the Vitest worker to the CLI: plain JSON, no secrets. */
export interface ScenarioResult {
  id: string;
  title: string;
  requirements: string[];
  checks: RecordedCheck[];
  /** The exchanges its checks name, by key; each scenario hands back its own, the report keeps each once. */
  exchanges: Record<string, JudgedExchange>;
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
