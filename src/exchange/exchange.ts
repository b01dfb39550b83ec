import type { CredentialVariant } from './credentials.js';

export interface RecordedRequest {
  method: 'GET';
  /** Full URL, never with credentials in it. */
  url: string;
  /** Path and query relative to the origin, for short messages. */
  path: string;
  credentials: CredentialVariant;
  /** Headers as sent, with the Authorization value redacted. */
  headers: Record<string, string>;
  curl: string;
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; error: string };

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Decoded body text, redacted, cut to a readable length. */
  bodyText: string;
  bodyTruncated: boolean;
  bytes: number;
  json: ParsedBody;
  /** When the request was sent (ISO 8601), and how long until its body was read. */
  startedAt?: string;
  durationMs: number;
}

export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse;
}

/** Requests sent, 429 answers met and time paused for them. */
export interface TrafficCounts {
  sent: number;
  rateLimited: number;
  waitedMs: number;
}
