// Generated from schemas/report.schema.json by `npm run schemas:types`; a self-test fails when it is out of date. Do not edit.

export type Verdict = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'flaky';
export type Party = 'target' | 'environment' | 'suite';
export type RunCount = number;

/**
 * reports/report.json: the source every other view (terminal, Markdown, JUnit, Allure) is rendered from. Holds no credentials.
 */
export interface TicketingConformanceReport {
  /**
   * 2: each exchange once under exchanges, checks name theirs by key. Version 1 copied the exchange into every check; this suite refuses it.
   */
  schemaVersion: 2;
  suite: {
    name: string;
    version: string;
  };
  /**
   * The trace id every request of the run carried in its W3C traceparent header (00-<runId>-<span>-01), to join a target's access log to this report.
   */
  runId?: string;
  target: {
    baseUrl: string;
    embeddedReference: boolean;
    fingerprint?: {
      /**
       * distinct Server header values seen
       */
      server: string[];
      /**
       * SHA-256 fingerprints of the TLS certificates presented (https only)
       */
      tlsCertificateSha256: string[];
    };
  };
  options: {
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
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /**
   * false when the run stopped before every scenario ran
   */
  complete: boolean;
  verdict: 'conformant' | 'not-conformant' | 'inconclusive';
  exitCode: 0 | 1 | 2;
  summary: string;
  totals: {
    pass: number;
    fail: number;
    warn: number;
    info: number;
    skip: number;
    error: number;
    flaky: number;
  };
  requests: {
    sent: number;
    /**
     * answers met that asked the suite to wait (HTTP 429, or 503 with Retry-After)
     */
    rateLimited?: number;
    /**
     * time paused because answers asked the suite to wait
     */
    waitedMs?: number;
  };
  requirements: RequirementResult[];
  /**
   * each request the checks judged and its answer, once, by the key recording.json gives it ("CREDENTIALS PATH?QUERY", e.g. "valid /api/ticket/status/1?"); with --repeat, a later run's exchange is under "run N: KEY". A check names its exchange by that key.
   */
  exchanges: {
    [k: string]: Exchange;
  };
  diagnoses: Diagnosis[];
  errors: RunError[];
  /**
   * hashes that make the report a verifiable record; check one with: ticketing-conformance verify report.json
   */
  integrity?: {
    /**
     * the requirement catalog judged by
     */
    catalog: string;
    /**
     * the effective configuration without secrets
     */
    configuration: string;
    /**
     * canonical JSON of this report without integrity.content
     */
    content?: string;
  };
  /**
   * choices that weaken what the suite promises about the token, and problems of the environment that left an output unwritten
   */
  warnings?: {
    code: 'TLS_NOT_VERIFIED' | 'TOKEN_OVER_PLAIN_HTTP' | 'STEP_SUMMARY_NOT_WRITTEN';
    message: string;
  }[];
  /**
   * the known failures of --baseline that applied to this target, and how each turned out
   */
  baseline?: {
    file: string;
    entries: BaselineResult[];
  };
  /**
   * set with --profile: what the profile's requirements (level CLIENT, among requirements) found together
   */
  profile?: {
    name: 'official-client';
    /**
     * the client whose code the profile's requirements quote, as read
     */
    client: {
      repository: string;
      version: string;
      commit: string;
    };
    /**
     * would-work: its checks passed; would-fail: one of them failed; not-judged: none could be judged
     */
    outcome: 'would-work' | 'would-fail' | 'not-judged';
    summary: string;
  };
}
export interface RequirementResult {
  id: string;
  level: 'MUST' | 'SHOULD' | 'INFO' | 'CLIENT';
  family: 'envelope' | 'status' | 'lang' | 'auth' | 'selfservice' | 'official-client';
  title: string;
  /**
   * the words the requirement is judged by: the document's, or for level CLIENT the client's line of code
   */
  quote: string;
  /**
   * where the quote stands: a section of the document, or the client's file and line at the version read
   */
  section: string;
  verdict: Verdict;
  party?: Party;
  /**
   * @minItems 1
   */
  checks: Check[];
  /**
   * with several statuses: the verdict of the requirement's checks made for each status it was judged per; the requirement's own verdict is the worst of them and of its run-wide checks
   */
  byStatus?: {
    statusId: number;
    verdict: Verdict;
  }[];
  /**
   * with several languages: the verdict of the requirement's checks made for each language it was judged per
   */
  byLanguage?: {
    lang: string;
    verdict: Verdict;
  }[];
  repeat?: {
    /**
     * the runs that judged the requirement: 1 when the others were cut short by the deadline or the request budget
     */
    runs: number;
    agreed: number;
    /**
     * how many runs gave each verdict
     */
    verdicts: {
      pass?: RunCount;
      fail?: RunCount;
      warn?: RunCount;
      info?: RunCount;
      skip?: RunCount;
      error?: RunCount;
      flaky?: RunCount;
    };
  };
}
export interface Check {
  requirement: string;
  scenario: string;
  verdict: 'pass' | 'fail' | 'info' | 'skip' | 'error';
  description: string;
  expected?: string;
  actual?: string;
  /**
   * the key of the exchange the check judged, in exchanges
   */
  exchange?: string;
  /**
   * with several statuses or languages: the status the check was made for
   */
  statusId?: number;
  /**
   * with several statuses or languages: the language of --lang the check was made for
   */
  lang?: string;
  error?: RunError;
}
/**
 * an error of the run: the suite could not judge (configuration, network or its own fault)
 */
export interface RunError {
  code: string;
  message: string;
  hint: string;
  party: Party;
}
export interface Exchange {
  request: {
    method: 'GET';
    url: string;
    /**
     * which credentials were sent, in words
     */
    credentials: string;
    headers: {
      [k: string]: string;
    };
  };
  response: {
    status: number;
    headers: {
      [k: string]: string;
    };
    body: string;
    bodyTruncated: boolean;
    /**
     * how long the answer took, from sending the request to reading its body
     */
    durationMs?: number;
  };
  /**
   * a curl command with the token replaced by <API_TOKEN>
   */
  repro: string;
  classification?: Classification;
}
/**
 * who answered the request and what the answer means, decided once before any check judged it
 */
export interface Classification {
  origin:
    | {
        kind: 'api';
      }
    | {
        kind: 'front';
        front:
          | 'cdn'
          | 'waf'
          | 'proxy'
          | 'gateway'
          | 'cache'
          | 'web-server'
          | 'php-fpm'
          | 'php-runtime'
          | 'sso'
          | 'captive-portal'
          | 'maintenance'
          | 'rate-limiter';
        vendor?: string;
        evidence: string;
      }
    | {
        kind: 'unknown';
        evidence: string;
      };
  /**
   * what the answer means for the request it answered
   */
  meaning:
    | {
        kind: 'served-status';
        /**
         * the id as the JSON text holds it
         */
        id: string;
      }
    | {
        kind: 'served-listing' | 'served-without-resource' | 'refused' | 'error-page' | 'empty';
      }
    | {
        kind: 'redirect';
        /**
         * the Location
         */
        to: string;
      }
    | {
        kind: 'application-error';
        what: 'uncaught-exception' | 'fatal-error' | 'database-down' | 'server-error';
        evidence: string;
      }
    | {
        kind: 'undecodable';
        why: 'encoding' | 'not-json' | 'suite-limit';
        detail: string;
      };
  /**
   * text printed around the JSON envelope (PHP notices with display_errors on)
   */
  noise?: string;
}
export interface Diagnosis {
  id: string;
  party: Party;
  /**
   * the API was never reached, or the set-up points at nothing: the run gives no verdict (exit 2)
   */
  inconclusive?: boolean;
  confidence: 'high' | 'medium' | 'low';
  summary: string;
  evidence: string;
  advice: string[];
  /**
   * configuration lines to change, each with where they go
   */
  snippets?: {
    label: string;
    lines: string[];
  }[];
  /**
   * the keys, in exchanges, of the answers the cause is drawn from: the classification of each must agree with the cause
   */
  cites?: string[];
  /**
   * the answer the environment gives in place of the API's (the refusal of a request whose header was stripped): failures made only of it are laid at the environment's door
   */
  environmentAnswer?: {
    status: number;
    body: string;
  };
}
export interface BaselineResult {
  requirement: string;
  target?: string;
  reason: string;
  owner: string;
  expires: string;
  outcome: 'known' | 'expired' | 'fixed' | 'not-judged';
  note: string;
}
