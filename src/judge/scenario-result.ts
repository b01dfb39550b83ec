import type { Classified } from '../classify/types.js';
import type { RunError } from '../errors.js';
import { variantLabel } from '../exchange/credentials.js';
import type { Exchange } from '../exchange/exchange.js';
import type * as ReportFile from '../validators/types/report.generated.js';

/**
 * One request and its answer as report.json shows it: credentials in words, the body as (redacted) text, a curl repro,
 * and its classification (the classify stage's Classified, which the schema's holds: test/schema-types.test.ts).
 */
export type JudgedExchange = ReportFile.Exchange;

/** What report.json keeps of an exchange: no parsed body, no timings, the credentials in words, its classification. */
export function judgedExchange({ request, response }: Exchange, classification: Classified | undefined): JudgedExchange {
  return {
    request: { method: request.method, url: request.url, credentials: variantLabel(request.credentials), headers: request.headers },
    response: {
      status: response.status,
      headers: response.headers,
      body: response.bodyText,
      bodyTruncated: response.bodyTruncated,
      durationMs: response.durationMs,
    },
    repro: request.curl,
    ...(classification ? { classification } : {}),
  };
}

/** One check as report.json keeps it; its error's code typed by errors.ts, which the schema checks only the form of. */
export type RecordedCheck = Omit<ReportFile.Check, 'error'> & { error?: RunError };

/** What a scenario hands back from the judging thread to the CLI: plain JSON, no secrets. */
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
  /** Answers met so far in the run that asked to wait (HTTP 429, or 503 with Retry-After), and the time paused for them. */
  rateLimited?: number;
  waitedMs?: number;
  /** Which target of a batch this scenario judged; absent for the only target of a single run. */
  targetIndex?: number;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    /** What a scenario's test judged: a result for each target, and each slice, it judged. */
    conformance?: ScenarioResult[];
  }
}
