import type { FaultParty, HarnessErrorCode } from '../errors.js';

export type CheckVerdict = 'pass' | 'fail' | 'info' | 'skip' | 'error';

export interface RecordedCheck {
  requirement: string;
  scenario: string;
  verdict: CheckVerdict;
  description: string;
  expected?: string;
  actual?: string;
  request?: { method: string; url: string; headers: Record<string, string> };
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
  /** Which target of a batch this scenario judged; absent for the only target of a single run. */
  targetIndex?: number;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: ScenarioResult;
  }
}
