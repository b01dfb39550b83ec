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

/**
 * Why a body was not read as JSON, where it matters to whom the failure belongs: `encoding` (its Content-Encoding does
 * not undo, as no client could read it), `suite-limit` (beyond a cap the suite chose: never the target's fault).
 */
type UnparsedReason = 'encoding' | 'suite-limit';

/** A JSON envelope found inside other text (PHP's notices printed around it): what it holds, and how much text surrounds it. */
export interface EmbeddedJson {
  value: unknown;
  /** Characters of other text before and after the JSON. */
  before: number;
  after: number;
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; error: string; why?: UnparsedReason; embedded?: EmbeddedJson };

/** How much of a body's text is kept: enough to read what went wrong. */
export const REPORTED_BODY_CHARS = 4000;

interface RecordedResponse {
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
  /** How the recording and report.json name this exchange (see exchangeKey); set by the Target that answered it. */
  key?: string;
}

export const STATUS_PATH = (id: number): string => `/api/ticket/status/${id}`;
export const SELFSERVICE_PATH = '/api/selfservice/type';
/** An API path through the application's front controller, which reaches the application even where the web server rewrites nothing. */
export const THROUGH_FRONT_CONTROLLER = (path: string): string => `/index.php${path}`;

/**
 * Where a path of the API is at a base URL: the base's own path (/support) kept as a prefix. The path is added as text
 * after the origin, never resolved against it, so a path starting with // cannot name another host.
 */
export function urlAt(baseUrl: string | URL, path: string): URL {
  const base = typeof baseUrl === 'string' ? new URL(baseUrl) : baseUrl;
  return new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}${path}`);
}

/**
 * The name of one request of a run, the same whatever the server: its credentials, path and query. recording.json
 * keys its answers by it and report.json its exchanges, so a check, the recording and a comparison meet on it.
 */
export function exchangeKey(path: string, query: Record<string, string>, credentials: CredentialVariant): string {
  // Most requests have no query, and the judge names each request many times: URLSearchParams only where there is one.
  const search = Object.keys(query).length === 0 ? '' : new URLSearchParams(query).toString();
  return `${credentials} ${path}?${search}`;
}

/** Requests sent, answers met that asked to wait (HTTP 429, or 503 with Retry-After), and time paused for them. */
export interface TrafficCounts {
  sent: number;
  rateLimited: number;
  waitedMs: number;
}
