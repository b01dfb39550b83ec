import { GATEWAY_ERRORS } from '../classify/signatures.js';
import type { Classified, FrontName, Reach } from '../classify/types.js';
import { whoAnswered } from '../classify/words.js';
import type { RecordedCheck } from './scenario-result.js';
import type { CheckOutcome } from './checks/outcome.js';
import type { CredentialVariant } from '../exchange/credentials.js';

type CheckError = NonNullable<RecordedCheck['error']>;

/** Fronts outside the deployment's own hosting stack, or between the tester and the site: never the API's answer. */
const OUTSIDE_THE_API = new Set<FrontName>([
  'cdn',
  'waf',
  'proxy',
  'gateway',
  'cache',
  'sso',
  'captive-portal',
  'maintenance',
  'rate-limiter',
]);

/** The codes a web server refuses credentials with on its own page (its ErrorDocument, auth_basic, a framework's page). */
const REFUSAL_CODES = new Set([401, 403]);

/**
 * Why a refusal on the web server's own page counts as the deployment's, or undefined when it does not: the same path
 * was handed out in this run, so that page answered the credentials, not the path. Where nothing was served there (its
 * own password in front of everything, a rewrite that misses), a page of the web server proves nothing.
 */
export function webServerRefusal(
  classified: Classified,
  httpStatus: number,
  { ok: passed, refusal }: Pick<CheckOutcome, 'ok' | 'refusal'>,
  servedOnPath: readonly CredentialVariant[],
): string | undefined {
  const { origin } = classified;
  if (origin.kind !== 'front' || origin.front !== 'web-server' || !passed || !refusal) return undefined;
  if (!REFUSAL_CODES.has(httpStatus) || servedOnPath.length === 0) return undefined;
  return `${whoAnswered(origin)}'s own HTTP ${httpStatus} page refused it, while this path was served in the same run: the deployment refuses these credentials`;
}

/**
 * Why a check of an answer cannot judge the API, or undefined when it can.
 * - A front's page is never the API's refusal, nor its failure, nor its pass.
 * - The web server's or PHP's own page is part of the deployment: a check it fails stands once the API is seen
 *   answering at this base URL (a catch-all route, a rewrite that misses a path), but it passes a refusal only where the
 *   same path was served in the run (see webServerRefusal), and a gateway error (the application did not take the
 *   request) judges nothing.
 * - An unrecognised page is the API's only once the API is seen answering at this base URL; a redirect nobody can
 *   place never passes a refusal.
 * - A body beyond the suite's own caps is the suite's limit, never the target's failure; except to a check of the
 *   official PHP client, which fails on a body nested that deep itself, and which is judged then as an unrecognised page.
 */
export function whyNotJudged(
  classified: Classified,
  httpStatus: number,
  reach: Reach,
  result: Pick<CheckOutcome, 'ok' | 'beyondDepthCap' | 'refusal'>,
  servedOnPath: readonly CredentialVariant[] = [],
): CheckError | undefined {
  const { ok: passed, beyondDepthCap } = result;
  const { origin, meaning } = classified;
  const beyondCaps = meaning.kind === 'undecodable' && meaning.why === 'suite-limit';
  if (beyondCaps && !beyondDepthCap) {
    return {
      code: 'HARNESS_SUITE_LIMIT',
      message: `not judged: ${meaning.detail}`,
      hint: "The cap is the suite's own, not a rule of the document: judge this answer by hand, or report the answer that needs a higher cap",
      party: 'suite',
    };
  }
  const deploymentFailed = !passed && reach.apiAnswered;
  if (origin.kind === 'front') {
    const stands = !OUTSIDE_THE_API.has(origin.front) && deploymentFailed && !GATEWAY_ERRORS.has(httpStatus);
    if (stands || webServerRefusal(classified, httpStatus, result, servedOnPath)) return undefined;
    return {
      code: 'HARNESS_NOT_THE_API',
      message: `not judged: ${whoAnswered(origin)} answered instead of the API (${origin.evidence})`,
      hint: 'What stands in front of the API answered this request: see the diagnosis for what to change, then run again',
      party: 'environment',
    };
  }
  // A redirect nobody can place (a sign-in front's, a load balancer's) is never the API's refusal: it refuses in its own words.
  if (origin.kind === 'unknown' && meaning.kind === 'redirect' && passed) {
    return {
      code: 'HARNESS_NOT_THE_API',
      message: `not judged: ${origin.evidence}, which nothing shows to be the API's refusal`,
      hint: 'Something sent this request elsewhere instead of the API answering it: see the diagnosis for what to change, then run again',
      party: 'environment',
    };
  }
  const undecided =
    meaning.kind === 'error-page' ||
    meaning.kind === 'empty' ||
    meaning.kind === 'redirect' ||
    (meaning.kind === 'undecodable' && meaning.why === 'not-json') ||
    beyondCaps;
  if (origin.kind === 'unknown' && undecided && !reach.apiAnswered) {
    return {
      code: 'HARNESS_NOT_THE_API',
      message: `not judged: no answer of this run came from the API at this base URL, and this one cannot be told to (${origin.evidence})`,
      hint: 'Check --base-url: it must be the address of the service, the one the API paths /api/... are added to',
      party: 'environment',
    };
  }
  return undefined;
}
