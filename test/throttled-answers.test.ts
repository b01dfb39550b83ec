import { describe, expect, test } from 'vitest';
import { classifyAnswer } from '../src/classify/classify.js';
import { diagnose } from '../src/diagnosis/diagnose.js';
import { frontAnsweredSome } from '../src/diagnosis/fronts.js';
import { diagnoseStack } from '../src/diagnosis/rules.js';
import type { ClassifiedExchanges, JudgedRequirement } from '../src/diagnosis/types.js';
import { STATUS_PATH } from '../src/exchange/exchange.js';
import { answer, APACHE_503_PAGE, classifiedAlone, served } from './doctor/recorded.js';
import { REFUSALS, type RefusalName } from './helpers/throttling-targets.js';

/**
 * How each rate limit's answer is read, in-process: who throttled, and the diagnosis a user sees. The runs against a
 * throttled reference server are in rate-limits.test.ts.
 */

/** Who each shape of refusal is named after, when its answer tells. */
const THROTTLERS: Record<RefusalName, string | undefined> = {
  'nginx limit_req (503 page)': 'nginx (limit_req)',
  'an application throttle (429, Retry-After in seconds)': undefined,
  'HAProxy (429, Retry-After as an HTTP date)': undefined,
  'Kong (429 JSON, no Retry-After)': 'Kong',
  'AWS API Gateway (429 JSON, no Retry-After)': 'AWS API Gateway',
  'Cloudflare (429, error 1015)': 'Cloudflare',
  'a throttle asking for an hour (429, Retry-After: 3600)': undefined,
};

const throttled = (name: RefusalName) => {
  const { status, body, headers } = REFUSALS[name];
  return answer(status, body, headers());
};

describe('how a throttled answer is read', () => {
  test.each(Object.keys(REFUSALS) as RefusalName[])('%s: a rate limit, its vendor named when it shows', (name) => {
    const { status, body, headers } = throttled(name);
    const { origin, meaning } = classifyAnswer({ apiPath: STATUS_PATH(1), status, headers, bodyText: body });
    expect(origin).toMatchObject({ kind: 'front', front: 'rate-limiter' });
    expect(origin.kind === 'front' ? origin.vendor : 'not a front').toBe(THROTTLERS[name]);
    expect(meaning.kind).toBe('error-page');
  });

  test.each(Object.keys(REFUSALS) as RefusalName[])(
    '%s on every request: no verdict, and the fix is a slower suite or an allowance',
    (name) => {
      const seen = throttled(name);
      const [diagnosis, ...others] = diagnoseStack({ valid: seen, noHeader: seen, wrongToken: seen });
      expect(others).toEqual([]);
      expect(diagnosis).toMatchObject({ id: 'rate-limited', party: 'environment', inconclusive: true });
      expect(diagnosis?.summary).toMatch(
        new RegExp(
          `^${THROTTLERS[name] ?? 'a rate limit of the deployment'} refused the suite's requests for asking too fast`.replace(
            /[()]/g,
            '\\$&',
          ),
        ),
      );
      expect(diagnosis?.advice[0]).toMatch(/^Slow the suite down below the limit: --rate-limit \d+\/s \(CONFORMANCE_RATE_LIMIT=/);
      expect(JSON.stringify(diagnosis)).not.toMatch(/pm\.max_children|--concurrency|PHP-FPM/);
    },
  );

  test("Kong's own headers give the rate to keep to; nginx's fix carries the lines of an exemption", () => {
    const kong = throttled('Kong (429 JSON, no Retry-After)');
    expect(diagnoseStack({ valid: kong })[0]?.advice[0]).toMatch(/--rate-limit 3\/s/);
    const [nginx] = diagnoseStack({ valid: throttled('nginx limit_req (503 page)') });
    expect(nginx?.advice[1]).toMatch(/limit_req does not count.*burst= and nodelay.*ngx_http_limit_req_module/);
    expect(nginx?.advice[1]).toMatch(
      /ngx_http_geo_module\.html#geo, https:\/\/nginx\.org\/en\/docs\/http\/ngx_http_map_module\.html#map\)\.$/,
    );
    expect(nginx?.snippets?.[0]?.lines.join('\n')).toMatch(/geo \$limited[\s\S]*limit_req_zone \$limit_key/);
    const [aws] = diagnoseStack({ valid: throttled('AWS API Gateway (429 JSON, no Retry-After)') });
    expect(aws?.advice[1]).toMatch(/usage plan/);
  });

  test('some requests throttled while the others were served: named as rate limiting, not as a pool too small', () => {
    const blocked = [
      {
        requirement: 'AUTH-PASSWORD-IGNORED',
        credentials: 'valid token, 256-character password',
        withToken: true,
        answer: throttled('nginx limit_req (503 page)'),
      },
    ];
    const diagnosis = frontAnsweredSome(blocked, false);
    expect(diagnosis).toMatchObject({ id: 'rate-limited', party: 'environment', confidence: 'high' });
    expect(diagnosis?.summary).toMatch(
      /^nginx \(limit_req\) refused some of the suite's requests for asking too fast .* while it served the others: AUTH-PASSWORD-IGNORED could not be judged/,
    );
    expect(diagnosis?.summary).toMatch(/could not be judged on its answers$/);
    expect(diagnosis?.snippets?.[0]?.lines.join('\n')).toMatch(/limit_req_zone \$limit_key/);
    expect(JSON.stringify(diagnosis)).not.toMatch(/pm\.max_children|--concurrency/);
  });

  test.each([
    ["Apache's own 503 page: PHP-FPM unreachable", answer(503, APACHE_503_PAGE, { 'content-type': 'text/html' }), 'web-server'],
    ['an empty 503', answer(503, '', {}), 'web-server'],
    [
      "nginx's 502 page: PHP behind it failed",
      answer(
        502,
        '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
        { 'content-type': 'text/html' },
      ),
      'web-server',
    ],
    [
      "nginx's 503 page with Retry-After: a maintenance window",
      answer(503, '<hr><center>nginx</center>', { 'retry-after': '120' }),
      'maintenance',
    ],
  ])('%s is no rate limit', (_name, seen, front) => {
    expect(
      classifyAnswer({ apiPath: STATUS_PATH(1), status: seen.status, headers: seen.headers, bodyText: seen.body }).origin,
    ).toMatchObject({ front });
    expect(diagnoseStack({ valid: served, noHeader: seen }).map((diagnosis) => diagnosis.id)).not.toContain('rate-limited');
  });
});

describe('who throttled: named from its own answer only, never from headers it adds to what it passes on', () => {
  const CLOUDFLARE = { server: 'cloudflare', 'cf-ray': '8f1c2a3b4d5e6f70-FRA' };
  const AWS_IDS = { 'x-amzn-requestid': '5f1a6b7c-0d2e-4f3a-9b8c-7d6e5f4a3b2c', 'x-amz-apigw-id': 'Ab1CdEfGhIjKlM=' };
  const LARAVEL_429 = JSON.stringify({ message: 'Too Many Attempts.' });
  const JSON_TYPE = { 'content-type': 'application/json' };
  const throttlerOf = (seen: ReturnType<typeof answer>) => {
    // Classified again inside the test, where the mutation run sees what code the test reaches.
    const { origin } = classifiedAlone(seen).classified;
    expect(origin).toMatchObject({ kind: 'front', front: 'rate-limiter' });
    return origin.kind === 'front' ? origin.vendor : 'not a front';
  };

  test.each([
    ['behind Cloudflare', CLOUDFLARE],
    ["behind AWS API Gateway's proxy integration", AWS_IDS],
    ['behind Kong, its upstream latency on the answer', { via: 'kong/3.4.2', 'x-kong-upstream-latency': '7', 'x-kong-proxy-latency': '1' }],
    ['behind Varnish', { 'x-varnish': '32770', via: '1.1 varnish (Varnish/7.1)' }],
  ])("the application's own 429 passed through, %s: the rate limit of the deployment, no vendor", (_where, headers) => {
    const seen = answer(429, LARAVEL_429, { ...JSON_TYPE, 'retry-after': '30', ...headers });
    expect(throttlerOf(seen)).toBeUndefined();
    const [diagnosis] = diagnoseStack({ valid: seen, noHeader: seen, wrongToken: seen });
    expect(diagnosis?.summary).toMatch(/^a rate limit of the deployment refused the suite's requests for asking too fast/);
    expect(diagnosis?.advice[1]).toMatch(/^Or let the tester through the rate limit: an exception to the rule for the address/);
  });

  test.each([
    [
      "Kong's message, re-indented, without any header of Kong's",
      answer(429, '{ "message" : "API rate limit exceeded" }', JSON_TYPE),
      'Kong',
    ],
    [
      "Kong's message as Kong sends it, without any header of Kong's",
      answer(429, '{"message":"API rate limit exceeded"}', JSON_TYPE),
      'Kong',
    ],
    [
      "Kong's own 429 in other words, known by its latency header without the upstream's",
      answer(429, JSON.stringify({ message: 'Too many requests' }), { ...JSON_TYPE, 'x-kong-response-latency': '1' }),
      'Kong',
    ],
    [
      "AWS API Gateway's error type alone",
      answer(429, JSON.stringify({ message: 'Too Many Requests' }), { ...JSON_TYPE, 'x-amzn-errortype': 'TooManyRequestsException' }),
      'AWS API Gateway',
    ],
    [
      "AWS API Gateway's usage plan quota, in its own words beside its request ids",
      answer(429, JSON.stringify({ message: 'Limit Exceeded' }), { ...JSON_TYPE, ...AWS_IDS }),
      'AWS API Gateway',
    ],
    [
      "Traefik's RateLimit middleware: Go's plain text, marked nosniff",
      answer(429, 'Too Many Requests\n', { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }),
      'Traefik',
    ],
    [
      "nginx's limit_req with limit_req_status 429: its own page",
      answer(
        429,
        '<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        { 'content-type': 'text/html' },
      ),
      'nginx (limit_req)',
    ],
  ])('%s', (_name, seen, vendor) => {
    expect(throttlerOf(seen)).toBe(vendor);
  });

  test("nginx's own 503 page is its limit_req; evidence says so", () => {
    const seen = throttled('nginx limit_req (503 page)');
    expect(seen.classified.origin).toEqual({
      kind: 'front',
      front: 'rate-limiter',
      vendor: 'nginx (limit_req)',
      evidence: "HTTP 503: nginx's own page, which its limit_req and limit_conn answer with",
    });
    const kong = throttled('Kong (429 JSON, no Retry-After)');
    expect(kong.classified.origin).toMatchObject({ evidence: 'HTTP 429 (Too Many Requests): a rate limit refused the request' });
  });
});

describe('what a throttled run tells the user', () => {
  const JSON_TYPE = { 'content-type': 'application/json' };
  const at429 = (headers: Record<string, string>, body = JSON.stringify({ message: 'Too Many Requests' })) =>
    answer(429, body, { ...JSON_TYPE, ...headers });
  const onEveryRequest = (seen: ReturnType<typeof answer>) => {
    const [diagnosis, ...others] = diagnoseStack({ valid: seen, noHeader: seen, wrongToken: seen });
    expect(others).toEqual([]);
    return diagnosis;
  };

  test.each([
    ['a limit per minute', { 'x-ratelimit-limit-minute': '60' }, '60/m'],
    ['a limit per second before one per minute', { 'x-ratelimit-limit-minute': '60', 'x-ratelimit-limit-second': '5' }, '5/s'],
    ['a limit that is no whole number', { 'x-ratelimit-limit-second': '2.5' }, '2/s'],
    ['a limit of 0', { 'x-ratelimit-limit-second': '0', 'x-ratelimit-limit-minute': '0' }, '2/s'],
    ['no limit stated', {}, '2/s'],
  ])('the rate suggested from %s: %s', (_name, headers, rate) => {
    const diagnosis = onEveryRequest(at429(headers));
    expect(diagnosis?.advice[0]).toBe(
      `Slow the suite down below the limit: --rate-limit ${rate} (CONFORMANCE_RATE_LIMIT=${rate}, or rateLimit: ${rate} for this target in a targets file) sends its requests one at a time, spaced evenly.`,
    );
  });

  test('every request throttled: a 429 is told with high confidence and its Retry-After; the 503 page of nginx with medium', () => {
    expect(onEveryRequest(at429({ 'retry-after': '30' }))).toEqual({
      id: 'rate-limited',
      party: 'environment',
      inconclusive: true,
      confidence: 'high',
      summary:
        "a rate limit of the deployment refused the suite's requests for asking too fast (HTTP 429 (Too Many Requests): a rate limit refused the request): the deployment limits how fast a client may ask, so the API cannot be judged until the suite keeps to that limit",
      evidence: 'GET /api/ticket/status/1 answered HTTP 429 (application/json) {"message":"Too Many Requests"} with Retry-After: 30',
      advice: [
        'Slow the suite down below the limit: --rate-limit 2/s (CONFORMANCE_RATE_LIMIT=2/s, or rateLimit: 2/s for this target in a targets file) sends its requests one at a time, spaced evenly.',
        'Or let the tester through the rate limit: an exception to the rule for the address the suite runs from, or for its User-Agent "ticketing-conformance", on the API paths (/api/...).',
      ],
    });
    const nginx = onEveryRequest(throttled('nginx limit_req (503 page)'));
    expect(nginx).toMatchObject({
      confidence: 'medium',
      evidence: 'GET /api/ticket/status/1 answered HTTP 503 (text/html) page "503 Service Temporarily Unavailable"',
    });
  });

  test("Cloudflare's own rate limiting: the exception is asked of Cloudflare; Kong's of Kong's consumer", () => {
    const cloudflare = onEveryRequest(throttled('Cloudflare (429, error 1015)'));
    expect(cloudflare?.advice[1]).toMatch(/^Or let the tester through the rate limit of Cloudflare: an exception/);
    expect(cloudflare).not.toHaveProperty('snippets');
    const kong = onEveryRequest(throttled('Kong (429 JSON, no Retry-After)'));
    expect(kong?.advice[1]).toBe(
      "Or raise the limit for the tester in Kong: a rate-limiting plugin of its own on the tester's consumer, with a higher limit.",
    );
  });

  test('some requests throttled beside failures of the API: both said, every throttled request listed, the rate from any of them', () => {
    const blocked = [
      { requirement: 'LANG-FR', credentials: 'valid token', withToken: true, answer: at429({}) },
      {
        requirement: 'AUTH-PASSWORD-IGNORED',
        credentials: 'valid token, 256-character password',
        withToken: true,
        answer: at429({ 'x-ratelimit-limit-second': '4' }),
      },
    ];
    const diagnosis = frontAnsweredSome(blocked, true);
    expect(diagnosis?.summary).toBe(
      "a rate limit of the deployment refused some of the suite's requests for asking too fast (HTTP 429 (Too Many Requests): a rate limit refused the request) while it served the others: LANG-FR, AUTH-PASSWORD-IGNORED could not be judged on its answers; the API failed other requirements on its own answers",
    );
    expect(diagnosis?.evidence).toMatch(
      /GET \/api\/ticket\/status\/1 \(valid token\) answered HTTP 429.*GET \/api\/ticket\/status\/1 \(valid token, 256-character password\) answered HTTP 429/s,
    );
    expect(diagnosis?.advice[0]).toMatch(/--rate-limit 4\/s/);
    expect(diagnosis).not.toHaveProperty('snippets');
  });
});

describe('a target that asked the suite to wait until a cap of its own stopped it', () => {
  type CapCode = 'HARNESS_RATE_LIMITED' | 'HARNESS_REQUEST_BUDGET' | 'HARNESS_DEADLINE';
  const stoppedBy = (id: string, code: CapCode, message: string): JudgedRequirement => ({
    id,
    verdict: 'error',
    checks: [
      { requirement: id, scenario: 's', verdict: 'pass', description: 'judged before the cap' },
      {
        requirement: id,
        scenario: 's',
        verdict: 'error',
        description: 'd',
        error: { code, message, hint: 'h', party: code === 'HARNESS_RATE_LIMITED' ? 'environment' : 'suite' },
      },
    ],
  });
  const RESULTS = [
    stoppedBy('AUTH-TOKEN-ACCEPTED', 'HARNESS_DEADLINE', 'the run reached its deadline'),
    stoppedBy('LANG-FR', 'HARNESS_REQUEST_BUDGET', 'the run used all of its 40 requests'),
    stoppedBy('STATUS-COLOUR', 'HARNESS_RATE_LIMITED', 'answered HTTP 429 with Retry-After: 3600'),
  ];

  test('both are named: the rate limit as the cause, the cap as what stopped the run, with the requirements it left', () => {
    expect(diagnose(RESULTS, {}, { askedToWait: 3 })).toEqual([
      {
        id: 'rate-limited',
        party: 'environment',
        confidence: 'high',
        summary:
          'the target asked the suite to wait 3 time(s) for asking too fast (HTTP 429, or 503 with Retry-After), and the suite stopped on a cap of its own, its request budget (--max-requests), before LANG-FR, STATUS-COLOUR could be judged: the deployment limits how fast a client may ask',
        evidence: 'the run used all of its 40 requests',
        advice: [
          'Slow the suite down below the limit: --rate-limit 2/s (CONFORMANCE_RATE_LIMIT=2/s, or rateLimit: 2/s for this target in a targets file) sends its requests one at a time, spaced evenly.',
          'Or raise the request budget, --max-requests (CONFORMANCE_MAX_REQUESTS): each wait the target asks for costs the suite one request more.',
          'Or let the tester through the rate limit: an exception to the rule for the address the suite runs from, or for its User-Agent "ticketing-conformance", on the API paths (/api/...).',
        ],
      },
    ]);
  });

  test('a wait past the deadline is named by its own error, and raising the request budget is not offered for it', () => {
    const [diagnosis] = diagnose([RESULTS[2] as JudgedRequirement], {}, { askedToWait: 1 });
    expect(diagnosis?.summary).toMatch(/stopped on a cap of its own before STATUS-COLOUR could be judged/);
    expect(diagnosis?.evidence).toBe('answered HTTP 429 with Retry-After: 3600');
    expect(diagnosis?.advice.join(' ')).not.toMatch(/max-requests/);
  });

  test('a cap reached without the target asking to wait is the cap alone; a run already named as throttled is not named twice', () => {
    expect(diagnose(RESULTS, {}, {})).toEqual([]);
    expect(diagnose(RESULTS, {}, { askedToWait: 0 })).toEqual([]);
    expect(diagnose([RESULTS[0] as JudgedRequirement], {}, { askedToWait: 2 })).toEqual([]);
    const seen = throttled('Kong (429 JSON, no Retry-After)');
    const key = 'valid /api/ticket/status/1?';
    const exchanges: ClassifiedExchanges = {
      [key]: {
        request: { method: 'GET', url: seen.url, credentials: 'valid token', headers: {} },
        response: { status: seen.status, headers: seen.headers, body: seen.body, bodyTruncated: false },
        repro: '',
        classification: seen.classified,
      },
    };
    expect(
      diagnose(RESULTS, exchanges, { askedToWait: 3 }).map((diagnosis) => [diagnosis.id, diagnosis.summary.split(' for ')[0]]),
    ).toEqual([['rate-limited', "Kong refused the suite's requests"]]);
  });
});
