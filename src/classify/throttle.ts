import { NGINX_PAGE, vendorOf, type AnswerText } from './signatures.js';

/**
 * Answers that limit how fast a client may ask, whoever in the deployment gives them: they say nothing of the API's
 * conformance, only that the suite asked too fast. Read by the classification alone.
 */

/** A throttled answer: who throttled, when it can be told, and what in the answer shows it. */
export interface Throttle {
  vendor?: string;
  evidence: string;
}

/** Kong's rate-limiting plugin: its own JSON, and its latency header without the upstream's (no service was asked). */
const kong = (answer: AnswerText): boolean =>
  ('x-kong-response-latency' in answer.headers && !('x-kong-upstream-latency' in answer.headers)) ||
  /"message"\s*:\s*"API rate limit exceeded"/.test(answer.body);

/** AWS API Gateway's throttling: its error type header, or its request ids beside its JSON message. */
const awsApiGateway = (answer: AnswerText): boolean =>
  'x-amzn-errortype' in answer.headers || 'x-amz-apigw-id' in answer.headers || 'x-amzn-requestid' in answer.headers;

/** Who throttled a 429, from its headers and page; undefined when nothing names it (the application's own throttle). */
function throttlerOf(answer: AnswerText): string | undefined {
  if (kong(answer)) return 'Kong';
  if (awsApiGateway(answer)) return 'AWS API Gateway';
  if (NGINX_PAGE.test(answer.body)) return 'nginx (limit_req)';
  return vendorOf(answer)?.name;
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
