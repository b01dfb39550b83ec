import { NGINX_PAGE, vendorPage, type AnswerText } from './signatures.js';

/**
 * Answers that limit how fast a client may ask, whoever in the deployment gives them: they say nothing of the API's
 * conformance, only that the suite asked too fast. Read by the classification alone.
 */

/** A throttled answer: who throttled, when it can be told, and what in the answer shows it. */
export interface Throttle {
  vendor?: string;
  evidence: string;
}

/** Kong's rate-limiting plugin words its refusal so, whatever headers reach the suite. */
const KONG_RATE_LIMIT = /"message"\s*:\s*"API rate limit exceeded"/;

/**
 * Who throttled a 429, from its own answer; undefined when nothing names it (the application's own throttle). A
 * vendor's headers ride on the application's 429 passed through it too, so they never name the throttler alone.
 */
function throttlerOf(answer: AnswerText): string | undefined {
  if (KONG_RATE_LIMIT.test(answer.body)) return 'Kong';
  if (NGINX_PAGE.test(answer.body)) return 'nginx (limit_req)';
  return vendorPage(answer)?.name;
}

/**
 * The answer of a rate limit, or undefined: HTTP 429 from anything, and nginx's own 503 page, which is what limit_req
 * and limit_conn answer by default (nginx answers 502 or 504 when PHP behind it fails; a 503 with Retry-After is a
 * maintenance window, told apart before this is asked).
 */
export function throttleOf(answer: AnswerText): Throttle | undefined {
  if (answer.status === 429) {
    const vendor = throttlerOf(answer);
    return { ...(vendor ? { vendor } : {}), evidence: 'HTTP 429 (Too Many Requests): a rate limit refused the request' };
  }
  if (answer.status === 503 && NGINX_PAGE.test(answer.body)) {
    return { vendor: 'nginx (limit_req)', evidence: "HTTP 503: nginx's own page, which its limit_req and limit_conn answer with" };
  }
  return undefined;
}
