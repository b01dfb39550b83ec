import { describe, expect, test } from 'vitest';
import { classifyAnswer, apiPathOf } from '../src/classify/classify.js';
import type { ObservedAnswer, StackObservations, StackSetup } from '../src/diagnosis/answers.js';
import { diagnose } from '../src/diagnosis/diagnose.js';
import { frontAnswered as frontRules } from '../src/diagnosis/fronts.js';
import { diagnoseStack as stackRules } from '../src/diagnosis/rules.js';
import type { Diagnosis, ClassifiedExchanges, JudgedRequirement } from '../src/diagnosis/types.js';
import { variantLabel, type CredentialVariant } from '../src/exchange/credentials.js';
import { exchangeKey } from '../src/exchange/exchange.js';
import { bodyText, parseJson } from '../src/exchange/body-text.js';
import type { JudgedExchange } from '../src/judge/scenario-result.js';
import { classifiedExchanges } from '../src/pipeline/pipeline.js';
import {
  APACHE_404_PAGE,
  classifiedAlone,
  classifiedObservations,
  fromApache,
  missingCredentials,
  served,
  STATUS_BODY,
  wrongTokenRefused,
} from './doctor/recorded.js';

/**
 * The causes named from what servers nobody here wrote answer: a cache, a proxy, a gateway, a login page, PHP printing
 * its warnings, a token compared loosely, a redirect. Each diagnosis is read whole once, as ops read it.
 */

const BASE = 'https://help.example.com';
const STATUS = '/api/ticket/status/1';
const LISTING = '/api/selfservice/type';
const JSON_TYPE = { 'content-type': 'application/json' };
const HTML_TYPE = { 'content-type': 'text/html; charset=UTF-8' };
const REFUSAL = '{"status":"error","message":"Invalid authentication credentials.","data":[]}';

interface Seen {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** One request of a run and its answer, as report.json keeps it: keyed, with the classification stage's reading. */
function exchange(credentials: CredentialVariant, path: string, seen: Seen, query: Record<string, string> = {}): ClassifiedExchanges {
  const search = new URLSearchParams(query).toString();
  const url = `${BASE}${path}${search ? `?${search}` : ''}`;
  const headers = seen.headers ?? JSON_TYPE;
  return {
    [exchangeKey(path, query, credentials)]: {
      request: { method: 'GET', url, credentials: variantLabel(credentials), headers: {} },
      response: { status: seen.status, headers, body: seen.body, bodyTruncated: false },
      repro: '',
      classification: classifyAnswer({ apiPath: apiPathOf(path), status: seen.status, headers, bodyText: seen.body }),
    },
  };
}

/** A requirement judged on the exchanges under these keys: failed on each, or passed when none is given. */
function judged(id: string, keys: string[], verdict: 'pass' | 'fail' = keys.length > 0 ? 'fail' : 'pass'): JudgedRequirement {
  return {
    id,
    verdict,
    checks: keys.map((key) => ({ requirement: id, scenario: 's', verdict, description: 'd', exchange: key, actual: `answered by ${key}` })),
  };
}

/** A run whose valid request was served and whose request without a header was refused, with more exchanges. */
const healthy = (...more: ClassifiedExchanges[]): ClassifiedExchanges =>
  Object.assign(
    exchange('valid', STATUS, { status: 200, body: STATUS_BODY }),
    exchange('no-header', STATUS, { status: 401, body: REFUSAL }),
    ...more,
  );
const ACCEPTED = judged('AUTH-TOKEN-ACCEPTED', []);
const ids = (diagnoses: Diagnosis[]): string[] => diagnoses.map((diagnosis) => diagnosis.id);
const observed = (status: number, body: string, headers: Record<string, string> = JSON_TYPE, path = STATUS): ObservedAnswer =>
  classifiedAlone({ url: `${BASE}${path}`, status, headers, body });
/** The rules, handed each answer classified from what it holds once a test is done changing it. */
const diagnoseStack = (observations: StackObservations, setup?: StackSetup): Diagnosis[] =>
  stackRules(classifiedObservations(observations), setup);
const frontAnswered = (observations: StackObservations, setup: StackSetup, now?: Date): Diagnosis | undefined =>
  frontRules(classifiedObservations(observations), setup, now);
const only = (observations: StackObservations, setup: { baseUrl?: string; statusId?: number } = {}): Diagnosis => {
  const diagnoses = diagnoseStack(observations, setup);
  expect(diagnoses).toHaveLength(1);
  return diagnoses[0] as Diagnosis;
};

describe("causes in the API's own answers, named beside the hosting stack's", () => {
  test('PHP warnings printed before the JSON: display_errors is named, with the noise as evidence', () => {
    const warning = '<br />\n<b>Warning</b>:  Undefined variable $locale in <b>/var/www/app/api/status.php</b> on line <b>42</b><br />\n';
    const exchanges = healthy(exchange('valid', STATUS, { status: 200, body: `${warning}${STATUS_BODY}`, headers: HTML_TYPE }));
    const diagnoses = diagnose([ACCEPTED, judged('ENV-JSON', ['valid /api/ticket/status/1?'])], exchanges);
    expect(diagnoses).toEqual([
      {
        id: 'php-display-errors',
        cites: ['valid /api/ticket/status/1?'],
        party: 'target',
        confidence: 'high',
        summary:
          "PHP prints its warnings, notices or deprecations into the answers (display_errors is on): the JSON comes with text around it, which JSON clients, the vendor's among them, cannot read",
        evidence:
          'GET https://help.example.com/api/ticket/status/1 answered HTTP 200 with <br /> <b>Warning</b>: Undefined variable $locale in <b>/var/www/app/api/status.php</b> on line <b>42</b><br />',
        advice: [
          'Set display_errors = Off and log_errors = On for the PHP that runs the application (php.ini, or the PHP-FPM pool: php_admin_flag[display_errors] = off), then reload PHP-FPM: the messages go to the log instead of the answers.',
          'Then fix what the log names: a warning in production is a bug of its own.',
        ],
      },
    ]);
  });

  test("a PHP notice in place of the answer is shown from the body; the API's own words are not PHP's", () => {
    const notice = `\nNotice: Undefined index: HTTP_AUTHORIZATION in /var/www/app/api/auth.php on line 12\n${'x'.repeat(200)}`;
    const noisy = healthy(exchange('wrong-token', STATUS, { status: 401, body: notice, headers: { 'content-type': 'text/plain' } }));
    const [diagnosis] = diagnose([ACCEPTED], noisy);
    expect(diagnosis?.evidence).toBe(`GET https://help.example.com/api/ticket/status/1 answered HTTP 401 with ${notice.slice(0, 160)}…`);
    const exact = `\nNotice: Undefined index: lang in /var/www/app/api/status.php on line 7\n`.padEnd(160, '-');
    const unclassified: Record<string, JudgedExchange> = healthy(
      exchange('wrong-token', STATUS, { status: 401, body: exact, headers: { 'content-type': 'text/plain' } }),
    );
    delete unclassified['wrong-token /api/ticket/status/1?']?.classification;
    expect(diagnose([ACCEPTED], classifiedExchanges(unclassified))[0]?.evidence).toBe(
      `GET https://help.example.com/api/ticket/status/1 answered HTTP 401 with ${exact}`,
    );
    const words = healthy(
      exchange('wrong-token', STATUS, { status: 401, body: '{"status":"error","message":"Token refused. Warning: it expired"}' }),
    );
    expect(diagnose([ACCEPTED], words)).toEqual([]);
  });

  test('a token with one letter in the other case served: the comparison ignores case', () => {
    const exchanges = healthy(exchange('token-case-flipped', STATUS, { status: 200, body: STATUS_BODY }));
    const diagnoses = diagnose([ACCEPTED, judged('AUTH-NEAR-MISS-TOKEN-REFUSED', ['token-case-flipped /api/ticket/status/1?'])], exchanges);
    expect(diagnoses).toEqual([
      {
        id: 'token-compared-case-insensitively',
        cites: ['token-case-flipped /api/ticket/status/1?'],
        party: 'target',
        confidence: 'high',
        summary:
          "the token with one letter in the other case is accepted: the token is compared without regard to case, most often by the database column's collation (MySQL's *_ci collations) or a case-insensitive comparison in code",
        evidence: 'GET https://help.example.com/api/ticket/status/1 (the token with the case of one letter flipped) answered HTTP 200',
        advice: [
          'Compare the token byte for byte: give the token column a binary collation (utf8mb4_bin, or BINARY in the query), or look the token up by its hash and compare with hash_equals().',
        ],
      },
    ]);
  });

  test('a flipped case served on both paths, a shortened token refused: case alone is named, with both requests', () => {
    const exchanges = healthy(
      exchange('token-case-flipped', STATUS, { status: 200, body: STATUS_BODY }),
      exchange('token-case-flipped', LISTING, { status: 200, body: '{"status":"success","message":null,"data":[]}' }),
      exchange('token-truncated', STATUS, { status: 401, body: REFUSAL }),
    );
    const nearMiss: JudgedRequirement = {
      id: 'AUTH-NEAR-MISS-TOKEN-REFUSED',
      verdict: 'fail',
      checks: [
        {
          requirement: 'AUTH-NEAR-MISS-TOKEN-REFUSED',
          scenario: 's',
          verdict: 'pass',
          description: 'd',
          exchange: 'token-truncated /api/ticket/status/1?',
        },
        {
          requirement: 'AUTH-NEAR-MISS-TOKEN-REFUSED',
          scenario: 's',
          verdict: 'fail',
          description: 'd',
          exchange: 'token-case-flipped /api/ticket/status/1?',
        },
        {
          requirement: 'AUTH-NEAR-MISS-TOKEN-REFUSED',
          scenario: 's',
          verdict: 'fail',
          description: 'd',
          exchange: 'token-case-flipped /api/selfservice/type?',
        },
      ],
    };
    const diagnoses = diagnose([ACCEPTED, nearMiss], exchanges);
    expect(ids(diagnoses)).toEqual(['token-compared-case-insensitively']);
    expect(diagnoses[0]?.evidence).toBe(
      'GET https://help.example.com/api/ticket/status/1 (the token with the case of one letter flipped) answered HTTP 200; GET https://help.example.com/api/selfservice/type (the token with the case of one letter flipped) answered HTTP 200',
    );
  });

  test('a token one character shorter or longer served: only a part of it is compared', () => {
    const exchanges = healthy(
      exchange('token-truncated', STATUS, { status: 200, body: STATUS_BODY }),
      exchange('token-extended', STATUS, { status: 200, body: STATUS_BODY }),
    );
    const nearMiss = judged('AUTH-NEAR-MISS-TOKEN-REFUSED', [
      'token-truncated /api/ticket/status/1?',
      'token-extended /api/ticket/status/1?',
    ]);
    expect(diagnose([ACCEPTED, nearMiss], exchanges)).toEqual([
      {
        id: 'token-compared-by-prefix',
        cites: ['token-truncated /api/ticket/status/1?', 'token-extended /api/ticket/status/1?'],
        party: 'target',
        confidence: 'high',
        summary:
          'a token one character shorter or longer than the real one is accepted: only a part of the token is compared (a prefix match, LIKE, a column that truncates what it stores, or a comparison of the first characters)',
        evidence:
          'GET https://help.example.com/api/ticket/status/1 (the token without its last character) answered HTTP 200; GET https://help.example.com/api/ticket/status/1 (the token with one character appended) answered HTTP 200',
        advice: [
          'Compare the whole token, and its length: an exact match (hash_equals() on hashes of the same length), never LIKE or a prefix.',
        ],
      },
    ]);
  });

  test('near misses served where a wrong token is served too: nothing is compared at all, no comparison is blamed', () => {
    const exchanges = healthy(
      exchange('token-case-flipped', STATUS, { status: 200, body: STATUS_BODY }),
      exchange('token-truncated', STATUS, { status: 200, body: STATUS_BODY }),
      exchange('wrong-token', STATUS, { status: 200, body: STATUS_BODY }),
    );
    const results = [
      ACCEPTED,
      judged('AUTH-NEAR-MISS-TOKEN-REFUSED', ['token-case-flipped /api/ticket/status/1?', 'token-truncated /api/ticket/status/1?']),
      judged('AUTH-WRONG-TOKEN-REFUSED', ['wrong-token /api/ticket/status/1?']),
    ];
    expect(ids(diagnose(results, exchanges))).toEqual(['authentication-not-enforced']);
  });

  describe('a cache that ignores the query string', () => {
    const cachedLang = (body: string) =>
      exchange('valid', STATUS, { status: 200, body, headers: { ...JSON_TYPE, 'cf-cache-status': 'HIT' } }, { lang: 'fr' });
    const langFailed = judged('LANG-TRANSLATION-REPLACES', ['valid /api/ticket/status/1?lang=fr']);

    test('answers the lang request with the very answer of the plain request', () => {
      expect(diagnose([ACCEPTED, langFailed], healthy(cachedLang(STATUS_BODY)))).toEqual([
        {
          id: 'cache-ignores-query-string',
          cites: ['valid /api/ticket/status/1?lang=fr'],
          party: 'environment',
          confidence: 'high',
          summary:
            'a cache in front of the API answered the lang request from its store (cf-cache-status: HIT) with the very answer of the request without lang: its cache key ignores the query string, so every language gets the first one cached',
          evidence: 'GET https://help.example.com/api/ticket/status/1?lang=fr answered HTTP 200 with cf-cache-status: HIT',
          advice: [
            'Make the cache key include the query string for /api/... (Cloudflare: Caching > Cache Rules, "Cache key: query string: all"; Varnish: keep req.url whole in vcl_hash), or bypass the cache for the API paths; then purge it.',
          ],
        },
      ]);
    });

    test('answers it from its store with another answer: named with less confidence', () => {
      const other = STATUS_BODY.replace('"Open"', '"Ouvert"');
      const [diagnosis] = diagnose([ACCEPTED, langFailed], healthy(cachedLang(other)));
      expect(diagnosis).toMatchObject({ id: 'cache-ignores-query-string', confidence: 'medium' });
      expect(diagnosis?.summary).toMatch(
        /^a cache in front of the API answered the lang request from its store \(cf-cache-status: HIT\): its cache key/,
      );
    });

    test('where the plain request got no answer to compare with: named with less confidence', () => {
      const [diagnosis] = diagnose([langFailed], cachedLang(STATUS_BODY));
      expect(diagnosis).toMatchObject({ id: 'cache-ignores-query-string', confidence: 'medium' });
    });

    test('a lang answer fetched afresh, or a plain request from the store, is no such cache', () => {
      const fresh = exchange(
        'valid',
        STATUS,
        { status: 200, body: STATUS_BODY, headers: { ...JSON_TYPE, 'cf-cache-status': 'MISS' } },
        { lang: 'fr' },
      );
      expect(diagnose([ACCEPTED, langFailed], healthy(fresh))).toEqual([]);
      const plainCached = exchange('valid', STATUS, { status: 200, body: STATUS_BODY, headers: { ...JSON_TYPE, age: '30' } });
      expect(diagnose([ACCEPTED, judged('LANG-TRANSLATION-REPLACES', ['valid /api/ticket/status/1?'])], healthy(plainCached))).toEqual([]);
      expect(diagnose([ACCEPTED, judged('STATUS-NAME', ['valid /api/ticket/status/1?lang=fr'])], healthy(cachedLang(STATUS_BODY)))).toEqual(
        [],
      );
    });
  });
});

describe('a valid request answered with something that says nothing of the credentials', () => {
  const redirected = (location: string, status = 301): Diagnosis[] =>
    diagnose(
      [judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])],
      exchange('valid', STATUS, { status, body: '', headers: { location } }),
    );

  test('a redirect to the same API at another address names the base URL to pass', () => {
    expect(redirected('https://desk.example.org/support/api/ticket/status/1')).toEqual([
      {
        id: 'api-redirects',
        cites: ['valid /api/ticket/status/1?'],
        party: 'environment',
        inconclusive: true,
        confidence: 'medium',
        summary:
          'the API paths answer with a redirect (HTTP 301 to https://desk.example.org/support/api/ticket/status/1), which the suite records and never follows: the requests do not reach the API, so it cannot be judged',
        evidence:
          'GET https://help.example.com/api/ticket/status/1 answered HTTP 301 with Location: https://desk.example.org/support/api/ticket/status/1',
        advice: ['The redirect names the same API at another address: pass --base-url https://desk.example.org/support'],
      },
    ]);
  });

  test('a redirect from under a path to the root of another host names that host', () => {
    const moved = exchange('valid', STATUS, {
      status: 308,
      body: '',
      headers: { location: 'https://desk.example.org/api/ticket/status/1' },
    });
    const [entry] = Object.values(moved);
    if (entry) entry.request.url = 'https://help.example.com/support/api/ticket/status/1';
    const [diagnosis] = diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], moved);
    expect(diagnosis?.advice).toEqual(['The redirect names the same API at another address: pass --base-url https://desk.example.org']);
  });

  test.each([
    ['300 with a Location', 300, { location: 'https://desk.example.org/api/ticket/status/1' }, 'api-redirects'],
    ['200 with a Location', 200, { location: 'https://desk.example.org/api/ticket/status/1' }, 'no-api-answer'],
    ['400 with a Location', 400, { location: 'https://desk.example.org/api/ticket/status/1' }, 'no-api-answer'],
    ['304 without a Location', 304, {}, 'no-api-answer'],
  ])('%s', (_name, status, headers, id) => {
    const seen = { status, body: status === 304 ? '' : 'It works!', headers: { 'content-type': 'text/plain', ...headers } };
    expect(ids(diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchange('valid', STATUS, seen)))).toEqual([id]);
  });

  test.each([
    ['to itself', 'https://help.example.com/api/ticket/status/1', /^The API path redirects to itself/],
    ['to a login page', '/login?next=/api/ticket/status/1', /^The redirect leads away from the API/],
    ['to an address that does not parse', 'http://[bad', /^The redirect leads away from the API/],
  ])('a redirect %s', (_name, location, advice) => {
    const [diagnosis, ...others] = redirected(location, 302);
    expect(others).toEqual([]);
    expect(diagnosis).toMatchObject({ id: 'api-redirects', inconclusive: true });
    expect(diagnosis?.advice).toEqual([expect.stringMatching(advice)]);
  });

  test('a server error in JSON that is no envelope: the application fails', () => {
    const body = JSON.stringify(Array.from({ length: 40 }, (_, index) => `frame ${index}`));
    const failed = exchange('valid', STATUS, { status: 500, body });
    expect(diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], failed)).toEqual([
      {
        id: 'server-error',
        cites: ['valid /api/ticket/status/1?'],
        party: 'target',
        confidence: 'high',
        summary: 'the API answers a valid request with HTTP 500, a server error: the application fails before it can be judged',
        evidence: `GET https://help.example.com/api/ticket/status/1 answered HTTP 500 ${body.slice(0, 160)}`,
        advice: ["Read the application's and the web server's error logs at the time of this run."],
      },
    ]);
  });

  test('plain text from something nobody can tell to be the API: the base URL is questioned, and nothing is judged', () => {
    const text = { status: 200, body: `It works!${' This is the default page.'.repeat(10)}`, headers: { 'content-type': 'text/plain' } };
    const exchanges = { ...exchange('valid', STATUS, text), ...exchange('no-header', STATUS, text) };
    expect(diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges)).toEqual([
      {
        id: 'no-api-answer',
        cites: ['valid /api/ticket/status/1?'],
        party: 'environment',
        inconclusive: true,
        confidence: 'medium',
        summary:
          "no answer of this run came from the API: the API paths answer HTTP 200 with not a JSON object, which nothing shows to be the API's",
        evidence: `GET https://help.example.com/api/ticket/status/1 answered HTTP 200 ${text.body.slice(0, 160)}`,
        advice: [
          'Check that --base-url is the address of the service (the one the API paths /api/... are added to), and open it in a browser: it should show the help desk.',
        ],
      },
    ]);
  });

  test('the same text where the API answered another request is left to the checks', () => {
    const text = { status: 200, body: 'It works!', headers: { 'content-type': 'text/plain' } };
    const exchanges = { ...exchange('valid', STATUS, text), ...exchange('no-header', STATUS, { status: 401, body: REFUSAL }) };
    expect(diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges)).toEqual([]);
  });

  test('JSON cut short under a JSON label: the API answers what the suite cannot read', () => {
    const cut = exchange('valid', STATUS, { status: 200, body: '{"status":"success","message":null,"data":{"id":1,' });
    const results = [judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?']), judged('ENV-JSON', ['valid /api/ticket/status/1?'])];
    expect(diagnose(results, cut)).toEqual([
      {
        id: 'answers-not-json',
        cites: ['valid /api/ticket/status/1?'],
        party: 'target',
        confidence: 'high',
        summary: 'the API answers HTTP 2xx with a body the suite cannot read as JSON',
        evidence: 'answered by valid /api/ticket/status/1?',
        advice: ['Serve the resource as UTF-8 JSON, as the document says ("Responses are JSON").'],
      },
    ]);
    const refusedCut = exchange('valid', STATUS, { status: 401, body: '{"status":"error",' });
    expect(diagnose(results, refusedCut)).toEqual([]);
    expect(diagnose([results[0] as JudgedRequirement, judged('ENV-JSON', [], 'pass')], cut)).toEqual([]);
  });

  test('the failed check of ENV-JSON that names an answer is the evidence', () => {
    const cut = exchange('valid', STATUS, { status: 200, body: '{"status":"success","message":null,"data":{"id":1,' });
    const check = (verdict: 'pass' | 'fail', actual: string, key?: string) => ({
      requirement: 'ENV-JSON',
      scenario: 's',
      verdict,
      description: 'd',
      actual,
      ...(key ? { exchange: key } : {}),
    });
    const envJson: JudgedRequirement = {
      id: 'ENV-JSON',
      verdict: 'fail',
      checks: [
        check('pass', 'a JSON listing', 'valid /api/selfservice/type?'),
        check('fail', 'no answer'),
        check('fail', 'JSON cut short', 'valid /api/ticket/status/1?'),
      ],
    };
    expect(diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?']), envJson], cut)[0]?.evidence).toBe('JSON cut short');
  });

  test('a body that does not decode, or an answer kept without its classification, is not JSON; a 300 is not a success', () => {
    const results = [judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?']), judged('ENV-JSON', ['valid /api/ticket/status/1?'])];
    const latin1 = exchange('valid', STATUS, { status: 200, body: 'caf\u00e9', headers: { 'content-type': 'text/plain' } });
    const [entry] = Object.values(latin1);
    if (entry)
      entry.classification = classifyAnswer({
        apiPath: STATUS,
        status: 200,
        headers: {},
        bodyText: 'caf\ufffd',
        json: parseJson(bodyText(Buffer.from([0x63, 0x61, 0x66, 0xe9]))),
      });
    expect(entry?.classification?.meaning).toMatchObject({ kind: 'undecodable', why: 'encoding' });
    expect(ids(diagnose(results, latin1))).toEqual(['answers-not-json']);
    const unclassified: Record<string, JudgedExchange> = exchange('valid', STATUS, { status: 200, body: '{"status":' });
    delete unclassified['valid /api/ticket/status/1?']?.classification;
    expect(ids(diagnose(results, classifiedExchanges(unclassified)))).toEqual(['answers-not-json']);
    expect(diagnose(results, exchange('valid', STATUS, { status: 300, body: '{"status":' }))).toEqual([]);
  });
});

describe('something in front of the API answered the valid request', () => {
  test('a proxy asking for its own credentials', () => {
    const proxy = observed(407, '<html><title>407 Proxy Authentication Required</title></html>', {
      ...HTML_TYPE,
      'proxy-authenticate': 'Basic realm="corp"',
    });
    expect(only({ valid: proxy })).toEqual({
      id: 'proxy-authentication',
      party: 'environment',
      inconclusive: true,
      confidence: 'high',
      summary: 'a proxy between this machine and the API asks for its own credentials (HTTP 407): no request reached the API',
      evidence:
        'GET /api/ticket/status/1 answered HTTP 407 (text/html; charset=UTF-8) page "407 Proxy Authentication Required" with Proxy-Authenticate: Basic realm="corp"',
      advice: [
        'Give the proxy its credentials in the proxy address (HTTPS_PROXY=http://user:password@proxy:port), or add the API host to NO_PROXY if it can be reached directly.',
      ],
    });
    expect(only({ valid: observed(407, '', {}) }).evidence).toBe('GET /api/ticket/status/1 answered HTTP 407 (no Content-Type) ');
  });

  test("an API gateway's own refusal: the gateway named, with its own fix and its documentation", () => {
    const refused = observed(403, '{"message":"Forbidden"}', { ...JSON_TYPE, 'x-amzn-errortype': 'ForbiddenException' });
    const diagnosis = only({ valid: refused });
    expect(diagnosis).toMatchObject({
      id: 'gateway-refused',
      party: 'environment',
      inconclusive: true,
      confidence: 'high',
      summary: 'AWS API Gateway refused the request with its own answer: the request never reached the API',
      evidence: 'GET /api/ticket/status/1 answered HTTP 403 (application/json) {"message":"Forbidden"}',
    });
    expect(diagnosis.advice[0]).toMatch(/^API Gateway's authorizer, API key or resource policy refused these requests/);
    expect(diagnosis.advice[1]).toBe(
      "AWS API Gateway's documentation: https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html",
    );
  });

  test("a gateway without a fix of its own: the gateway's route and authorizer", () => {
    const refused = observed(401, '{"fault":{"faultstring":"Invalid ApiKey"}}', JSON_TYPE);
    expect(only({ valid: refused })).toEqual({
      id: 'gateway-refused',
      party: 'environment',
      inconclusive: true,
      confidence: 'high',
      summary: 'Apigee refused the request with its own answer: the request never reached the API',
      evidence: 'GET /api/ticket/status/1 answered HTTP 401 (application/json) {"fault":{"faultstring":"Invalid ApiKey"}}',
      advice: [
        "Check the gateway's route and authorizer for /api/...: it must pass the request, Authorization header included, on to the API without asking for credentials of its own.",
      ],
    });
  });

  describe('maintenance, and when to come back', () => {
    const NOW = new Date('2025-03-01T12:00:00.000Z');
    const down = (headers: Record<string, string>): Diagnosis | undefined =>
      frontAnswered({ valid: observed(503, '{"message":"Service Unavailable"}', { ...JSON_TYPE, ...headers }) }, {}, NOW);

    test('Retry-After in seconds: the time to run again', () => {
      expect(down({ 'retry-after': '120' })).toEqual({
        id: 'maintenance',
        party: 'environment',
        inconclusive: true,
        confidence: 'high',
        summary: 'the API is unavailable, down for maintenance or overloaded (HTTP 503): it cannot be judged until it serves again',
        evidence: 'GET /api/ticket/status/1 answered HTTP 503 (application/json) {"message":"Service Unavailable"} with Retry-After: 120',
        advice: ['Run the suite again in 120 s, at 2025-03-01T12:02:00Z or later, as Retry-After asks.'],
      });
    });

    test('Retry-After as an HTTP date, or that cannot be read', () => {
      expect(down({ 'retry-after': 'Sat, 01 Mar 2025 14:30:00 GMT' })?.advice).toEqual([
        'Run the suite again at 2025-03-01T14:30:00Z or later, as Retry-After asks.',
      ]);
      expect(down({ 'retry-after': 'soon' })?.advice).toEqual(['Run the suite again once the maintenance is over.']);
    });

    test('a maintenance page without Retry-After', () => {
      const page = observed(503, '<html><h1>Down for maintenance</h1><p>Back shortly.</p></html>', HTML_TYPE);
      const diagnosis = frontAnswered({ valid: page }, {}, NOW);
      expect(diagnosis?.evidence).toBe(
        'GET /api/ticket/status/1 answered HTTP 503 (text/html; charset=UTF-8) <html><h1>Down for maintenance</h1><p>Back shortly.</p></html>',
      );
      expect(diagnosis?.advice).toEqual(['Run the suite again once the maintenance is over.']);
    });
  });

  test.each([
    [
      'a single sign-on login page',
      observed(200, '<html><form><input name="pw" type="password"></form></html>', HTML_TYPE),
      'single-sign-on-in-the-way',
    ],
    ['a redirect to a single sign-on host', observed(302, '', { location: 'https://example.okta.com/login' }), 'single-sign-on-in-the-way'],
    ["a captive portal's page", observed(511, '<html>Sign in to the network</html>', HTML_TYPE), 'captive-portal'],
    ['a redirect to a hotspot', observed(302, '', { location: 'http://hotspot.example.net/welcome' }), 'captive-portal'],
  ])('%s: a login in the way', (_name, valid, id) => {
    const diagnosis = only({ valid });
    expect(diagnosis).toMatchObject({ id, party: 'environment', inconclusive: true, confidence: 'medium' });
    if (id === 'captive-portal') {
      expect(diagnosis.summary).toBe(
        'a captive portal of the network this runs on answered instead of the API, asking to sign in to the network: no request reached the API',
      );
      expect(diagnosis.advice).toEqual([
        'Run from a network without a captive portal (a CI runner, a server), or sign this machine in to the network first.',
      ]);
    } else {
      expect(diagnosis.summary).toBe(
        'a single sign-on front answered instead of the API with its login page: no request reached the API, which API clients cannot get past',
      );
      expect(diagnosis.advice).toEqual([
        'Exempt the API paths (/api/...) from the single sign-on: the API authenticates its clients with its own token, and API clients cannot log in through a browser page.',
      ]);
    }
  });

  test("the application's own redirect is left to the other rules", () => {
    expect(frontAnswered({ valid: observed(302, '', { location: '/login' }) }, {})).toBeUndefined();
  });

  test("PHP-FPM's File not found.", () => {
    const diagnosis = only({ valid: observed(404, 'File not found.\n', HTML_TYPE) });
    expect(diagnosis).toMatchObject({ id: 'php-fpm-script-not-found', party: 'environment', inconclusive: true, confidence: 'high' });
    expect(diagnosis.summary).toBe(
      'PHP-FPM answered "File not found." (it logs "Primary script unknown"): the web server hands it a script path that does not exist, so no request reached the application',
    );
    expect(diagnosis.evidence).toBe('GET /api/ticket/status/1 answered HTTP 404 (text/html; charset=UTF-8) File not found. ');
    expect(diagnosis.advice).toHaveLength(3);
    expect(diagnosis.advice[0]).toMatch(
      /^Set SCRIPT_FILENAME to the front controller's real path: on nginx, fastcgi_param SCRIPT_FILENAME/,
    );
    expect(diagnosis.advice[2]).toBe(
      'This is not a missing try_files: without one, nginx answers its own 404 page, not PHP-FPM\'s "File not found.".',
    );
  });

  test('PHP-FPM\'s "File not found." behind Apache: the DocumentRoot, and no word of nginx', () => {
    const diagnosis = only({ valid: fromApache(404, 'File not found.\n', 'text/html; charset=UTF-8') });
    expect(diagnosis.id).toBe('php-fpm-script-not-found');
    expect(diagnosis.advice).toEqual([
      'Set the DocumentRoot (or the path in the proxy:fcgi:// handler) to the folder index.php is in, as PHP-FPM sees it: Apache hands PHP-FPM the script path it built from them.',
      'If PHP-FPM runs in a container or chroot, the path must be the one inside it.',
    ]);
  });

  test("Apache's own 401 page: the web server's password, without nginx's lines", () => {
    const page = fromApache(
      401,
      '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>401 Unauthorized</title>\n</head><body>\n<h1>Unauthorized</h1>\n<p>This server could not verify that you are authorized to access the document\nrequested.</p>\n</body></html>\n',
      'text/html; charset=iso-8859-1',
    );
    const diagnosis = only({ valid: { ...page, headers: { ...page.headers, 'www-authenticate': 'Basic realm="Staff"' } } });
    expect(diagnosis).toMatchObject({ id: 'web-server-password', inconclusive: true, confidence: 'high' });
    expect(diagnosis.summary).toMatch(/^Apache asks for a password of its own/);
    expect(diagnosis.advice[0]).toBe(
      "Take the API paths (/api/... and the front controller they are rewritten to) out of the web server's own password.",
    );
    expect(diagnosis.snippets).toBeUndefined();
  });

  test("a CDN's block page, and a refusing page nobody can name", () => {
    const blocked = observed(403, '<html><title>Attention Required! | Cloudflare</title><h1>Sorry, you have been blocked</h1></html>', {
      ...HTML_TYPE,
      server: 'cloudflare',
    });
    expect(only({ valid: blocked })).toEqual({
      id: 'front-blocked',
      party: 'environment',
      inconclusive: true,
      confidence: 'high',
      summary: 'Cloudflare answered instead of the API (a block page): no request reached the API, so it cannot be judged',
      evidence: 'GET /api/ticket/status/1 answered HTTP 403 (text/html; charset=UTF-8) page "Attention Required! | Cloudflare"',
      advice: [
        `Let the suite's requests through Cloudflare: allow the address this runs from, or its User-Agent "ticketing-conformance", for the API paths (/api/...), or run from inside the network, past the front.`,
        'API paths must not get browser challenges: API clients cannot answer them.',
      ],
    });
    const nameless = only({ valid: observed(403, '<html><body><h1>Forbidden</h1></body></html>', HTML_TYPE) });
    expect(nameless).toMatchObject({ id: 'front-blocked', confidence: 'medium' });
    expect(nameless.summary).toMatch(/^a firewall or CDN in front of the API answered instead of the API \(a block page\)/);
    expect(nameless.advice[0]).toMatch(/^Let the suite's requests through the firewall or CDN: /);
    expect(diagnoseStack({ valid: observed(404, '<html><body><h1>Not here</h1></body></html>', HTML_TYPE) })[0]?.id).toBe(
      'rewrite-not-applied',
    );
  });
});

describe('the set-up points at nothing', () => {
  const notFound = fromApache(404, '{"status":"error","message":"Route not found.","data":[]}');

  test('a base URL ending in /api', () => {
    expect(only({ valid: notFound }, { baseUrl: 'https://help.example.com/api/' })).toEqual({
      id: 'base-url-ends-in-api',
      party: 'environment',
      inconclusive: true,
      confidence: 'high',
      summary:
        '--base-url ends in /api, so every request asks for /api/api/...: the paths are relative to the address of the service, not of its API',
      evidence: 'GET /api/ticket/status/1 answered HTTP 404 (application/json) {"status":"error","message":"Route not found.","data":[]}',
      advice: ['Pass --base-url https://help.example.com'],
    });
    expect(only({ valid: notFound }, { baseUrl: 'https://example.com/support/API' }).advice).toEqual([
      'Pass --base-url https://example.com/support',
    ]);
    expect(diagnoseStack({ valid: notFound }, { baseUrl: 'https://example.com/apis' })).toEqual([]);
    const versioned = only({ valid: notFound }, { baseUrl: 'https://example.com/support/api/v10//' });
    expect(versioned.summary).toMatch(/^--base-url ends in \/api\/v10, so every request asks for \/api\/v10\/api\/\.\.\.:/);
    expect(versioned.advice).toEqual(['Pass --base-url https://example.com/support']);
  });

  test("a base URL that is an endpoint's address pasted whole: the address of the service before it", () => {
    for (const endpoint of ['/api/ticket/status/1', '/api/ticket/status/', '/api/selfservice/type', '/API/Ticket/Status']) {
      const pasted = only({ valid: notFound }, { baseUrl: `https://example.com/support${endpoint}` });
      expect(pasted.id).toBe('base-url-ends-in-api');
      expect(pasted.summary.startsWith(`--base-url ends in ${endpoint.replace(/\/$/, '')}, so every request asks for `)).toBe(true);
      expect(pasted.advice).toEqual(['Pass --base-url https://example.com/support']);
    }
    expect(diagnoseStack({ valid: notFound }, { baseUrl: 'https://example.com/api/tickets' }).map((found) => found.id)).not.toContain(
      'base-url-ends-in-api',
    );
  });

  test('every API path answering 404 under a base URL that repeats a segment: the base URL with it once', () => {
    const listingNotFound = { ...notFound, url: `http://127.0.0.1:8080${LISTING}` };
    const advice = (baseUrl: string) => only({ valid: notFound, selfservice: listingNotFound }, { baseUrl }).advice;
    expect(advice('https://example.com/support/support')).toEqual([
      '--base-url has /support twice: pass --base-url https://example.com/support',
    ]);
    expect(advice('https://example.com/index.php/index.php/index.php/')).toEqual([
      '--base-url has /index.php three times: pass --base-url https://example.com/index.php',
    ]);
    expect(advice('https://example.com/x/v1/v1/v1/v1')).toEqual(['--base-url has /v1 4 times: pass --base-url https://example.com/x/v1']);
    expect(advice('https://example.com/helpdesk/help')[0]).toMatch(/^If the service lives under a path/);
    expect(advice('https://example.com/a/a')).toEqual(['--base-url has /a twice: pass --base-url https://example.com/a']);
  });

  test('every API path answering 404 from the application', () => {
    const listingNotFound = { ...notFound, url: `http://127.0.0.1:8080${LISTING}` };
    expect(only({ valid: notFound, selfservice: listingNotFound }, { baseUrl: 'https://example.com/' })).toEqual({
      id: 'api-paths-not-found',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      summary:
        'every API path answers 404, the status and the selfservice listing alike: --base-url does not point at the service (a path prefix is missing, or it is another site)',
      evidence:
        'GET /api/ticket/status/1 answered HTTP 404 (application/json) {"status":"error","message":"Route not found.","data":[]}; GET /api/selfservice/type answered HTTP 404',
      advice: [
        'If the service lives under a path (https://example.com/support), include it: --base-url https://example.com/<path>. The paths /api/... are added to it.',
        'Open the address in a browser: it should show the help desk, not another site.',
      ],
    });
    expect(only({ valid: notFound, selfservice: listingNotFound }).advice[0]).toBe(
      'If the service lives under a path (https://example.com/support), include it: --base-url https://example.com/support. The paths /api/... are added to it.',
    );
  });

  describe('a status that does not exist', () => {
    const listing = fromApache(200, '{"status":"success","message":null,"data":[{"id":1,"name":"Question"}]}', undefined, LISTING);
    const unknownStatus = { ...notFound, url: 'http://127.0.0.1:8080/api/ticket/status/2147483646' };
    const first = fromApache(200, STATUS_BODY);
    const asked = { ...notFound, url: 'http://127.0.0.1:8080/api/ticket/status/7' };

    test('while status 1 is served: --status-id 1 is named, with confidence', () => {
      expect(only({ valid: asked, selfservice: listing, firstStatus: first }, { statusId: 7 })).toEqual({
        id: 'status-not-found',
        party: 'environment',
        inconclusive: true,
        confidence: 'high',
        summary:
          'status 7 does not seem to exist: the token is accepted (the selfservice listing is served), but status 7 is answered like a status that does not exist',
        evidence:
          'GET /api/ticket/status/7 answered HTTP 404 (application/json) {"status":"error","message":"Route not found.","data":[]}, while GET /api/ticket/status/1 was served',
        advice: ['Pass --status-id 1, or the id of another status that exists (the help desk lists them in its ticket status settings).'],
      });
    });

    test('answered like a status that does not exist', () => {
      const diagnosis = only({ valid: asked, selfservice: listing, unknownStatus }, { statusId: 7 });
      expect(diagnosis).toMatchObject({ id: 'status-not-found', confidence: 'medium' });
      expect(diagnosis.evidence).toBe(
        'GET /api/ticket/status/7 answered HTTP 404 (application/json) {"status":"error","message":"Route not found.","data":[]}, the same as GET /api/ticket/status/2147483646',
      );
      expect(diagnosis.advice[0]).toMatch(
        /^Pass --status-id with the id of a status that exists .*; if none is missing, the status endpoint itself is not routed\.$/,
      );
    });

    test('not when the token is refused, the listing is not served, or status 1 itself is asked', () => {
      const refused = { ...wrongTokenRefused, url: asked.url };
      expect(ids(diagnoseStack({ valid: refused, selfservice: listing, unknownStatus: refused }, { statusId: 7 }))).not.toContain(
        'status-not-found',
      );
      expect(diagnoseStack({ valid: asked, selfservice: { ...listing, status: 401 }, unknownStatus }, { statusId: 7 })).toEqual([]);
      expect(diagnoseStack({ valid: notFound, selfservice: listing, firstStatus: first }, { statusId: 1 })).toEqual([]);
    });
  });
});

describe('the application answered, and failed', () => {
  test.each([
    [
      'its database down',
      '{"status":"error","message":"SQLSTATE[HY000] [2002] Connection refused","data":[]}',
      'it cannot reach its database',
      /^Check that the database server is running/,
    ],
    [
      'a fatal error',
      '<br />\n<b>Fatal error</b>:  Allowed memory size of 134217728 bytes exhausted',
      'PHP stopped it with a fatal error',
      /^Read the application's log/,
    ],
    [
      'an uncaught exception',
      'PHP Warning: x\nUncaught RuntimeException: no locale in /var/www/app/Locale.php:3',
      'an exception went uncaught',
      /^Read the application's log/,
    ],
    [
      'a server error in its envelope',
      '{"status":"error","message":"Something broke.","data":[]}',
      'it answered with a server error',
      /^Read the application's log/,
    ],
  ])('%s', (_name, body, words, advice) => {
    const failed = fromApache(500, body);
    const diagnosis = only({ valid: failed, noHeader: missingCredentials });
    expect(diagnosis).toMatchObject({ id: 'application-failed', party: 'target', confidence: 'high' });
    expect(diagnosis.summary).toMatch(new RegExp(`^the request reached the application, and the application failed: ${words} \\(HTTP 500`));
    expect(diagnosis.evidence).toMatch(/^GET \/api\/ticket\/status\/1 answered HTTP 500 \(application\/json\) /);
    expect(diagnosis.advice).toEqual([expect.stringMatching(advice)]);
  });
});

describe('the API answers one documented path and not the other', () => {
  const listing = fromApache(200, '{"status":"success","message":null,"data":[]}', undefined, LISTING);

  test.each([
    ['an empty body', fromApache(200, '', 'text/html; charset=UTF-8')],
    ['an HTML page', fromApache(200, '<!DOCTYPE html><html><body><div id="app"></div></body></html>', 'text/html; charset=UTF-8')],
  ])('the status path answers %s while the listing is served: a catch-all route', (what, valid) => {
    const diagnosis = only({ valid, selfservice: listing });
    expect(diagnosis).toMatchObject({ id: 'catch-all-route', party: 'target', confidence: 'medium' });
    expect(diagnosis.inconclusive).toBeUndefined();
    expect(diagnosis.summary).toBe(
      `the API answers the selfservice listing with its JSON, but /api/ticket/status/1 with ${what}: a catch-all route (a front end's, or the web server's fallback) takes /api/... paths the API should answer`,
    );
    expect(diagnosis.advice).toHaveLength(2);
  });

  test('an empty body everywhere: the requests do not reach the application', () => {
    const empty = fromApache(200, '', 'text/html; charset=UTF-8');
    expect(only({ valid: empty, selfservice: { ...empty, url: listing.url } })).toEqual({
      id: 'api-path-answers-empty',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      summary:
        'the API paths answer HTTP 200 with an empty body, and no answer of this run came from the API: the requests do not reach the API application',
      evidence: 'GET /api/ticket/status/1 answered HTTP 200 with an empty body',
      advice: [
        'Check that --base-url points at the service (the folder holding the application, e.g. https://help.example.com or https://example.com/support).',
        "Read the web server's and PHP's error logs at the time of the run: an empty answer is often PHP failing with display_errors off.",
      ],
    });
    expect(diagnoseStack({ valid: fromApache(401, '', 'text/html') })).toEqual([]);
  });
});

describe("the web server's own error page", () => {
  test.each([
    ['nginx', observed(504, '<html><title>504 Gateway Time-out</title></html>', { ...HTML_TYPE, server: 'nginx/1.24.0' }), 'nginx', true],
    ['an unnamed server', observed(502, '<html><title>502</title></html>', HTML_TYPE), 'the web server', true],
    ['an unnamed server failing', observed(500, '<html><title>500</title></html>', HTML_TYPE), 'the web server', false],
  ])('%s', (_name, valid, name, unavailable) => {
    const diagnosis = only({ valid });
    expect(diagnosis).toMatchObject({ id: 'web-server-error', party: 'environment', inconclusive: true });
    expect(diagnosis.summary).toBe(
      unavailable
        ? `${name} answers HTTP ${valid.status} with its own error page: it cannot reach PHP (PHP-FPM is not running, or the socket ${name} uses is not the one PHP-FPM listens on)`
        : `${name} fails with its own error page (HTTP ${valid.status}) before the application answers: often a .htaccess line whose module is not loaded, such as RewriteEngine without mod_rewrite`,
    );
    expect(diagnosis.advice[0]).toBe(`Read ${name}'s error log at the time of the request: it names the failing directive or back end.`);
    expect(diagnosis.advice[1]).toMatch(unavailable ? /^Start PHP-FPM/ : /^If the log says "Invalid command 'RewriteEngine'"/);
  });

  test("nginx's own 500 page: its error log names the cause, and no word of Apache's modules", () => {
    const page = observed(
      500,
      '<html><head><title>500 Internal Server Error</title></head><body><center>nginx/1.22.1</center></body></html>',
      {
        ...HTML_TYPE,
        server: 'nginx/1.22.1',
      },
    );
    const diagnosis = only({ valid: page });
    expect(diagnosis).toMatchObject({
      id: 'web-server-error',
      summary: 'nginx fails with its own error page (HTTP 500) before the application answers',
      advice: [
        "Read nginx's error log at the time of the request: it names the failing directive or back end.",
        'Most often it is a rewrite or internal redirection cycle, or a file nginx may not read.',
      ],
    });
    expect(diagnosis.snippets).toBeUndefined();
  });
});

describe('the token', () => {
  test('refused as the user name and served in other forms: read from the wrong place', () => {
    const asPassword = { form: 'the token as the password, with another user name', answer: served };
    const asBearer = { form: 'Bearer scheme instead of Basic', answer: served };
    const diagnosis = only({
      valid: missingCredentials,
      noHeader: missingCredentials,
      tokenElsewhere: [asPassword, asBearer, { form: 'Basic with the token alone, no ":"', answer: missingCredentials }],
    });
    expect(diagnosis).toEqual({
      id: 'token-read-from-wrong-place',
      party: 'target',
      confidence: 'high',
      summary:
        "the token as the Basic user name is refused, but the status is handed out to the token as the password, with another user name and to Bearer scheme instead of Basic: the Authorization header arrives and the token is valid, so the application reads the token from the wrong place (the password, or a Bearer header only), as some frameworks' default guards do",
      evidence:
        'GET /api/ticket/status/1 with the token as the user name answered HTTP 401 (application/json) {"status":"error","message":"Failed to authenticate because of bad credentials or an invalid authorization header.","data":[]}; with the token as the password, with another user name: HTTP 200; with Bearer scheme instead of Basic: HTTP 200',
      advice: [
        'Take the token from the user name of the Basic credentials (PHP: $_SERVER[\'PHP_AUTH_USER\'], or the part before the first ":" of the decoded Authorization value) and ignore the password, as the document says.',
        'Refuse the token in any other place: as the password, as a Bearer token, or without the ":".',
      ],
    });
  });

  test('served in another form by a front, not the application: not read from the wrong place', () => {
    const page = fromApache(404, '<html><title>404</title></html>', 'text/html');
    expect(ids(diagnoseStack({ valid: page, tokenElsewhere: [{ form: 'Bearer scheme instead of Basic', answer: served }] }))).not.toContain(
      'token-read-from-wrong-place',
    );
  });

  test('refused like no header on more requests than are shown: the rest are counted', () => {
    const results = [
      ACCEPTED,
      judged('AUTH-PASSWORD-IGNORED', [
        'password-letter /api/ticket/status/1?',
        'password-empty /api/ticket/status/1?',
        'password-long /api/ticket/status/1?',
        'password-colon /api/ticket/status/1?',
      ]),
    ];
    const refusal = { status: 401, body: REFUSAL };
    const exchanges = healthy(
      exchange('password-letter', STATUS, refusal),
      exchange('password-empty', STATUS, refusal),
      exchange('password-long', STATUS, refusal),
      exchange('password-colon', STATUS, refusal),
    );
    const [diagnosis, ...others] = diagnose(results, exchanges);
    expect(others).toEqual([]);
    expect(diagnosis).toMatchObject({ id: 'authorization-header-stripped', environmentAnswer: { status: 401, body: REFUSAL } });
    expect(diagnosis?.evidence).toBe(
      `GET /api/ticket/status/1 (valid token, password "z"); GET /api/ticket/status/1 (valid token, empty password); GET /api/ticket/status/1 (valid token, 256-character password); 1 more: answered HTTP 401 (application/json) ${REFUSAL}, like no Authorization header`,
    );
    expect(diagnosis?.summary).toMatch(/\(AUTH-PASSWORD-IGNORED failed on them\)$/);
  });

  test('a refusal unlike the one without a header, on requests with the token: not the header', () => {
    const results = [ACCEPTED, judged('AUTH-PASSWORD-IGNORED', ['password-letter /api/ticket/status/1?'])];
    const exchanges = healthy(
      exchange('password-letter', STATUS, { status: 401, body: '{"status":"error","message":"Password rejected."}' }),
    );
    expect(diagnose(results, exchanges)).toEqual([]);
    const refusedWrongToken = healthy(exchange('wrong-token', STATUS, { status: 401, body: REFUSAL }));
    expect(diagnose([ACCEPTED, judged('AUTH-WRONG-TOKEN-REFUSED', ['wrong-token /api/ticket/status/1?'])], refusedWrongToken)).toEqual([]);
  });
});

describe('what the suite could not reach', () => {
  test('a transport error names the target as unreachable; a deadline, a rate limit or a front does not', () => {
    const failedCheck = (code: 'HARNESS_UNREACHABLE' | 'HARNESS_DEADLINE' | 'HARNESS_RATE_LIMITED') => ({
      id: 'AUTH-TOKEN-ACCEPTED',
      verdict: 'error',
      checks: [
        {
          requirement: 'AUTH-TOKEN-ACCEPTED',
          scenario: 's',
          verdict: 'error' as const,
          description: 'd',
          error: { code, message: `${code}: no answer`, hint: `what to do about ${code}`, party: 'environment' as const },
        },
      ],
    });
    expect(diagnose([failedCheck('HARNESS_UNREACHABLE'), failedCheck('HARNESS_DEADLINE')], {})).toEqual([
      {
        id: 'target-not-reachable',
        party: 'environment',
        confidence: 'high',
        summary: 'the suite could not talk to the target (HARNESS_UNREACHABLE): no verdict can be given on what failed to arrive',
        evidence: 'HARNESS_UNREACHABLE: no answer',
        advice: ['what to do about HARNESS_UNREACHABLE'],
      },
    ]);
    expect(diagnose([failedCheck('HARNESS_DEADLINE'), failedCheck('HARNESS_RATE_LIMITED')], {})).toEqual([]);
  });
});

test('the doctor and the main run read the stack alike: served and refused as expected, nothing named', () => {
  expect(diagnoseStack({ valid: served, noHeader: missingCredentials, wrongToken: wrongTokenRefused })).toEqual([]);
});

test("Apache's 300 Multiple Choices page naming a variant in Location is a redirect, not an HTML page served on the API path", () => {
  const page =
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>300 Multiple Choices</title>\n</head><body>\n<h1>Multiple Choices</h1>\nAvailable variants:\n<ul>\n<li><a href="1.json">1.json</a> , type application/json</li>\n<li><a href="1.html">1.html</a> , type text/html</li>\n</ul>\n</body></html>\n';
  const headers = { server: 'Apache/2.4.62 (Debian)', 'content-type': 'text/html; charset=iso-8859-1', location: `${BASE}${STATUS}.json` };
  const exchanges = exchange('valid', STATUS, { status: 300, body: page, headers });
  expect(ids(diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges))).toEqual(['api-redirects']);
});

test('a PHP deprecation printed as plain text first thing in the answer (html_errors off) names display_errors', () => {
  const deprecation = '\nDeprecated: Creation of dynamic property Status::$colour is deprecated in /var/www/app/Status.php on line 9\n';
  const exchanges = healthy(exchange('valid', STATUS, { status: 200, body: `${deprecation}${STATUS_BODY}`, headers: HTML_TYPE }));
  const diagnoses = diagnose([ACCEPTED, judged('ENV-JSON', ['valid /api/ticket/status/1?'])], exchanges);
  expect(ids(diagnoses)).toEqual(['php-display-errors']);
  expect(diagnoses[0]?.evidence).toBe(
    'GET https://help.example.com/api/ticket/status/1 answered HTTP 200 with Deprecated: Creation of dynamic property Status::$colour is deprecated in /var/www/app/Status.php on line 9',
  );
});

describe('the set-up, read from the base URL and the statuses asked for', () => {
  const routeNotFound = fromApache(404, '{"status":"error","message":"Route not found.","data":[]}');
  const listing = fromApache(200, '{"status":"success","message":null,"data":[{"id":1,"name":"Question"}]}', undefined, LISTING);
  const atPath = (seen: ObservedAnswer, path: string): ObservedAnswer => ({ ...seen, url: `http://127.0.0.1:8080${path}` });

  test('a base URL ending in /api and slashes, or with /api earlier in its path: only the last /api is taken off', () => {
    expect(only({ valid: routeNotFound }, { baseUrl: 'https://help.example.com/api//' }).advice).toEqual([
      'Pass --base-url https://help.example.com',
    ]);
    expect(only({ valid: routeNotFound }, { baseUrl: 'https://intranet.example.com/api-gateway/helpdesk/api' }).advice).toEqual([
      'Pass --base-url https://intranet.example.com/api-gateway/helpdesk',
    ]);
  });

  test('every API path answering 404 under a base URL with trailing slashes: the path goes after one slash', () => {
    const observations = { valid: routeNotFound, selfservice: atPath(routeNotFound, LISTING) };
    expect(only(observations, { baseUrl: 'https://example.com//' }).advice[0]).toBe(
      'If the service lives under a path (https://example.com/support), include it: --base-url https://example.com/<path>. The paths /api/... are added to it.',
    );
  });

  test('every API path answering 404 from the cache in front of the API: the base URL, not the cache, is named', () => {
    const cached = (seen: ObservedAnswer): ObservedAnswer => ({ ...seen, headers: { ...seen.headers, 'cf-cache-status': 'HIT' } });
    expect(only({ valid: cached(routeNotFound), selfservice: cached(atPath(routeNotFound, LISTING)) }).id).toBe('api-paths-not-found');
  });

  test("the web server's own 404 page on every API path: the rewrite, not the base URL", () => {
    const page = fromApache(404, APACHE_404_PAGE, 'text/html; charset=iso-8859-1');
    expect(only({ valid: page, selfservice: atPath(page, LISTING) }).id).toBe('rewrite-not-applied');
  });

  test('a page refusing the request that nobody can name, with a cache mark: a block page, not a stored answer', () => {
    const page = observed(400, '<html><head><title>400 Bad Request</title></head><body><h1>Bad Request</h1></body></html>', {
      ...HTML_TYPE,
      age: '30',
    });
    expect(only({ valid: page })).toMatchObject({ id: 'front-blocked', confidence: 'medium' });
  });

  test('a status refused with 403, like a status that does not exist: the token is refused there, the status is not said to be missing', () => {
    const forbidden = fromApache(403, '{"status":"error","message":"Forbidden.","data":[]}');
    const observations = {
      valid: atPath(forbidden, '/api/ticket/status/7'),
      selfservice: listing,
      unknownStatus: atPath(forbidden, '/api/ticket/status/2147483646'),
    };
    expect(ids(diagnoseStack(observations, { statusId: 7 }))).not.toContain('status-not-found');
  });

  test('without a status id, no status is said to be missing', () => {
    const observations = {
      valid: routeNotFound,
      selfservice: listing,
      unknownStatus: atPath(routeNotFound, '/api/ticket/status/2147483646'),
    };
    expect(ids(diagnoseStack(observations))).not.toContain('status-not-found');
    expect(ids(diagnoseStack(observations, { statusId: 1 }))).toEqual(['status-not-found']);
  });
});

describe("a run's answers, read together", () => {
  const ROUTE_NOT_FOUND = { status: 404, body: '{"status":"error","message":"Route not found.","data":[]}' };
  const LISTING_BODY = { status: 200, body: '{"status":"success","message":null,"data":[{"id":1,"name":"Question"}]}' };
  const UNKNOWN = '/api/ticket/status/2147483646';
  const statusPath = (id: number): string => `/api/ticket/status/${id}`;

  test('another status of --status-id that does not exist leaves the run unjudged, and is named', () => {
    const exchanges = healthy(
      exchange('valid', LISTING, LISTING_BODY),
      exchange('valid', UNKNOWN, ROUTE_NOT_FOUND),
      exchange('valid', statusPath(7), ROUTE_NOT_FOUND),
      exchange('valid', statusPath(8), { status: 200, body: STATUS_BODY.replace('"id":1', '"id":8') }),
    );
    const diagnoses = diagnose([ACCEPTED], exchanges, { statusId: 1, otherStatusIds: [7, 8, 9] });
    expect(diagnoses).toEqual([
      {
        id: 'status-not-found',
        cites: ['valid /api/ticket/status/7?'],
        party: 'environment',
        inconclusive: true,
        confidence: 'high',
        summary:
          'status 7 does not seem to exist: the token is accepted (the selfservice listing is served), but status 7 is answered like a status that does not exist',
        evidence:
          'GET /api/ticket/status/7 answered HTTP 404 (application/json) {"status":"error","message":"Route not found.","data":[]}, while GET /api/ticket/status/1 was served',
        advice: [
          'Leave 7 out of --status-id, or put the id of a status that exists in its place (the help desk lists them in its ticket status settings).',
        ],
      },
    ]);
    expect(diagnose([ACCEPTED], exchanges, { statusId: 1 })).toEqual([]);
  });

  test('the first status missing: the run is unjudged for it alone, and nothing else is read from the run', () => {
    const blockPage = {
      status: 403,
      body: '<html><title>Attention Required! | Cloudflare</title></html>',
      headers: { ...HTML_TYPE, server: 'cloudflare' },
    };
    const notJudged: JudgedRequirement = {
      id: 'AUTH-PASSWORD-IGNORED',
      verdict: 'error',
      checks: [
        {
          requirement: 'AUTH-PASSWORD-IGNORED',
          scenario: 's',
          verdict: 'error',
          description: 'd',
          exchange: 'password-long /api/ticket/status/7?',
          error: { code: 'HARNESS_NOT_THE_API', message: 'not judged', hint: 'see the diagnosis', party: 'environment' },
        },
      ],
    };
    const exchanges = Object.assign(
      exchange('valid', statusPath(7), ROUTE_NOT_FOUND),
      exchange('valid', LISTING, LISTING_BODY),
      exchange('valid', UNKNOWN, ROUTE_NOT_FOUND),
      exchange('valid', statusPath(8), ROUTE_NOT_FOUND),
      exchange('password-long', statusPath(7), blockPage),
    );
    expect(diagnose([notJudged], exchanges, { statusId: 7, otherStatusIds: [8] })).toEqual([
      expect.objectContaining({ id: 'status-not-found', summary: expect.stringMatching(/^status 7 does not seem to exist/) }),
    ]);
  });
});

describe("a run's credentials, read from its own requests", () => {
  const refusal = { status: 401, body: REFUSAL };
  const PASSWORD_KEY = 'password-letter /api/ticket/status/1?';
  const refusedLikeNoHeader = exchange('password-letter', STATUS, refusal);

  test('the token refused as the user name and served in every other form: all three forms are named', () => {
    const exchanges = Object.assign(
      exchange('valid', STATUS, refusal),
      exchange('no-header', STATUS, refusal),
      exchange('token-as-password', STATUS, { status: 200, body: STATUS_BODY }),
      exchange('bearer-scheme', STATUS, { status: 200, body: STATUS_BODY }),
      exchange('no-colon', STATUS, { status: 200, body: STATUS_BODY }),
    );
    const [diagnosis, ...others] = diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges);
    expect(others).toEqual([]);
    expect(diagnosis?.id).toBe('token-read-from-wrong-place');
    for (const form of ['token-as-password', 'bearer-scheme', 'no-colon'] as const) {
      expect(diagnosis?.evidence).toContain(`with ${variantLabel(form)}: HTTP 200`);
    }
  });

  test('the token refused like no header on the status but served on the listing: the header is lost on the status path only', () => {
    const exchanges = Object.assign(
      exchange('valid', STATUS, refusal),
      exchange('no-header', STATUS, refusal),
      exchange('valid', LISTING, { status: 200, body: '{"status":"success","message":null,"data":[]}' }),
      exchange('no-header', LISTING, refusal),
    );
    const [diagnosis] = diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges);
    expect(diagnosis?.summary).toMatch(/the Authorization header is most likely stripped on the way to \/api\/ticket\/status\/1 only$/);
  });

  test('a malformed Authorization header answered otherwise than none: the header arrives, and the token is refused', () => {
    const exchanges = Object.assign(
      exchange('valid', STATUS, refusal),
      exchange('no-header', STATUS, refusal),
      exchange('wrong-token', STATUS, refusal),
      exchange('bad-base64', STATUS, { status: 400, body: '{"status":"error","message":"Malformed Authorization header.","data":[]}' }),
    );
    expect(ids(diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges))).toEqual(['token-refused']);
  });

  test("the run's own check found the token served: that stands when the answer kept without its classification cannot be read", () => {
    const cut: Record<string, JudgedExchange> = exchange('valid', STATUS, { status: 200, body: STATUS_BODY.slice(0, 60) });
    delete cut['valid /api/ticket/status/1?']?.classification;
    const exchanges = classifiedExchanges(Object.assign(cut, exchange('no-header', STATUS, { status: 200, body: STATUS_BODY })));
    const results = [judged('AUTH-MISSING-HEADER-REFUSED', ['no-header /api/ticket/status/1?']), ACCEPTED];
    expect(ids(diagnose(results, exchanges))).toEqual(['authentication-not-enforced']);
    expect(ids(diagnose(results.slice(0, 1), exchanges))).not.toContain('authentication-not-enforced');
  });

  test('requests with the token refused like no header: read from a SHOULD as from a MUST, not from a CLIENT note', () => {
    const exchanges = healthy(refusedLikeNoHeader);
    const asShould: JudgedRequirement = { ...judged('AUTH-PASSWORD-IGNORED', [PASSWORD_KEY]), verdict: 'warn' };
    expect(ids(diagnose([ACCEPTED, asShould], exchanges))).toEqual(['authorization-header-stripped']);
    const asNote: JudgedRequirement = { ...judged('AUTH-PASSWORD-IGNORED', [PASSWORD_KEY]), verdict: 'info' };
    expect(diagnose([ACCEPTED, asNote], exchanges)).toEqual([]);
  });

  test('the valid request served, whatever the checks say: requests with the token refused like no header name the lost header', () => {
    expect(ids(diagnose([judged('AUTH-PASSWORD-IGNORED', [PASSWORD_KEY])], healthy(refusedLikeNoHeader)))).toEqual([
      'authorization-header-stripped',
    ]);
  });

  test('the valid request not served: requests refused like no header say nothing of a lost header', () => {
    const exchanges = Object.assign(
      exchange('valid', STATUS, { status: 404, body: '{"status":"error","message":"Route not found.","data":[]}' }),
      exchange('no-header', STATUS, refusal),
      refusedLikeNoHeader,
    );
    expect(diagnose([judged('AUTH-PASSWORD-IGNORED', [PASSWORD_KEY])], exchanges)).toEqual([]);
  });

  test('another cause already named: requests refused like no header add nothing to it', () => {
    const warning = '<br />\n<b>Warning</b>:  Undefined variable $locale in <b>/var/www/app/api/status.php</b> on line <b>42</b><br />\n';
    const exchanges = healthy(
      exchange('valid', STATUS, { status: 200, body: `${warning}${STATUS_BODY}`, headers: HTML_TYPE }),
      refusedLikeNoHeader,
    );
    const results = [ACCEPTED, judged('ENV-JSON', ['valid /api/ticket/status/1?']), judged('AUTH-PASSWORD-IGNORED', [PASSWORD_KEY])];
    expect(ids(diagnose(results, exchanges))).toEqual(['php-display-errors']);
  });
});

describe('answers as the evidence shows them and the rules compare them', () => {
  const gatewayRefusal = (body: string): ObservedAnswer => observed(403, body, { ...JSON_TYPE, 'x-amzn-errortype': 'ForbiddenException' });

  test('a body is shown with its runs of white space as one space, up to 160 characters', () => {
    expect(only({ valid: gatewayRefusal('{\n  "message":   "Forbidden"\n}') }).evidence).toBe(
      'GET /api/ticket/status/1 answered HTTP 403 (application/json) { "message": "Forbidden" }',
    );
    const exact = `{"message":"${'x'.repeat(146)}"}`;
    expect(exact).toHaveLength(160);
    expect(only({ valid: gatewayRefusal(exact) }).evidence).toBe(`GET /api/ticket/status/1 answered HTTP 403 (application/json) ${exact}`);
  });

  test('a page is shown by its title, without the white space around it', () => {
    const page = observed(403, '<html><head><title>\n  Access denied\n</title></head></html>', { ...HTML_TYPE, server: 'cloudflare' });
    expect(only({ valid: page }).evidence).toBe(
      'GET /api/ticket/status/1 answered HTTP 403 (text/html; charset=UTF-8) page "Access denied"',
    );
  });

  test('the token refused with another code than no header, in the same words: the header arrives', () => {
    const diagnosis = only({ valid: observed(403, REFUSAL), noHeader: observed(401, REFUSAL) });
    expect(diagnosis.id).toBe('token-refused');
    expect(diagnosis.evidence).toContain('(HTTP 403 against HTTP 401)');
  });

  test('the token refused with the same code as no header but another Content-Type: both are named', () => {
    const diagnosis = only({ valid: observed(401, REFUSAL), noHeader: observed(401, 'Unauthorized', {}) });
    expect(diagnosis.evidence).toContain('(both HTTP 401, with Content-Type application/json against no Content-Type)');
  });

  test('a success envelope without the status, to the token and to no header alike: authentication is not enforced', () => {
    const empty = observed(200, '{"status":"success","message":null,"data":{}}');
    expect(only({ valid: empty, noHeader: empty }).id).toBe('authentication-not-enforced');
  });

  test('a 403 with nothing but white space under an HTML label is no block page', () => {
    expect(diagnoseStack({ valid: observed(403, '\n', HTML_TYPE) })).toEqual([]);
  });

  test.each([404, 300])(
    'the status handed out under HTTP %i was not served: requests refused like no header say nothing of a lost header',
    (status) => {
      const exchanges = Object.assign(
        exchange('valid', STATUS, { status, body: STATUS_BODY }),
        exchange('no-header', STATUS, { status: 401, body: REFUSAL }),
        exchange('password-letter', STATUS, { status: 401, body: REFUSAL }),
      );
      expect(ids(diagnose([judged('AUTH-PASSWORD-IGNORED', ['password-letter /api/ticket/status/1?'])], exchanges))).not.toContain(
        'authorization-header-stripped',
      );
    },
  );

  test('three requests refused like no header are all shown, with none left to count', () => {
    const keys = ['password-letter', 'password-empty', 'password-long'] as const;
    const exchanges = healthy(...keys.map((credentials) => exchange(credentials, STATUS, { status: 401, body: REFUSAL })));
    const [diagnosis] = diagnose(
      [
        ACCEPTED,
        judged(
          'AUTH-PASSWORD-IGNORED',
          keys.map((key) => `${key} /api/ticket/status/1?`),
        ),
      ],
      exchanges,
    );
    expect(diagnosis?.evidence).toBe(
      `GET /api/ticket/status/1 (valid token, password "z"); GET /api/ticket/status/1 (valid token, empty password); GET /api/ticket/status/1 (valid token, 256-character password): answered HTTP 401 (application/json) ${REFUSAL}, like no Authorization header`,
    );
  });

  test('served without a token: read from the answer as received, though the report keeps it cut short', () => {
    const cut = exchange('valid', STATUS, { status: 200, body: STATUS_BODY.slice(0, 60) });
    const kept = cut['valid /api/ticket/status/1?'];
    if (kept) kept.classification = classifyAnswer({ apiPath: STATUS, status: 200, headers: JSON_TYPE, bodyText: STATUS_BODY });
    const exchanges = Object.assign(cut, exchange('no-header', STATUS, { status: 200, body: STATUS_BODY }));
    expect(ids(diagnose([], exchanges))).toEqual(['authentication-not-enforced']);
  });
});

describe('maintenance, and a Retry-After that is not what it seems', () => {
  const NOW = new Date('2025-03-01T12:00:00.000Z');
  const down = (retryAfter: string): string[] | undefined =>
    frontAnswered({ valid: observed(503, '{"message":"Service Unavailable"}', { ...JSON_TYPE, 'retry-after': retryAfter }) }, {}, NOW)
      ?.advice;

  test('seconds with a unit, or a date with a numeric zone, are not taken for a number of seconds', () => {
    expect(down('120s')).toEqual(['Run the suite again once the maintenance is over.']);
    expect(down('Sat, 01 Mar 2025 14:30:00 +0000')).toEqual(['Run the suite again at 2025-03-01T14:30:00Z or later, as Retry-After asks.']);
  });

  test('a fraction of seconds, a negative number or a date with words before it names no time to come back; the obsolete date form still does', () => {
    for (const value of ['120.5', '-1', '1e3', 'Sunday, whenever', 'x Mon, 01 Mar 2025 14:30:00 GMT', 'xMon, 01 Mar 2025 14:30:00 GMT'])
      expect(down(value)).toEqual(['Run the suite again once the maintenance is over.']);
    expect(down('Sunday, 02-Mar-25 08:00:00 GMT')).toEqual(['Run the suite again at 2025-03-02T08:00:00Z or later, as Retry-After asks.']);
  });
});

describe('what each set-up rule reads, and what it leaves to the others', () => {
  const refused = fromApache(401, REFUSAL);
  const listingNotFound = fromApache(404, '{"status":"error","message":"Route not found.","data":[]}', undefined, LISTING);

  test('a base URL ending in /api, with the token refused by the application: no doubled /api is named without a 404', () => {
    expect(ids(diagnoseStack({ valid: refused, noHeader: refused }, { baseUrl: 'https://help.example.com/api' }))).not.toContain(
      'base-url-ends-in-api',
    );
  });

  test('the listing not found while the status is refused: not every API path answers 404', () => {
    expect(ids(diagnoseStack({ valid: refused, noHeader: refused, selfservice: listingNotFound }))).not.toContain('api-paths-not-found');
  });

  test("Apache's own 403 page, a Require rule of the web server, is no firewall's block page", () => {
    const page = fromApache(
      403,
      "<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1><p>You don't have permission to access this resource.</p><hr><address>Apache/2.4.62 (Debian) Server at help.example.com Port 443</address></body></html>",
      'text/html; charset=iso-8859-1',
    );
    expect(ids(diagnoseStack({ valid: page, noHeader: page }))).not.toContain('front-blocked');
  });

  test('a listing answered HTTP 300 was not served: a status answered like one that does not exist is not said to be missing', () => {
    const notFound = {
      ...fromApache(404, '{"status":"error","message":"Route not found.","data":[]}'),
      url: `${BASE}/api/ticket/status/7`,
    };
    const listing = fromApache(300, '{"status":"success","message":null,"data":[{"id":1,"name":"Question"}]}', undefined, LISTING);
    const unknownStatus = { ...notFound, url: `${BASE}/api/ticket/status/2147483646` };
    expect(ids(diagnoseStack({ valid: notFound, selfservice: listing, unknownStatus }, { statusId: 7 }))).not.toContain('status-not-found');
  });
});

describe('a diagnosis follows the classification of the answers it is drawn from', () => {
  const NO_INPUT_FILE = { status: 404, body: 'No input file specified.\n', headers: { ...HTML_TYPE, server: 'Apache/2.4.62 (Debian)' } };

  test('php-cgi\'s "No input file specified." is php-cgi\'s: the CGI handler is to be replaced by SuPHP or FPM, not mod_rewrite enabled', () => {
    const exchanges = Object.assign(
      exchange('valid', STATUS, NO_INPUT_FILE),
      exchange('no-header', STATUS, NO_INPUT_FILE),
      exchange('wrong-token', STATUS, NO_INPUT_FILE),
      exchange('valid', LISTING, NO_INPUT_FILE),
    );
    const [diagnosis, ...others] = diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges);
    expect(others).toEqual([]);
    expect(diagnosis).toMatchObject({ id: 'php-cgi-no-input-file', inconclusive: true, confidence: 'high' });
    expect(diagnosis?.summary).toContain('"the cgi handler must be replaced by SuPHP or FPM"');
    expect(diagnosis?.advice.join(' ')).not.toMatch(/mod_rewrite|AllowOverride/);
    expect(diagnosis?.snippets?.map((snippet) => snippet.lines.join('\n')).join('\n')).toMatch(/SetHandler "proxy:unix:/);
  });

  test('the API\'s own 500 envelope on one status of --status-id is its failure, never "a status that does not exist"', () => {
    const failing = { status: 500, body: '{"status":"error","message":"Server Error","data":[]}' };
    const exchanges = healthy(
      exchange('valid', LISTING, { status: 200, body: '{"status":"success","message":null,"data":[{"id":1,"name":"Question"}]}' }),
      exchange('valid', '/api/ticket/status/2147483646', { status: 404, body: '{"status":"error","message":"Not found.","data":[]}' }),
      exchange('valid', '/api/ticket/status/5', failing),
    );
    const diagnoses = diagnose([ACCEPTED], exchanges, { statusId: 1, otherStatusIds: [5] });
    expect(ids(diagnoses)).not.toContain('status-not-found');
    expect(diagnoses.map((diagnosis) => diagnosis.summary).join(' ')).not.toMatch(/does not (seem to )?exist/);
  });

  test('a 405 "method not supported" on every probe is a method refused, never a stripped Authorization header', () => {
    const notAllowed = { status: 405, body: '{"status":"error","message":"The GET method is not supported for this route.","data":[]}' };
    const exchanges = Object.assign(
      exchange('valid', STATUS, { ...notAllowed, headers: { ...JSON_TYPE, allow: 'POST' } }),
      exchange('no-header', STATUS, { ...notAllowed, headers: { ...JSON_TYPE, allow: 'POST' } }),
      exchange('wrong-token', STATUS, { ...notAllowed, headers: { ...JSON_TYPE, allow: 'POST' } }),
    );
    const diagnoses = diagnose([judged('AUTH-TOKEN-ACCEPTED', ['valid /api/ticket/status/1?'])], exchanges);
    expect(ids(diagnoses)).toEqual(['method-not-allowed']);
    expect(diagnoses[0]?.evidence).toContain('Allow: POST');
    expect(diagnoses.map((diagnosis) => diagnosis.summary).join(' ')).not.toMatch(/strip/);
  });
});
