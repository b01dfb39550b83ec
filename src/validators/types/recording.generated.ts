// Generated from schemas/recording.schema.json by `npm run schemas:types`; a self-test fails when it is out of date. Do not edit.

export type Hash = string;
/**
 * how the specs ask for the exchange: credentials, path and query
 */
export type Key = string;

/**
 * recording.json: every request a run sent and what came back, each once, enough for `ticketing-conformance judge` to judge the target again without sending a request. Holds no credentials: Authorization values are redacted, the token is removed from every answer.
 */
export interface TicketingConformanceRecording {
  format: 'ticketing-conformance-recording';
  /**
   * the layout of this file; a suite refuses a version it does not know
   */
  formatVersion: 1;
  suite: Suite;
  /**
   * The trace id every request of the run carried in its W3C traceparent header (00-<runId>-<span>-01), to join a target's access log to this report.
   */
  runId?: string;
  integrity: {
    /**
     * hash of the requirement catalog of the suite that made the recording
     */
    catalog: string;
    /**
     * SHA-256 of the API document that catalog quotes
     */
    apiDocument: string;
  };
  /**
   * the catalog of the suite that made the recording, one hash per requirement, to tell what changed since
   */
  requirements: {
    id: string;
    level: 'MUST' | 'SHOULD' | 'INFO' | 'CLIENT';
    hash: Hash;
  }[];
  target: {
    baseUrl: string;
    embeddedReference: boolean;
    fingerprint: Fingerprint;
  };
  options: Options;
  startedAt: string;
  finishedAt: string;
  /**
   * one pass over the target each; a run with --repeat makes several
   *
   * @minItems 1
   */
  runs: Run[];
}
export interface Suite {
  name: string;
  version: string;
}
export interface Fingerprint {
  /**
   * distinct Server header values seen
   */
  server: string[];
  /**
   * SHA-256 fingerprints of the TLS certificates presented (https only)
   */
  tlsCertificateSha256: string[];
}
export interface Options {
  /**
   * the status the run read (the first of statusIds when --status-id gave several)
   */
  statusId: number;
  /**
   * every status of --status-id, in its order, when it gave several
   *
   * @minItems 2
   */
  statusIds?: number[];
  /**
   * the language --lang gave (the first of langs when it gave several)
   */
  lang?: string;
  /**
   * every language of --lang, in its order, when it gave several
   *
   * @minItems 2
   */
  langs?: string[];
  missingLang?: string;
  /**
   * --profile: the extra requirements the run judged (level CLIENT), and the request they added
   */
  profile?: 'official-client';
  strict: boolean;
  timeoutMs: number;
  maxRequests: number;
  repeat: number;
  deadlineMs?: number;
  concurrency?: number;
  /**
   * --rate-limit as given: the most requests a second, minute, hour or day (5/s, 100/m)
   */
  rateLimit?: string;
  /**
   * path of the --ca file trusted instead of the system's CAs
   */
  ca?: string;
  /**
   * true when TLS certificates were not verified (--insecure)
   */
  insecure?: boolean;
  /**
   * path of the --cert file shown as the client certificate (mutual TLS); the key is never recorded
   */
  cert?: string;
}
export interface Run {
  startedAt: string;
  traffic: {
    sent: number;
    rateLimited: number;
    waitedMs: number;
  };
  tlsCertificates: string[];
  exchanges: (Exchange | Unanswered)[];
}
export interface Exchange {
  key: Key;
  /**
   * the parsed body held the token, the password or a value named as a credential, replaced by <redacted> here: a judgement of this answer may differ from the run's
   */
  tokenRedacted?: true;
  request: {
    method: 'GET';
    url: string;
    path: string;
    /**
     * which credentials were sent, by name
     */
    credentials:
      | 'valid'
      | 'password-letter'
      | 'password-empty'
      | 'password-long'
      | 'password-colon'
      | 'wrong-token'
      | 'no-header'
      | 'bearer-scheme'
      | 'bad-base64'
      | 'no-colon'
      | 'empty-credentials'
      | 'token-case-flipped'
      | 'token-truncated'
      | 'token-extended'
      | 'token-as-password'
      | 'token-as-password-empty-user'
      | 'official-client';
    /**
     * which credentials were sent, in words
     */
    credentialsDescription: string;
    headers: Headers;
    /**
     * a curl command with the token replaced by <API_TOKEN>
     */
    curl: string;
  };
  response: {
    status: number;
    headers: Headers1;
    /**
     * the decoded body, redacted, cut to a readable length
     */
    bodyText: string;
    bodyTruncated: boolean;
    /**
     * bytes of the body as received, within the size cap
     */
    bytes: number;
    /**
     * the whole body parsed as JSON, or why it could not be
     */
    json:
      | {
          ok: true;
          value: unknown;
        }
      | {
          ok: false;
          error: string;
          /**
           * encoding: the Content-Encoding does not undo; suite-limit: beyond a cap of the suite's
           */
          why?: 'encoding' | 'suite-limit';
          /**
           * a JSON envelope found inside other text (PHP notices printed around it), and how many characters surround it
           */
          embedded?: {
            value: unknown;
            before: number;
            after: number;
          };
        };
    startedAt?: string;
    /**
     * from sending the request to reading the last byte of the body
     */
    durationMs: number;
  };
}
/**
 * as sent, the Authorization value redacted
 */
export interface Headers {
  [k: string]: string;
}
export interface Headers1 {
  [k: string]: string;
}
export interface Unanswered {
  key: Key;
  failure: RunError;
}
/**
 * an error of the run: the suite could not judge (configuration, network or its own fault)
 */
export interface RunError {
  code: string;
  message: string;
  hint: string;
  party: 'target' | 'environment' | 'suite';
}
