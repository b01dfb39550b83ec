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
  durationMs: number;
}

export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse;
}
