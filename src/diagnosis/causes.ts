import { SERVED_MEANINGS, type Classified, type FrontName } from '../classify/types.js';
import type { JudgedExchange } from '../judge/scenario-result.js';
import type { Diagnosis, DiagnosisId } from './types.js';

/** An answer a cause is drawn from, as the classification read it, with its HTTP code. */
interface CitedAnswer {
  classified: Classified;
  status: number;
}

type Reading = (answer: CitedAnswer) => boolean;

const fromFront =
  (...fronts: FrontName[]): Reading =>
  ({ classified: { origin } }) =>
    // Stryker disable next-line ConditionalExpression: only a front has a name; no list holds the undefined another origin gives
    origin.kind === 'front' && fronts.includes(origin.front);
/** Something outside the deployment's own web server and PHP: a CDN, firewall, proxy, cache or gateway. */
const OUTSIDE: FrontName[] = ['cdn', 'waf', 'proxy', 'cache', 'gateway'];
const either =
  (...readings: Reading[]): Reading =>
  (answer) =>
    readings.some((reading) => reading(answer));
const unknownOrigin: Reading = ({ classified }) => classified.origin.kind === 'unknown';
const meaning =
  (...kinds: Classified['meaning']['kind'][]): Reading =>
  ({ classified }) =>
    kinds.includes(classified.meaning.kind);
/** The API's own refusal of the credentials: neither a path refused (404) nor a method (405). */
const credentialsRefused: Reading = ({ classified, status }) =>
  classified.origin.kind === 'api' && classified.meaning.kind === 'refused' && status !== 404 && status !== 405;
/** A 401 page that no known front signs: a refusal of credentials, whoever wrote it (the stack rules weigh it so). */
const refusalPage: Reading = ({ classified, status }) => classified.origin.kind === 'unknown' && status === 401;
const served = meaning(...SERVED_MEANINGS);
const webServerOrNobody = either(fromFront('web-server'), unknownOrigin);
const anyAnswer: Reading = () => true;

/**
 * What each cause says of the answers it cites: who answered them and what they mean. A cause is named only where the
 * classification of every answer it cites reads the same; the self-tests hold every diagnosis of every server to it.
 */
const CAUSE_READINGS: Record<DiagnosisId, Reading> = {
  'answers-not-json': meaning('undecodable', 'error-page', 'empty'),
  'api-not-found': webServerOrNobody,
  'api-path-answers-empty': meaning('empty'),
  'api-path-serves-html': (answer) => answer.classified.origin.kind !== 'api' && meaning('error-page')(answer),
  'api-paths-not-found': ({ classified, status }) => classified.origin.kind === 'api' && status === 404,
  'api-redirects': meaning('redirect'),
  'application-failed': meaning('application-error'),
  'authentication-not-enforced': served,
  'authorization-header-stripped': either(credentialsRefused, refusalPage),
  'base-url-ends-in-api': ({ status }) => status === 404,
  'cache-answered': ({ classified }) => classified.origin.kind === 'api' && classified.meaning.kind === 'refused',
  'cache-ignores-query-string': ({ classified }) => classified.origin.kind === 'api',
  'captive-portal': fromFront('captive-portal'),
  'catch-all-route': ({ classified }) => classified.origin.kind !== 'api',
  'front-blocked': either(fromFront(...OUTSIDE), unknownOrigin),
  'front-blocked-some-requests': either(fromFront(...OUTSIDE, 'web-server', 'sso', 'captive-portal', 'maintenance'), meaning('redirect')),
  'front-controller-not-routed': webServerOrNobody,
  'front-no-route': fromFront(...OUTSIDE),
  'front-origin-unreachable': fromFront(...OUTSIDE),
  'gateway-refused': fromFront('gateway'),
  maintenance: fromFront('maintenance'),
  'method-not-allowed': ({ status }) => status === 405,
  'no-api-answer': unknownOrigin,
  'php-cgi-no-input-file': fromFront('php-runtime'),
  'php-not-running': fromFront('php-runtime'),
  'php-display-errors': anyAnswer,
  'php-fpm-script-not-found': fromFront('php-fpm'),
  'php-fpm-access-denied': fromFront('php-fpm'),
  'plain-http-to-tls-port': fromFront('web-server'),
  'rate-limited': fromFront('rate-limiter'),
  'proxy-authentication': (answer) => fromFront('proxy')(answer) && answer.status === 407,
  'rewrite-not-applied': webServerOrNobody,
  'server-error': (answer) => answer.status >= 500 && !fromFront(...OUTSIDE, 'maintenance')(answer),
  'single-sign-on-in-the-way': fromFront('sso'),
  'status-not-found': ({ classified }) => classified.origin.kind === 'api' && classified.meaning.kind === 'refused',
  'target-not-reachable': anyAnswer,
  'token-compared-case-insensitively': served,
  'token-compared-by-prefix': served,
  'token-read-from-wrong-place': credentialsRefused,
  'token-refused': either(credentialsRefused, refusalPage),
  'unrecognised-answer': anyAnswer,
  'web-server-error': webServerOrNobody,
  'web-server-forbidden': fromFront('web-server'),
  'web-server-password': fromFront('web-server'),
};

/**
 * Each diagnosis that names a cause the classification of an answer it cites contradicts, in words; none is right. It reads
 * a report's exchanges, which a report of an older suite may hold unclassified.
 */
export function contradictions(diagnoses: readonly Diagnosis[], exchanges: Readonly<Record<string, JudgedExchange>>): string[] {
  return diagnoses.flatMap((diagnosis) =>
    (diagnosis.cites ?? []).flatMap((key) => {
      const exchange = exchanges[key];
      const classified = exchange?.classification;
      if (!exchange || !classified) return [`${diagnosis.id} cites ${key}, which the run has no classified answer for`];
      return CAUSE_READINGS[diagnosis.id]({ classified, status: exchange.response.status })
        ? []
        : [`${diagnosis.id} cites ${key}, classified ${JSON.stringify(classified)} with HTTP ${exchange.response.status}`];
    }),
  );
}
