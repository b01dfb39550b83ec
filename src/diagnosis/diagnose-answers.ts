import type { ClassifiedExchange, Diagnosis, ClassifiedExchanges, JudgedRequirement } from './types.js';

/**
 * What to do about a redirect of the valid request: where it keeps the API path, the address it names is the base URL
 * to pass; where it does not (a login page, a captive portal), the requests are taken away before the API.
 */
function redirectAdvice(requestUrl: string, location: string): string[] {
  const asked = new URL(requestUrl);
  const apiPath = asked.pathname.slice(asked.pathname.indexOf('/api/'));
  const target = URL.canParse(location, asked) ? new URL(location, asked) : undefined;
  if (target && target.href === asked.href) {
    return [
      'The API path redirects to itself: check the redirect rules of the web server and of any CDN in front of it (a CDN that talks plain HTTP to an origin that redirects to HTTPS loops like this).',
    ];
  }
  if (target && target.origin === asked.origin && target.pathname === `${asked.pathname}/`) {
    return [
      "The API path redirects to itself with a slash added: the documented paths have none. A folder of that name under the document root (Apache's DirectorySlash) or a rule of the web server or the application adds it: remove the folder or the rule for /api/..., so the path answers as it is.",
    ];
  }
  if (target && target.pathname.endsWith(apiPath)) {
    const base = `${target.origin}${target.pathname.slice(0, -apiPath.length)}`;
    return [`The redirect names the same API at another address: pass --base-url ${base}`];
  }
  return [
    'The redirect leads away from the API (a login page, a captive portal, a front end): check the web server rules for /api/, or run from a network where the API is reached directly.',
  ];
}

/** What the valid request's HTTP code alone says: a redirect, a method refused, a server error. */
function codeDiagnosis(valid: ClassifiedExchange): Diagnosis | undefined {
  const { response } = valid;
  const request = `GET ${valid.request.url}`;
  const location = response.headers.location;
  if (response.status >= 300 && response.status < 400 && location !== undefined) {
    return {
      id: 'api-redirects',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      summary: `the API paths answer with a redirect (HTTP ${response.status} to ${location}), which the suite records and never follows: the requests do not reach the API, so it cannot be judged`,
      evidence: `${request} answered HTTP ${response.status} with Location: ${location}`,
      advice: redirectAdvice(valid.request.url, location),
    };
  }
  // A method refused is no credential refused: GET is the only method the suite sends, and the document gives it.
  if (response.status === 405) {
    const api = valid.classification.origin.kind === 'api';
    return {
      id: 'method-not-allowed',
      party: api ? 'target' : 'environment',
      confidence: 'high',
      summary: `${api ? 'the API' : 'the server'} answers GET on the API paths with HTTP 405 (method not allowed): the route does not take GET, which the document gives it; the method is refused, not the credentials`,
      evidence: `${request} answered HTTP 405 ${response.body.slice(0, 160)}${response.headers.allow === undefined ? '' : ` with Allow: ${response.headers.allow}`}`,
      advice: [
        'Route GET for /api/ticket/status/<id> and /api/selfservice/type to the API: check the methods of the routes (a framework route for POST only), and any web server, proxy or gateway rule that limits the methods of /api/... (Apache <Limit> or <LimitExcept>, nginx limit_except, a gateway route without GET).',
      ],
    };
  }
  if (response.status >= 500) {
    return {
      id: 'server-error',
      party: 'target',
      confidence: 'high',
      summary: `the API answers a valid request with HTTP ${response.status}, a server error: the application fails before it can be judged`,
      evidence: `${request} answered HTTP ${response.status} ${response.body.slice(0, 160)}`,
      advice: ["Read the application's and the web server's error logs at the time of this run."],
    };
  }
  return undefined;
}

/**
 * Answers to a valid request that say nothing about the credentials: a redirect, a server error, a body that is not JSON.
 * Named before any credential diagnosis, which would otherwise read them as a refused or stripped token.
 */
export function diagnoseAnswer(
  results: JudgedRequirement[],
  valid: ClassifiedExchange,
  exchanges: ClassifiedExchanges,
): Diagnosis | undefined {
  const byCode = codeDiagnosis(valid);
  if (byCode) return byCode;
  const { response } = valid;
  const request = `GET ${valid.request.url}`;
  const apiAnswered = Object.values(exchanges).some((exchange) => exchange.classification.origin.kind === 'api');
  // A body that does not decode is the deployment's failure, whoever wrote it: curl and the vendor's client fail on it too.
  const undecodable = valid.classification.meaning.kind === 'undecodable' && valid.classification.meaning.why === 'encoding';
  if (valid.classification.origin.kind === 'unknown' && !undecodable && !apiAnswered) {
    return {
      id: 'no-api-answer',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      // Stryker disable next-line Regex: the evidence of an answer nobody can place holds its code at the start or nowhere
      summary: `no answer of this run came from the API: the API paths answer HTTP ${response.status} with ${valid.classification.origin.evidence.replace(/^HTTP \d+: /, '')}, which nothing shows to be the API's`,
      evidence: `${request} answered HTTP ${response.status} ${response.body.slice(0, 160)}`,
      advice: [
        'Check that --base-url is the address of the service (the one the API paths /api/... are added to), and open it in a browser: it should show the help desk.',
      ],
    };
  }
  const notJson = results
    .find((result) => result.id === 'ENV-JSON')
    ?.checks.find((check) => check.verdict === 'fail' && check.exchange !== undefined);
  // An envelope inside PHP's messages is named by what printed them (see the display_errors finding).
  // Stryker disable next-line ConditionalExpression: no final answer has a code below 200
  if (response.status >= 200 && response.status < 300 && notJson && valid.classification.noise === undefined) {
    return {
      id: 'answers-not-json',
      party: 'target',
      confidence: 'high',
      summary: 'the API answers HTTP 2xx with a body the suite cannot read as JSON',
      evidence: notJson.actual ?? '',
      ...(notJson.exchange === undefined ? {} : { cites: [notJson.exchange] }),
      advice: [
        'Serve the resource as UTF-8 JSON, as the document says ("Responses are JSON").',
        ...(undecodable
          ? [
              "Compress it only in a coding the request accepts (its Accept-Encoding), whole and as labelled, or not at all: a web server's or a CDN's compression must honour Accept-Encoding.",
            ]
          : []),
      ],
    };
  }
  return undefined;
}
