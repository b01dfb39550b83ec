import type { Classified } from '../classify/types.js';
import type { JudgedExchange, RecordedCheck } from '../judge/scenario-result.js';
import type * as ReportFile from '../validators/types/report.generated.js';

/** A requirement as judged: what a diagnosis reads of a run, the checks with the keys of the answers they were judged on. */
export interface JudgedRequirement {
  id: string;
  verdict: string;
  checks: RecordedCheck[];
}

/** An exchange as report.json holds it, with the classification the classify stage gave it, which every diagnosis reads. */
export type ClassifiedExchange = JudgedExchange & { classification: Classified };

/** The run's exchanges by key, each classified; a check names its own by that key. */
export type ClassifiedExchanges = Record<string, ClassifiedExchange>;

/** Configuration lines to change, and where they go. */
export type Snippet = NonNullable<ReportFile.Diagnosis['snippets']>[number];

/** Every cause the diagnosis can name; a view that places causes keys them by this union. */
export type DiagnosisId =
  | 'answers-not-json'
  | 'api-not-found'
  | 'api-path-answers-empty'
  | 'api-path-serves-html'
  | 'api-paths-not-found'
  | 'api-redirects'
  | 'application-failed'
  | 'authentication-not-enforced'
  | 'authorization-header-stripped'
  | 'base-url-ends-in-api'
  | 'cache-answered'
  | 'cache-ignores-query-string'
  | 'captive-portal'
  | 'catch-all-route'
  | 'front-blocked'
  | 'front-blocked-some-requests'
  | 'front-controller-not-routed'
  | 'front-no-route'
  | 'front-origin-unreachable'
  | 'gateway-refused'
  | 'maintenance'
  | 'method-not-allowed'
  | 'no-api-answer'
  | 'php-cgi-no-input-file'
  | 'php-display-errors'
  | 'php-fpm-access-denied'
  | 'php-fpm-script-not-found'
  | 'php-not-running'
  | 'plain-http-to-tls-port'
  | 'proxy-authentication'
  | 'rate-limited'
  | 'rewrite-not-applied'
  | 'server-error'
  | 'single-sign-on-in-the-way'
  | 'status-not-found'
  | 'target-not-reachable'
  | 'token-compared-case-insensitively'
  | 'token-compared-by-prefix'
  | 'token-read-from-wrong-place'
  | 'token-refused'
  | 'unrecognised-answer'
  | 'web-server-error'
  | 'web-server-forbidden'
  | 'web-server-password';

/**
 * A cause as report.json keeps it, its id typed by the union above (which the schema checks only the form of).
 * inconclusive: the API was never reached (a front answered instead), or the set-up points at nothing (wrong base URL,
 * status id or token): nothing that failed can be laid at the API's door, so the run gives no verdict.
 * environmentAnswer: the answer the environment gives in place of the API's (the refusal of a request whose header was
 * stripped): a requirement failed only on answers like it is laid at the environment's door, not the API's.
 */
export type Diagnosis = Omit<ReportFile.Diagnosis, 'id'> & { id: DiagnosisId };
