import type { FrontOrigin } from '../classify/types.js';
import { briefly, pathOf, requestsOf, requirementsOf, type FailedAnswer, type ObservedAnswer } from './answers.js';
import { nginxDocs } from './nginx-docs.js';
import { SNIPPETS } from './snippets.js';
import type { Diagnosis } from './types.js';

/**
 * The deployment limits how fast a client may ask, and the suite asked faster: a throttle, not an overload. What it
 * refused says nothing of the API, and the fix is a slower suite or an allowance for the tester, never a bigger pool.
 */

/** The rate to suggest: the limit the answer states per second or minute (Kong's headers), else a slow one. */
function suggestedRate(answers: ObservedAnswer[]): string {
  for (const { headers } of answers) {
    for (const [unit, name] of [
      ['s', 'second'],
      ['m', 'minute'],
    ] as const) {
      const limit = Number(headers[`x-ratelimit-limit-${name}`]);
      if (Number.isInteger(limit) && limit > 0) return `${limit}/${unit}`;
    }
  }
  return '2/s';
}

/** How to give the tester an allowance at whatever throttled it. */
function allowanceAt(vendor: string | undefined): Pick<Diagnosis, 'advice' | 'snippets'> {
  if (vendor?.startsWith('nginx')) {
    return {
      advice: [
        `Or give the tester an allowance in nginx: map the address it runs from to an empty key, which limit_req does not count (geo and map, as below), or let its burst through with burst= and nodelay on the API's location (${nginxDocs('limit_req', 'geo', 'map')}).`,
      ],
      snippets: [SNIPPETS.nginxRateLimitExemption],
    };
  }
  const where: Record<string, string> = {
    Kong: "Or raise the limit for the tester in Kong: a rate-limiting plugin of its own on the tester's consumer, with a higher limit.",
    'AWS API Gateway':
      "Or raise the limit for the tester in AWS API Gateway: a usage plan with a higher rate and burst for the tester's API key, or the stage's throttling settings.",
  };
  return {
    advice: [
      (vendor && where[vendor]) ??
        `Or let the tester through the rate limit${vendor ? ` of ${vendor}` : ''}: an exception to the rule for the address the suite runs from, or for its User-Agent "ticketing-conformance", on the API paths (/api/...).`,
    ],
  };
}

function slowDown(answers: ObservedAnswer[]): string {
  const rate = suggestedRate(answers);
  return `Slow the suite down below the limit: --rate-limit ${rate} (CONFORMANCE_RATE_LIMIT=${rate}, or rateLimit: ${rate} for this target in a targets file) sends its requests one at a time, spaced evenly.`;
}

/** Every request was throttled, the valid one among them: nothing reached the API that could be judged. */
export function rateLimitedAll(valid: ObservedAnswer, origin: FrontOrigin): Diagnosis {
  const who = origin.vendor ?? 'a rate limit of the deployment';
  const allowance = allowanceAt(origin.vendor);
  return {
    id: 'rate-limited',
    party: 'environment',
    inconclusive: true,
    confidence: valid.status === 429 ? 'high' : 'medium',
    summary: `${who} refused the suite's requests for asking too fast (${origin.evidence}): the deployment limits how fast a client may ask, so the API cannot be judged until the suite keeps to that limit`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}${valid.headers['retry-after'] === undefined ? '' : ` with Retry-After: ${valid.headers['retry-after']}`}`,
    advice: [slowDown([valid]), ...allowance.advice],
    ...(allowance.snippets ? { snippets: allowance.snippets } : {}),
  };
}

/** Some requests were throttled while others were served: what the throttled ones check is not judged. */
export function rateLimitedSome(blocked: FailedAnswer[], origin: FrontOrigin, apiFailedToo: boolean): Diagnosis {
  const who = origin.vendor ?? 'a rate limit of the deployment';
  const answers = blocked.map((failed) => failed.answer);
  const allowance = allowanceAt(origin.vendor);
  return {
    id: 'rate-limited',
    party: 'environment',
    confidence: 'high',
    summary: `${who} refused some of the suite's requests for asking too fast (${origin.evidence}) while it served the others: ${requirementsOf(blocked).join(', ')} could not be judged on its answers${apiFailedToo ? '; the API failed other requirements on its own answers' : ''}`,
    evidence: requestsOf(blocked, (failed) => `GET ${pathOf(failed.answer)} (${failed.credentials}) answered ${briefly(failed.answer)}`),
    advice: [slowDown(answers), ...allowance.advice],
    ...(allowance.snippets ? { snippets: allowance.snippets } : {}),
  };
}

/**
 * The target asked the suite to wait (HTTP 429, or 503 with Retry-After) and the suite stopped on a cap of its own:
 * the retries spent the request budget, or a Retry-After went past the deadline. The cap is the suite's, the cause
 * the rate limit: both are named.
 */
export function rateLimitedUntilCap(stopped: { code: string; message: string }, requirements: string[], askedToWait: number): Diagnosis {
  const budget = stopped.code === 'HARNESS_REQUEST_BUDGET';
  return {
    id: 'rate-limited',
    party: 'environment',
    confidence: 'high',
    summary: `the target asked the suite to wait ${askedToWait} time(s) for asking too fast (HTTP 429, or 503 with Retry-After), and the suite stopped on a cap of its own${budget ? ', its request budget (--max-requests),' : ''} before ${requirements.join(', ')} could be judged: the deployment limits how fast a client may ask`,
    evidence: stopped.message,
    advice: [
      slowDown([]),
      ...(budget
        ? [
            'Or raise the request budget, --max-requests (CONFORMANCE_MAX_REQUESTS): each wait the target asks for costs the suite one request more.',
          ]
        : []),
      ...allowanceAt(undefined).advice,
    ],
  };
}
