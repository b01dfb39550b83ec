import { describe, expect, test } from 'vitest';
import { apiPathOf, classifyAnswer, type ClassifiedInput } from '../src/classify/classify.js';
import { servedOnPath, tokenServedTo } from '../src/classify/reach.js';
import type { Reach } from '../src/classify/types.js';
import { classifyRecording } from '../src/classify/recording.js';
import type { Recording } from '../src/record/recording.js';
import { answeredWith, recordedAnswer } from './helpers/answers.js';
import { memberText } from '../src/classify/json-text.js';
import { parseJson, withoutPhpSource } from '../src/exchange/body-text.js';
import { cacheMark, isMaintenance, looksLikeHtml, vendorOf, vendorPage, type AnswerText } from '../src/classify/signatures.js';

const STATUS = '/api/ticket/status/1';
const LISTING = '/api/selfservice/type';
const ENVELOPE = JSON.stringify({
  status: 'success',
  message: null,
  data: { id: 1, name: 'Open', colour: '#35a600', auto_close: 0, order: 1, created_at: 1, updated_at: 1, translations: [] },
});
const JSON_TYPE = { 'content-type': 'application/json' };
const HTML_TYPE = { 'content-type': 'text/html; charset=UTF-8' };

const answer = (status: number, bodyText: string, headers: Record<string, string> = {}, apiPath = STATUS): ClassifiedInput => ({
  apiPath,
  status,
  headers,
  bodyText,
});

describe('who answered: a front known by its own signature, JSON or not', () => {
  test.each([
    [
      "Cloudflare's JSON error to a client asking for JSON",
      answer(403, '{"title":"Error 1020: Access denied","status":403,"error_code":1020,"cloudflare_error":true,"ray_id":"8a1b"}', {
        ...JSON_TYPE,
        'cf-ray': '8a1b-AMS',
      }),
      'cdn',
      'Cloudflare',
    ],
    ["a CDN's 522 in JSON", answer(522, '{"error":"origin timed out"}', JSON_TYPE), 'cdn', 'the CDN in front of the API'],
    [
      "Varnish's Guru Meditation",
      answer(503, '<html><h1>Error 503 Backend fetch failed</h1><p>Guru Meditation: XID: 1</p></html>', HTML_TYPE),
      'cache',
      'Varnish',
    ],
    [
      "Fastly's Guru Mediation, naming its cache node",
      answer(
        503,
        '<html><h1>Error 503 Backend is unhealthy</h1><h3>Guru Mediation:</h3><p>Details: cache-ams21080-AMS 1</p></html>',
        HTML_TYPE,
      ),
      'cdn',
      'Fastly',
    ],
    [
      "Azure Front Door's block page",
      answer(403, '<html><title>The request is blocked.</title></html>', { ...HTML_TYPE, 'x-azure-ref': '0abc' }),
      'cdn',
      'Azure Front Door',
    ],
    ['a proxy asking for its credentials', answer(407, '', {}), 'proxy', 'a proxy between this machine and the API'],
    [
      "an API gateway's refusal",
      answer(403, '{"message":"Forbidden"}', { ...JSON_TYPE, 'x-amzn-errortype': 'ForbiddenException' }),
      'gateway',
      'AWS API Gateway',
    ],
    [
      "Laravel's maintenance answer in JSON",
      answer(503, '{"message":"Service Unavailable"}', { ...JSON_TYPE, 'retry-after': '60' }),
      'maintenance',
      undefined,
    ],
    ["PHP-FPM's File not found.", answer(404, 'File not found.\n', HTML_TYPE), 'php-fpm', 'PHP-FPM'],
    ["php-cgi's No input file specified.", answer(404, 'No input file specified.\n', HTML_TYPE), 'php-runtime', 'php-cgi'],
    [
      "Apache's own 404 page",
      answer(404, '<html><body><p>The requested URL was not found on this server.</p><address>Apache</address></body></html>', HTML_TYPE),
      'web-server',
      'Apache',
    ],
    [
      "nginx's own 502 page",
      answer(502, '<html><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></html>', HTML_TYPE),
      'web-server',
      'nginx',
    ],
    ['a captive portal', answer(511, '<html>Sign in to the network</html>', HTML_TYPE), 'captive-portal', undefined],
    [
      'a redirect to a single sign-on host',
      answer(302, '', { location: 'https://login.microsoftonline.com/common/oauth2/authorize' }),
      'sso',
      undefined,
    ],
  ])('%s', (_name, input, front, vendor) => {
    const { origin } = classifyAnswer(input);
    expect(origin).toMatchObject({ kind: 'front', front });
    if (vendor) expect(origin).toMatchObject({ vendor });
  });

  test("the application's own redirect to its login page is nobody's front", () => {
    expect(classifyAnswer(answer(302, '', { location: '/login' }))).toEqual({
      origin: { kind: 'unknown', evidence: 'a redirect to /login' },
      meaning: { kind: 'redirect', to: '/login' },
    });
    expect(classifyAnswer(answer(302, '', { location: '' })).origin).toEqual({
      kind: 'unknown',
      evidence: 'a redirect with an empty Location header',
    });
  });

  test("a refusal in the API's words behind a CDN's headers is the API's", () => {
    const refused = answer(401, '{"status":"error","message":"Unauthenticated.","data":[]}', { ...JSON_TYPE, 'cf-ray': '8a1b-AMS' });
    expect(classifyAnswer(refused)).toEqual({ origin: { kind: 'api' }, meaning: { kind: 'refused' } });
  });
});

describe('what the API said', () => {
  test('the status inside PHP notices is handed out, and the notices are kept as noise', () => {
    const text = `<br />\n<b>Warning</b>:  Undefined variable $x in /var/www/a.php on line 3<br />\n${ENVELOPE}`;
    const classified = classifyAnswer({ ...answer(200, text, HTML_TYPE), json: parseJson({ text }) });
    expect(classified).toMatchObject({ origin: { kind: 'api' }, meaning: { kind: 'served-status', id: '1' } });
    expect(classified.noise).toMatch(/^<br \/> <b>Warning<\/b>: Undefined variable/);
  });

  test('a success envelope is never a refusal, whatever its data', () => {
    for (const data of [null, [], {}, 'Open']) {
      const body = JSON.stringify({ status: 'success', message: null, data });
      expect(classifyAnswer(answer(200, body, JSON_TYPE)).meaning.kind).toBe('served-without-resource');
      expect(classifyAnswer(answer(200, body, JSON_TYPE, LISTING)).meaning.kind).toBe('served-listing');
    }
  });

  test('the application failing in its own words', () => {
    expect(classifyAnswer(answer(500, '<b>Fatal error</b>: Uncaught Error: x in /a.php:3', HTML_TYPE)).meaning).toMatchObject({
      kind: 'application-error',
      what: 'fatal-error',
    });
    expect(
      classifyAnswer(answer(500, '{"status":"error","message":"SQLSTATE[HY000] [2002] Connection refused"}', JSON_TYPE)).meaning,
    ).toMatchObject({
      kind: 'application-error',
      what: 'database-down',
    });
  });

  test('bodies beyond a cap, not JSON, or empty', () => {
    const deep = `{"status":"success","data":${'['.repeat(600)}${']'.repeat(600)}}`;
    expect(classifyAnswer({ ...answer(200, deep, JSON_TYPE), json: parseJson({ text: deep }) }).meaning).toMatchObject({
      kind: 'undecodable',
      why: 'suite-limit',
    });
    expect(classifyAnswer(answer(200, 'Service is up.', { 'content-type': 'text/plain' }))).toMatchObject({
      origin: { kind: 'unknown' },
      meaning: { kind: 'undecodable', why: 'not-json' },
    });
    expect(classifyAnswer(answer(200, 'Service is up.', JSON_TYPE)).origin.kind).toBe('api');
    expect(classifyAnswer(answer(200, '', HTML_TYPE)).meaning.kind).toBe('empty');
  });

  test('the id of a served status is its JSON text, digits beyond 2^53 kept', () => {
    const body = ENVELOPE.replace('"id":1,', '"id":9007199254740993,');
    expect(classifyAnswer(answer(200, body, JSON_TYPE)).meaning).toEqual({ kind: 'served-status', id: '9007199254740993' });
    expect(memberText('{"data":[{"id" : 1.0 }]}', ['data', 0, 'id'])).toBe('1.0');
    expect(memberText('{"data":{"name":"{\\"id\\":2}","id":"x"}}', ['data', 'id'])).toBe('"x"');
    expect(memberText('{"data":{"id":1,"id":2}}', ['data', 'id'])).toBe('2');
    expect(memberText('[1]', ['data'])).toBeUndefined();
  });
});

describe("a vendor known by its headers or by its own page's words", () => {
  const page = (headers: Record<string, string>, body = '<html><body><h1>Access denied</h1></body></html>'): AnswerText => ({
    status: 403,
    headers: { ...HTML_TYPE, ...headers },
    body,
  });
  test.each([
    ['Cloudflare', page({ server: 'cloudflare' })],
    ['Cloudflare', page({ 'cf-ray': '8a1b2c3d4e5f6071-AMS' })],
    ['Cloudflare', page({}, '<div id="cf-error-details"><h1>Sorry, you have been blocked</h1></div>')],
    ['Akamai', page({ server: 'AkamaiGHost' })],
    ['Akamai', page({}, 'Reference&#32;&#35;18&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c')],
    ['Akamai', page({}, '<p>https://errors.edgesuite.net/18.2f3e4d5c.1700000000.1a2b3c</p>')],
    ['Imperva (Incapsula)', page({ 'x-iinfo': '10-1234567-0 0NNN RT(1700000000000 0) q(0 -1 -1 -1) r(0 -1)' })],
    ['Imperva (Incapsula)', page({ 'x-cdn': 'Imperva Incapsula' })],
    ['Imperva (Incapsula)', page({}, 'Request unsuccessful. Incapsula incident ID: 1234000123456789-12345678901234567')],
    ['Sucuri', page({ 'x-sucuri-id': '11005' })],
    ['Sucuri', page({ server: 'Sucuri/Cloudproxy' })],
    ['Sucuri', page({}, '<title>Sucuri WebSite Firewall - Access Denied</title>')],
    ['AWS CloudFront / WAF', page({ 'x-amz-cf-id': 'Zp3c8vyV7cDvCmPBwHnVxZKKI5VOhH8QZ-7ka1Ja2g==' })],
    ['AWS CloudFront / WAF', page({ via: '1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront)' })],
    ['AWS CloudFront / WAF', page({}, '<PRE>Generated by cloudfront (CloudFront)</PRE>')],
    ['F5 BIG-IP', page({ server: 'BigIP' })],
    ['F5 BIG-IP', page({}, 'The requested URL was rejected. Please consult with your administrator.<br>Your support ID is: 123')],
    ['Azure Front Door', page({ 'x-azure-ref': '0Hbx4ZQAAAAB' })],
    ['Azure Front Door', page({}, "<title>Our services aren't available right now</title><p>helpdesk.azureedge.net</p>")],
    ['Fastly', page({ 'x-served-by': 'cache-ams21080-AMS' })],
    ['Fastly', page({}, 'Fastly error: unknown domain: help.example.com.')],
    ['ModSecurity', page({ server: 'Apache/2.4.62 (Debian) mod_security/2.9.7' })],
    ['ModSecurity', page({}, '<p>This error was generated by Mod_Security.</p>')],
  ])('%s', (name, answer) => {
    expect(vendorOf(answer)?.name).toBe(name);
  });

  test('a plain refusal page, and headers that only look alike, name no vendor', () => {
    expect(vendorOf(page({ server: 'Apache/2.4.62 (Debian)' }))).toBeUndefined();
    expect(vendorOf(page({ 'x-served-by': 'web-01', 'x-cdn': 'none' }))).toBeUndefined();
    expect(vendorPage(page({ 'cf-ray': '8a1b2c3d4e5f6071-AMS' }))).toBeUndefined();
  });
});

describe('answers fronts give of their own accord', () => {
  test("Kong's own refusal, without an upstream behind it; the API's answer passed through Kong is the API's", () => {
    const kong = { ...JSON_TYPE, 'x-kong-response-latency': '1' };
    expect(classifyAnswer(answer(401, '{"message":"No API key found in request"}', kong)).origin).toMatchObject({ front: 'gateway' });
    const passed = { ...kong, 'x-kong-upstream-latency': '12' };
    expect(classifyAnswer(answer(401, '{"status":"error","message":"Unauthenticated.","data":[]}', passed)).origin.kind).toBe('api');
    const apigee = '{"fault":{"faultstring":"Invalid ApiKey","detail":{"errorcode":"oauth.v2.InvalidApiKey"}}}';
    expect(classifyAnswer(answer(401, apigee, JSON_TYPE)).origin).toMatchObject({ front: 'gateway' });
  });

  test("a maintenance page says so; Apache's own 503 page is no maintenance window, and the API's JSON 503 is one by its code", () => {
    expect(isMaintenance({ status: 503, headers: {}, body: '<h1>Down for maintenance</h1>' })).toBe(true);
    expect(isMaintenance({ status: 503, headers: { 'retry-after': '60' }, body: '' })).toBe(true);
    expect(isMaintenance({ status: 503, headers: {}, body: 'due to maintenance downtime or capacity problems' })).toBe(false);
    expect(isMaintenance({ status: 500, headers: { 'retry-after': '60' }, body: 'maintenance' })).toBe(false);
    expect(isMaintenance({ status: 503, headers: {}, body: '{"message":"Service Unavailable"}' })).toBe(false);
    const laravel = classifyAnswer(answer(503, '{"message":"Service Unavailable"}', JSON_TYPE));
    expect(laravel.origin).toEqual({
      kind: 'front',
      front: 'maintenance',
      evidence: 'HTTP 503 in JSON: the application says it cannot serve for now',
    });
    expect(classifyAnswer(answer(503, '<h1>Down for maintenance</h1>', { ...HTML_TYPE, 'retry-after': '60' })).origin).toEqual({
      kind: 'front',
      front: 'maintenance',
      evidence: 'HTTP 503: a maintenance answer with Retry-After',
    });
    expect(classifyAnswer(answer(503, '<h1>Down for maintenance</h1>', HTML_TYPE)).origin).toMatchObject({
      evidence: 'HTTP 503: a maintenance answer',
    });
  });

  test("a cache's mark: Age above 0, or a HIT in a cache status header", () => {
    expect(cacheMark({ headers: { age: '42' } })).toBe('Age: 42');
    expect(cacheMark({ headers: { age: '0' } })).toBeUndefined();
    expect(cacheMark({ headers: { 'x-cache': 'Hit from cloudfront' } })).toBe('x-cache: Hit from cloudfront');
    expect(cacheMark({ headers: { 'x-litespeed-cache': 'hit' } })).toBe('x-litespeed-cache: hit');
    expect(cacheMark({ headers: { 'x-proxy-cache': 'HIT' } })).toBe('x-proxy-cache: HIT');
    expect(cacheMark({ headers: { 'x-cache-status': 'STALE-HIT' } })).toBe('x-cache-status: STALE-HIT');
    expect(cacheMark({ headers: { 'x-proxy-cache': 'MISS', 'x-cache': 'MISS, MISS' } })).toBeUndefined();
    expect(cacheMark({ headers: { 'x-cache': 'WHITELISTED' } })).toBeUndefined();
  });

  test('an HTML page by its type or its first tag', () => {
    expect(looksLikeHtml({ status: 200, headers: { 'content-type': 'text/html' }, body: '' })).toBe(true);
    expect(looksLikeHtml({ status: 200, headers: {}, body: '\n  <!DOCTYPE html><html></html>' })).toBe(true);
    expect(looksLikeHtml({ status: 200, headers: {}, body: '<HTML><BODY>x</BODY></HTML>' })).toBe(true);
    expect(looksLikeHtml({ status: 200, headers: {}, body: 'text <html>' })).toBe(false);
    expect(looksLikeHtml({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' })).toBe(false);
  });

  test.each([
    ["a CDN's 530", answer(530, '', {}), 'cdn', 'HTTP 530, a code only a CDN sends when the web server behind it fails it'],
    ["a 5xx the CDN does not own (529 is Cloudflare's, 531 nobody's)", answer(529, '', {}), 'cdn', undefined],
    [
      'a captive portal behind a 200',
      answer(200, '<html>Please accept the terms of use to connect</html>', HTML_TYPE),
      'captive-portal',
      "HTTP 200: a captive portal's sign-in page",
    ],
    [
      'a challenge page under no vendor',
      answer(403, '<html><title>Just a moment...</title></html>', HTML_TYPE),
      'waf',
      'HTTP 403: a browser challenge page',
    ],
    [
      'a gateway error page nobody signs',
      answer(504, '<html><body>Gateway Timeout</body></html>', HTML_TYPE),
      'web-server',
      'HTTP 504: a gateway error page, the application did not take the request',
    ],
    [
      'a single sign-on login page',
      answer(200, '<html><form action="/saml/login"><input type="password"></form></html>', HTML_TYPE),
      'sso',
      'HTTP 200: a single sign-on login page',
    ],
    [
      'plain HTTP to a port that speaks HTTPS',
      answer(400, '<html><title>400 The plain HTTP request was sent to HTTPS port</title></html>', HTML_TYPE),
      'web-server',
      'HTTP 400: plain HTTP reached a port that speaks HTTPS',
    ],
  ])('%s', (_name, input, front, evidence) => {
    const { origin } = classifyAnswer(input);
    expect(origin).toMatchObject({ kind: 'front', front });
    if (evidence) expect(origin).toMatchObject({ evidence });
  });

  test("a 531, a 404 page under a CDN's headers and a login link on a 404 name no front", () => {
    expect(classifyAnswer(answer(531, '', {})).origin.kind).toBe('unknown');
    const notFound = answer(404, '<html><body><h1>Not Found</h1></body></html>', { ...HTML_TYPE, 'cf-ray': '8a1b-AMS' });
    expect(classifyAnswer(notFound).origin).toEqual({ kind: 'unknown', evidence: 'HTTP 404: an HTML page' });
    const withLogin = answer(404, '<html><title>Not here</title><a href="/oauth2/login">Sign in</a></html>', HTML_TYPE);
    expect(classifyAnswer(withLogin).origin).toEqual({ kind: 'unknown', evidence: 'HTTP 404: an HTML page "Not here"' });
  });
});

describe('the listing, whose shape the document does not state', () => {
  const listing = (status: number, body: unknown) => classifyAnswer(answer(status, JSON.stringify(body), JSON_TYPE, LISTING)).meaning.kind;

  test('content without a word of refusal is handed out; a refusal with nothing in it is not', () => {
    expect(listing(200, { data: [{ id: 1, name: 'Question' }] })).toBe('served-listing');
    expect(listing(403, { data: [{ id: 1, name: 'Question' }] })).toBe('served-listing');
    expect(listing(200, { items: [] })).toBe('served-listing');
    expect(listing(403, { message: 'Forbidden' })).toBe('refused');
    expect(listing(403, { data: {} })).toBe('refused');
    expect(listing(401, { status: 'error', message: 'Unauthenticated.', data: [] })).toBe('refused');
  });

  test('words of refusal with content under a success code hand it out; under an error code they refuse', () => {
    expect(listing(200, { status: 'error', message: 'Unauthenticated.', data: [{ id: 1 }] })).toBe('served-listing');
    expect(listing(401, { status: 'error', message: 'Unauthenticated.', data: [{ id: 1 }] })).toBe('refused');
    expect(listing(200, { status: 'error', message: 'Unauthenticated.', data: [] })).toBe('refused');
    expect(listing(302, { status: 'error', data: [{ id: 1 }] })).toBe('refused');
  });

  test('any JSON under a success code may be the listing; under an error code it is not', () => {
    expect(classifyAnswer(answer(200, '[{"id":1}]', JSON_TYPE, LISTING)).meaning.kind).toBe('served-listing');
    expect(classifyAnswer(answer(400, '[{"id":1}]', JSON_TYPE, LISTING)).meaning).toEqual({
      kind: 'undecodable',
      why: 'not-json',
      detail: 'JSON that is not an object',
    });
  });
});

describe('the ticket status an envelope carries', () => {
  const fields = (count: number): Record<string, unknown> =>
    Object.fromEntries(
      ['id', 'name', 'colour', 'auto_close', 'order', 'created_at', 'updated_at', 'translations']
        .slice(0, count)
        .map((field) => [field, 1]),
    );

  test('half of the documented fields make a status, in data or as its first entry; fewer do not', () => {
    const envelope = (data: unknown) => JSON.stringify({ status: 'error', message: 'x', data });
    expect(classifyAnswer(answer(401, envelope(fields(4)), JSON_TYPE)).meaning).toEqual({ kind: 'served-status', id: '1' });
    expect(classifyAnswer(answer(401, envelope([fields(4)]), JSON_TYPE)).meaning).toEqual({ kind: 'served-status', id: '1' });
    expect(classifyAnswer(answer(401, envelope(fields(3)), JSON_TYPE)).meaning.kind).toBe('refused');
    expect(classifyAnswer(answer(401, envelope(['Open']), JSON_TYPE)).meaning.kind).toBe('refused');
  });

  test('an id the text does not hold where it is looked for is read from the value, or "absent"', () => {
    const withoutId = JSON.stringify({ status: 'success', data: { ...fields(8), id: undefined } });
    expect(classifyAnswer(answer(200, withoutId, JSON_TYPE)).meaning).toEqual({
      kind: 'served-status',
      id: 'absent',
    });
    const text = `<b>Notice</b>: x\n${JSON.stringify({ status: 'success', data: { ...fields(8), id: 7 } })}\n<!-- 12 ms -->`;
    const classified = classifyAnswer({ ...answer(200, text, HTML_TYPE), json: parseJson({ text }) });
    expect(classified.meaning).toEqual({ kind: 'served-status', id: '7' });
    expect(classified.noise).toBe('<b>Notice</b>: x … <!-- 12 ms -->');
  });

  test('the noise around an envelope is shown up to 160 characters', () => {
    const notice = `Deprecated: ${'y'.repeat(300)} in /var/www/app/Model.php on line 9\n`;
    const text = `${notice}${ENVELOPE}`;
    const { noise } = classifyAnswer({ ...answer(200, text, HTML_TYPE), json: parseJson({ text }) });
    expect(noise).toBe(`Deprecated: ${'y'.repeat(148)}…`);
  });
});

describe('answers that are not an envelope', () => {
  test('an HTML page nobody signs is shown with its title; the application failing is quoted', () => {
    expect(classifyAnswer(answer(200, '<html><head><title> Help Desk </title></head></html>', HTML_TYPE)).origin).toEqual({
      kind: 'unknown',
      evidence: 'HTTP 200: an HTML page "Help Desk"',
    });
    expect(classifyAnswer(answer(500, 'Traceback (most recent call last):\n  File "app.py"', { 'content-type': 'text/plain' }))).toEqual({
      origin: { kind: 'api' },
      meaning: { kind: 'application-error', what: 'uncaught-exception', evidence: 'HTTP 500 with "Traceback (most recent call last)"' },
    });
    expect(classifyAnswer(answer(200, ' \n', {}))).toEqual({
      origin: { kind: 'unknown', evidence: 'HTTP 200 with an empty body' },
      meaning: { kind: 'empty' },
    });
  });

  test("text under a JSON label is the application's, under another label nobody's", () => {
    const labelled = classifyAnswer(answer(200, 'OK', { 'content-type': 'application/problem+json' }));
    expect(labelled.origin).toEqual({ kind: 'api' });
    expect(labelled.meaning).toMatchObject({ kind: 'undecodable', why: 'not-json' });
    const plain = classifyAnswer(answer(200, 'OK', { 'content-type': 'text/jsonnet' }));
    expect(plain.origin).toEqual({ kind: 'unknown', evidence: 'HTTP 200: not a JSON object' });
  });

  test('a redirect from a front keeps its target; a redirect without Location is no redirect', () => {
    expect(classifyAnswer(answer(302, '', { location: 'https://portal.example.net/captive?orig=x' }))).toEqual({
      origin: { kind: 'front', front: 'captive-portal', evidence: 'a redirect to https://portal.example.net/captive?orig=x' },
      meaning: { kind: 'redirect', to: 'https://portal.example.net/captive?orig=x' },
    });
    expect(classifyAnswer(answer(302, '', { location: '/saml/login' })).origin.kind).toBe('unknown');
    expect(classifyAnswer(answer(301, '<html>Moved</html>', HTML_TYPE)).meaning).toEqual({ kind: 'error-page' });
  });

  test('the API path of a request, whatever the base URL in front of it', () => {
    expect(apiPathOf('/support/api/ticket/status/1?lang=fr')).toBe('/api/ticket/status/1');
    expect(apiPathOf('/api/api/selfservice/type')).toBe('/api/selfservice/type');
    expect(apiPathOf('/status?x=1')).toBe('/status');
  });
});

describe('a JSON text read as written', () => {
  test.each([
    ['\uFEFF {"data" : {"id" : 9007199254740993}}', ['data', 'id'], '9007199254740993'],
    ['{"a":"}\\"]","data":{"id":[1, {"x":"]"}]}}', ['data', 'id'], '[1, {"x":"]"}]'],
    ['{"data":[{"id":1},{"id":2}]}', ['data', 1, 'id'], '2'],
    ['{"data":{"id":true}}', ['data', 'id'], 'true'],
    ['{"data":{"id":1}}', ['data', 0], undefined],
    ['{"data":{"id":1}}', ['data', 'name'], undefined],
    ['{"data" 1}', ['data'], undefined],
    ['{data:1}', ['data'], undefined],
    ['"data"', ['data'], undefined],
    // A key is compared as JSON.parse reads it: its escapes decoded, a control character in it no key at all.
    ['{"d\\u0061ta":{"id":7}}', ['data', 'id'], '7'],
    ['{"da\\"ta":1,"data":2}', ['data'], '2'],
    ['{"data\n":1}', ['data\n'], undefined],
    ['{"da\\"', ['data'], undefined],
    // White space is \s's, beyond ASCII too.
    ['{"data":{"id"\u2028:\u30003\u00a0}}', ['data', 'id'], '3'],
  ] as const)('%s at %j', (text, path, value) => {
    expect(memberText(text, path)).toBe(value);
  });
});

describe('what the run shows as a whole', () => {
  const KEYS = [
    'valid /api/ticket/status/1?',
    'no-header /api/ticket/status/1?',
    'wrong-token /api/ticket/status/1?',
    'valid /api/selfservice/type?',
    'no-header /api/selfservice/type?',
    'wrong-token /api/selfservice/type?',
  ];
  /** The reference server's answers to these requests, some answered otherwise. */
  const recording = (changes: Record<string, { status: number; body: string }>): Recording => ({
    traffic: { sent: KEYS.length, rateLimited: 0, waitedMs: 0 },
    tlsCertificates: [],
    answers: Object.fromEntries(
      KEYS.map((key) => {
        const change = changes[key];
        const exchange = recordedAnswer(key);
        return [
          key,
          { exchange: change ? answeredWith(exchange, { ...change, headers: { 'content-type': 'application/json' } }) : exchange },
        ];
      }),
    ),
  });

  test("a refusal's positive control is what its own path was served to: the listing's, a listed status's, nothing elsewhere", () => {
    const copy: Reach = {
      apiAnswered: true,
      servedStatusTo: { 1: ['valid'], 12: ['valid', 'token-case-flipped'] },
      servedListingTo: ['no-header'],
    };
    expect(servedOnPath(copy, '/api/selfservice/type')).toEqual(['no-header']);
    expect(servedOnPath(copy, '/api/ticket/status/12')).toEqual(['valid', 'token-case-flipped']);
    expect(servedOnPath(copy, '/api/ticket/status/2')).toEqual([]);
    expect(servedOnPath(copy, '/api/ticket/status/12/extra')).toEqual([]);
    expect(servedOnPath(copy, '/v2/api/ticket/status/1')).toEqual([]);
    expect(servedOnPath(copy, '/api/ticket/status/')).toEqual([]);
    expect(servedOnPath(copy, '/api/ticket')).toEqual([]);
    // The token served anywhere, once each, and never the request that carried none.
    expect(tokenServedTo(copy)).toEqual(['valid', 'token-case-flipped']);
    expect(tokenServedTo({ ...copy, servedListingTo: ['token-truncated', 'valid'] })).toEqual([
      'valid',
      'token-case-flipped',
      'token-truncated',
    ]);
  });

  test('the reference server: the API answered, and only the valid token was served', () => {
    const { answers, reach } = classifyRecording(recording({}), [1]);
    expect(Object.keys(answers)).toEqual(KEYS);
    expect(reach).toEqual({ apiAnswered: true, servedStatusTo: { 1: ['valid'] }, servedListingTo: ['valid'] });
  });

  test('a listing answered with HTTP 200 exactly as the status is without credentials was refused', () => {
    const refusal = { status: 200, body: '{"error":"Unauthorized"}' };
    const { answers, reach } = classifyRecording(
      recording({ 'no-header /api/ticket/status/1?': refusal, 'no-header /api/selfservice/type?': refusal }),
      [1],
    );
    expect(answers['no-header /api/selfservice/type?']?.meaning).toEqual({ kind: 'refused' });
    expect(reach.servedListingTo).toEqual(['valid']);
    const otherWords = classifyRecording(
      recording({
        'no-header /api/ticket/status/1?': refusal,
        'no-header /api/selfservice/type?': { status: 200, body: '{"error":"Login first"}' },
      }),
      [1],
    );
    expect(otherWords.answers['no-header /api/selfservice/type?']?.meaning).toEqual({ kind: 'served-listing' });
  });

  test("the valid token's listing handed to a wrong token under words of refusal was handed out", () => {
    const listing = JSON.parse(recordedAnswer('valid /api/selfservice/type?').response.bodyText) as { data: unknown };
    const refusedWithListing = { status: 403, body: JSON.stringify({ status: 'error', message: 'Forbidden', data: listing.data }) };
    const { answers, reach } = classifyRecording(recording({ 'wrong-token /api/selfservice/type?': refusedWithListing }), [1]);
    expect(answers['wrong-token /api/selfservice/type?']?.meaning).toEqual({ kind: 'served-listing' });
    expect(reach.servedListingTo).toEqual(['valid', 'wrong-token']);
    // The same entries in another order are the same listing: the document gives the list no order.
    const reordered = {
      ...refusedWithListing,
      body: JSON.stringify({ status: 'error', data: [...(listing.data as unknown[])].reverse() }),
    };
    expect(classifyRecording(recording({ 'wrong-token /api/selfservice/type?': reordered }), [1]).reach.servedListingTo).toEqual([
      'valid',
      'wrong-token',
    ]);
    const refusedEmpty = { status: 403, body: '{"status":"error","message":"Forbidden","data":[]}' };
    expect(classifyRecording(recording({ 'wrong-token /api/selfservice/type?': refusedEmpty }), [1]).reach.servedListingTo).toEqual([
      'valid',
    ]);
  });

  test('a run where nothing came from the API: no reach, and the status asked for is the one looked at', () => {
    const page = { status: 404, body: '<html><body>Not Found</body></html>' };
    const { reach } = classifyRecording(recording(Object.fromEntries(KEYS.map((key) => [key, page]))), [1]);
    expect(reach).toEqual({ apiAnswered: false, servedStatusTo: { 1: [] }, servedListingTo: [] });
    expect(classifyRecording(recording({}), [2]).reach.servedStatusTo).toEqual({ 2: [] });
  });

  /** The reference server's answers, some answered otherwise with their own headers, and some never answered. */
  const run = (
    changes: Record<string, { status: number; body: string; headers?: Record<string, string> }>,
    unanswered: string[] = [],
  ): Recording => ({
    traffic: { sent: KEYS.length, rateLimited: 0, waitedMs: 0 },
    tlsCertificates: [],
    answers: Object.fromEntries(
      KEYS.map((key) => {
        if (unanswered.includes(key)) {
          const failure = {
            code: 'HARNESS_TIMEOUT',
            message: 'timed out after 1000 ms',
            hint: 'Raise --timeout',
            party: 'target',
          } as const;
          return [key, { failure }];
        }
        const change = changes[key];
        const exchange = recordedAnswer(key);
        return [key, { exchange: change ? answeredWith(exchange, { headers: JSON_TYPE, ...change }) : exchange }];
      }),
    ),
  });
  const REFUSAL = { status: 401, body: '{"status":"error","message":"Invalid authentication credentials.","data":[]}' };

  test('answers that never came are left out: the status without credentials and the listing of the valid token', () => {
    const { answers, reach } = classifyRecording(run({}, ['no-header /api/ticket/status/1?', 'valid /api/selfservice/type?']), [1]);
    expect(Object.keys(answers)).toEqual(
      KEYS.filter((key) => key !== 'no-header /api/ticket/status/1?' && key !== 'valid /api/selfservice/type?'),
    );
    expect(reach).toEqual({ apiAnswered: true, servedStatusTo: { 1: ['valid'] }, servedListingTo: [] });
  });

  test("the valid token's listing in the body of a login redirect or of an error was handed out; a bare redirect was not", () => {
    const listing = JSON.parse(recordedAnswer('valid /api/selfservice/type?').response.bodyText) as { data: unknown };
    const body = JSON.stringify({ status: 'success', message: null, data: listing.data });
    // PHP that sends Location without exit goes on to print the listing; a handler that fails after printing it sends a 500.
    const { answers, reach } = classifyRecording(
      run({
        'no-header /api/selfservice/type?': { status: 302, body, headers: { ...JSON_TYPE, location: '/login' } },
        'wrong-token /api/selfservice/type?': { status: 500, body },
      }),
      [1],
    );
    expect(answers['no-header /api/selfservice/type?']?.meaning).toEqual({ kind: 'served-listing' });
    expect(answers['wrong-token /api/selfservice/type?']?.meaning).toEqual({ kind: 'served-listing' });
    expect(reach.servedListingTo).toEqual(['valid', 'wrong-token', 'no-header']);
    const bare = classifyRecording(
      run({ 'no-header /api/selfservice/type?': { status: 302, body: '', headers: { location: '/login' } } }),
      [1],
    );
    expect(bare.answers['no-header /api/selfservice/type?']?.meaning.kind).toBe('redirect');
    expect(bare.reach.servedListingTo).toEqual(['valid']);
  });

  test('a server that hands the same empty success envelope to anyone served the listing and the status to every form', () => {
    const empty = { status: 200, body: '{"status":"success","message":null,"data":[]}' };
    const { answers, reach } = classifyRecording(
      run(Object.fromEntries(KEYS.filter((key) => !key.startsWith('valid')).map((key) => [key, empty]))),
      [1],
    );
    expect(answers['no-header /api/selfservice/type?']?.meaning).toEqual({ kind: 'served-listing' });
    expect(reach).toEqual({
      apiAnswered: true,
      servedStatusTo: { 1: ['valid', 'wrong-token', 'no-header'] },
      servedListingTo: ['valid', 'wrong-token', 'no-header'],
    });
  });

  test("a listing in the refusal's words under another code is not that refusal", () => {
    const words = '{"error":"Unauthorized"}';
    const { answers } = classifyRecording(
      run({
        'no-header /api/ticket/status/1?': { status: 401, body: words },
        'no-header /api/selfservice/type?': { status: 200, body: words },
      }),
      [1],
    );
    expect(answers['no-header /api/selfservice/type?']?.meaning).toEqual({ kind: 'served-listing' });
  });

  test('an empty listing for the valid token makes no refusal of an empty listing a hand-out', () => {
    const { answers, reach } = classifyRecording(
      run({
        'valid /api/selfservice/type?': { status: 200, body: '{"status":"success","message":null,"data":[]}' },
        'wrong-token /api/selfservice/type?': REFUSAL,
      }),
      [1],
    );
    expect(answers['wrong-token /api/selfservice/type?']?.meaning).toEqual({ kind: 'refused' });
    expect(reach.servedListingTo).toEqual(['valid']);
  });

  test("Kong's own refusal in the same words as the API's refusal behind it stays the gateway's page", () => {
    const words = { status: 401, body: '{"message":"Unauthorized"}' };
    const { answers } = classifyRecording(
      run({
        'no-header /api/ticket/status/1?': {
          ...words,
          headers: { ...JSON_TYPE, 'x-kong-response-latency': '0', 'x-kong-upstream-latency': '9' },
        },
        'wrong-token /api/ticket/status/1?': { ...words, headers: { ...JSON_TYPE, 'x-kong-response-latency': '0' } },
      }),
      [1],
    );
    expect(answers['no-header /api/ticket/status/1?']).toEqual({ origin: { kind: 'api' }, meaning: { kind: 'refused' } });
    expect(answers['wrong-token /api/ticket/status/1?']?.meaning).toEqual({ kind: 'error-page' });
  });

  test('a wrong token configured: every answer a refusal, the API answered and served nothing', () => {
    const { reach } = classifyRecording(run(Object.fromEntries(KEYS.map((key) => [key, REFUSAL]))), [1]);
    expect(reach).toEqual({ apiAnswered: true, servedStatusTo: { 1: [] }, servedListingTo: [] });
  });

  test('a WAF that blocks the listing: the API still answered the status', () => {
    const blocked = { status: 403, body: '<html><body>Access denied</body></html>', headers: { ...HTML_TYPE, 'x-sucuri-id': '11005' } };
    const listings = KEYS.filter((key) => key.includes('selfservice')).map((key) => [key, blocked]);
    const { answers, reach } = classifyRecording(run(Object.fromEntries(listings)), [1]);
    expect(answers['valid /api/selfservice/type?']?.origin).toMatchObject({ kind: 'front', vendor: 'Sucuri' });
    expect(reach).toEqual({ apiAnswered: true, servedStatusTo: { 1: ['valid'] }, servedListingTo: [] });
  });

  test("what only a named client's request got shows nothing of the API's reach", () => {
    const page = { status: 404, body: '<html><body>Not Found</body></html>', headers: HTML_TYPE };
    const recorded = run(Object.fromEntries(KEYS.map((key) => [key, page])));
    const official = recordedAnswer('valid /api/ticket/status/1?');
    recorded.answers['official-client /api/ticket/status/1?'] = {
      exchange: { ...official, request: { ...official.request, credentials: 'official-client' } },
    };
    const { answers, reach } = classifyRecording(recorded, [1]);
    expect(answers['official-client /api/ticket/status/1?']?.meaning.kind).toBe('served-status');
    expect(reach).toEqual({ apiAnswered: false, servedStatusTo: { 1: [] }, servedListingTo: [] });
  });
});

describe('a front, with the evidence and the meaning a report shows', () => {
  const CF = { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' };

  test("a proxy's 407 is its own error page", () => {
    const proxy = answer(407, '<html><body>Proxy Authentication Required</body></html>', {
      ...HTML_TYPE,
      'proxy-authenticate': 'Basic realm="corp"',
    });
    expect(classifyAnswer(proxy)).toEqual({
      origin: {
        kind: 'front',
        front: 'proxy',
        evidence: 'HTTP 407: a proxy asks for its own credentials',
        vendor: 'a proxy between this machine and the API',
      },
      meaning: { kind: 'error-page' },
    });
  });

  test("Cloudflare's JSON error, compact or re-indented with spaces around its colons, is Cloudflare's", () => {
    const compact = '{"title":"Error 1020: Access denied","status":403,"error_code":1020,"cloudflare_error":true}';
    const spaced = '{\n  "title" : "Error 1020: Access denied",\n  "status" : 403,\n  "cloudflare_error" : true\n}';
    for (const body of [compact, spaced]) {
      expect(classifyAnswer(answer(403, body, { ...JSON_TYPE, ...CF })).origin).toEqual({
        kind: 'front',
        front: 'cdn',
        evidence: "HTTP 403: Cloudflare's own error in JSON",
        vendor: 'Cloudflare',
      });
    }
  });

  test("Apigee's fault re-indented with spaces around its colons is the gateway's", () => {
    const fault =
      '{\n  "fault" : {\n    "faultstring" : "Invalid ApiKey",\n    "detail" : { "errorcode" : "oauth.v2.InvalidApiKey" }\n  }\n}';
    expect(classifyAnswer(answer(401, fault, JSON_TYPE)).origin).toMatchObject({ kind: 'front', front: 'gateway' });
  });

  test("a vendor's own 5xx page names the vendor, from 500 on", () => {
    const fastly = answer(503, '<html><h1>Error 503 Backend fetch failed</h1><p>Guru Meditation: XID: 1</p></html>', {
      ...HTML_TYPE,
      'x-served-by': 'cache-ams21080-AMS',
    });
    expect(classifyAnswer(fastly).origin).toEqual({
      kind: 'front',
      front: 'cdn',
      evidence: "HTTP 503: Fastly's own error page",
      vendor: 'Fastly',
    });
    const akamai = answer(
      500,
      '<HTML><HEAD><TITLE>Error</TITLE></HEAD><BODY>An error occurred while processing your request.<p>Reference&#32;&#35;97&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c</BODY></HTML>',
      HTML_TYPE,
    );
    expect(classifyAnswer(akamai).origin).toMatchObject({ front: 'cdn', evidence: "HTTP 500: Akamai's own error page" });
  });

  test("PHP-FPM's and php-cgi's words are quoted without the line's end, whatever white space surrounds them", () => {
    expect(classifyAnswer(answer(404, 'File not found.\n', HTML_TYPE)).origin).toEqual({
      kind: 'front',
      front: 'php-fpm',
      evidence: 'HTTP 404 "File not found.": PHP-FPM found no script to run',
      vendor: 'PHP-FPM',
    });
    expect(classifyAnswer(answer(404, 'No input file specified.\n', HTML_TYPE)).origin).toEqual({
      kind: 'front',
      front: 'php-runtime',
      evidence: 'HTTP 404 "No input file specified.": php-cgi found no script to run',
      vendor: 'php-cgi',
    });
    for (const body of ['File not found.', '\r\nFile not found.\r\n', 'Primary script unknown']) {
      expect(classifyAnswer(answer(404, body, {})).origin).toMatchObject({ front: 'php-fpm' });
    }
    for (const body of ['No input file specified.', '\r\nNo input file specified.\r\n']) {
      expect(classifyAnswer(answer(404, body, {})).origin).toMatchObject({ front: 'php-runtime' });
    }
  });

  test("the application's own sentences about a missing file are not PHP-FPM's nor php-cgi's", () => {
    for (const body of [
      'Attachment 12: File not found.',
      'File not found. Check the address and try again.',
      'Import failed: No input file specified.',
      'No input file specified. Choose a file to import.',
    ]) {
      expect(classifyAnswer(answer(404, body, { 'content-type': 'text/plain' })).origin.kind).toBe('unknown');
    }
  });

  test('a redirect to a single sign-on host over http is named with its target; a login path of the application is not', () => {
    const location = 'http://sso.example.com/adfs/ls/?wa=wsignin1.0';
    expect(classifyAnswer(answer(302, '', { location })).origin).toEqual({
      kind: 'front',
      front: 'sso',
      evidence: `a redirect to a single sign-on page (${location})`,
    });
    expect(classifyAnswer(answer(302, '', { location: 'https://github.com/login/oauth/authorize?client_id=1' })).origin).toMatchObject({
      front: 'sso',
    });
    const ownLogin = '/oauth2/login?return=https://help.example.com/api/ticket/status/1';
    expect(classifyAnswer(answer(302, '', { location: ownLogin })).origin).toEqual({
      kind: 'unknown',
      evidence: `a redirect to ${ownLogin}`,
    });
  });

  test("a hotspot's redirect is the captive portal's, and keeps where it leads", () => {
    const location = 'http://10.5.50.1/login?dst=https%3A%2F%2Fhelp.example.com%2F';
    expect(classifyAnswer(answer(302, '<html><head><title>Hotspot login</title></head></html>', { ...HTML_TYPE, location }))).toEqual({
      origin: { kind: 'front', front: 'captive-portal', evidence: "HTTP 302: a captive portal's sign-in page" },
      meaning: { kind: 'redirect', to: location },
    });
  });

  test("a 511 is a captive portal's, whatever its page says; a sign-in page to the Wi-Fi under any code too", () => {
    const rfc6585 =
      '<html><head><title>Network Authentication Required</title></head><body><p>You need to <a href="https://login.example.net/">authenticate with the local network</a> in order to gain access.</p></body></html>';
    expect(classifyAnswer(answer(511, rfc6585, HTML_TYPE)).origin).toMatchObject({ front: 'captive-portal' });
    expect(classifyAnswer(answer(200, '<html><h1>Sign in to WiFi to continue browsing</h1></html>', HTML_TYPE)).origin).toMatchObject({
      front: 'captive-portal',
    });
  });

  test('a JSON 503 without Retry-After is the application saying it cannot serve for now, whatever its words', () => {
    const unavailable = { kind: 'front', front: 'maintenance', evidence: 'HTTP 503 in JSON: the application says it cannot serve for now' };
    const envelope = answer(503, '{"status":"error","message":"The help desk is down for maintenance.","data":[]}', JSON_TYPE);
    const laravelDown = answer(503, '{"message":"Service Unavailable"}', JSON_TYPE);
    const overloaded = answer(503, '{"status":"error","message":"Too busy","data":[]}', JSON_TYPE);
    for (const down of [envelope, laravelDown, overloaded]) expect(classifyAnswer(down).origin).toEqual(unavailable);
    // The other server errors in JSON stay the application's failure.
    expect(classifyAnswer(answer(500, '{"status":"error","message":"Internal error","data":[]}', JSON_TYPE))).toEqual({
      origin: { kind: 'api' },
      meaning: { kind: 'application-error', what: 'server-error', evidence: "HTTP 500 in the API's own envelope" },
    });
  });

  test("the application's PHP source sent as a file is the PHP runtime's absence, whatever its type; PHP inside a page is not", () => {
    const source = "<?php\n$db = new PDO('mysql:host=localhost;dbname=helpdesk', 'helpdesk', 'S3cretDbPass!');\n";
    for (const [body, type] of [
      [source, 'application/x-httpd-php'],
      [`\uFEFF  ${source}`, 'text/plain'],
      [source.replace('<?php', '<?PHP'), 'application/octet-stream'],
    ] as const) {
      expect(classifyAnswer(answer(200, body, { 'content-type': type })).origin).toEqual({
        kind: 'front',
        front: 'php-runtime',
        evidence: "HTTP 200: the application's PHP source, sent as a file: no PHP runs it",
      });
    }
    const page = answer(200, '<html><body><p>Use <?php echo 1; ?> in templates</p></body></html>', HTML_TYPE);
    expect(classifyAnswer(page).origin).not.toMatchObject({ front: 'php-runtime' });
  });

  test('PHP-FPM\'s "Access denied." (a script not ending in .php) is its own answer, only as it writes it', () => {
    expect(classifyAnswer(answer(403, 'Access denied.\n', { ...HTML_TYPE, server: 'nginx' })).origin).toEqual({
      kind: 'front',
      front: 'php-fpm',
      evidence: 'HTTP 403 "Access denied.": PHP-FPM refuses a script whose name does not end in .php',
      vendor: 'PHP-FPM',
    });
    for (const [status, body] of [
      [200, 'Access denied.\n'],
      [403, 'Access denied. Ask the administrator for an account.'],
    ] as const)
      expect(classifyAnswer(answer(status, body, HTML_TYPE)).origin).not.toMatchObject({ front: 'php-fpm' });
  });

  test('a PHP source is kept as its opening tag, with how much was left out; any other body as it came', () => {
    const source = "<?php\n$db = new PDO('mysql:host=localhost;dbname=helpdesk', 'helpdesk', 'S3cretDbPass!');\n";
    const kept = withoutPhpSource(source);
    expect(kept).toBe(
      `<?php\n[the rest of this PHP source, ${source.length - 5} characters, is not kept: it may hold the application's secrets]`,
    );
    expect(classifyAnswer(answer(200, kept, { 'content-type': 'application/x-httpd-php' })).origin).toMatchObject({ front: 'php-runtime' });
    for (const body of ['{"status":"success"}', '<br />\n<b>Warning</b>: <?php', '']) expect(withoutPhpSource(body)).toBe(body);
  });

  test('a challenge that asks to verify a human, and a login form with an unquoted password field, are fronts', () => {
    const turnstile = answer(403, '<html><p>Verify you are human by completing the action below.</p></html>', HTML_TYPE);
    expect(classifyAnswer(turnstile).origin).toEqual({ kind: 'front', front: 'waf', evidence: 'HTTP 403: a browser challenge page' });
    const cloudflareChallenge = answer(403, '<html><title>Just a moment...</title></html>', { ...HTML_TYPE, ...CF });
    expect(classifyAnswer(cloudflareChallenge).origin).toMatchObject({ front: 'cdn', vendor: 'Cloudflare' });
    // AWS WAF's challenge comes with HTTP 202 and a script from its own host.
    const awsChallenge = answer(
      202,
      '<!DOCTYPE html><html><head><script src="https://3f2a1b.token.awswaf.com/3f2a1b/challenge.js"></script></head><body><div id="challenge-container"></div></body></html>',
      { ...HTML_TYPE, 'x-amzn-waf-action': 'challenge' },
    );
    expect(classifyAnswer(awsChallenge).origin).toEqual({
      kind: 'front',
      front: 'cdn',
      evidence: 'HTTP 202: a browser challenge page',
      vendor: 'AWS CloudFront / WAF',
    });
    const login = answer(200, '<html><form method=post><input type=password name=pwd></form></html>', HTML_TYPE);
    expect(classifyAnswer(login).origin).toMatchObject({ front: 'sso' });
  });

  test('only a 400 carries the plain-HTTP-to-HTTPS words as an error: a help page quoting them is a page', () => {
    const help = answer(
      200,
      '<html><title>Troubleshooting</title><p>If you see "The plain HTTP request was sent to HTTPS port", use https.</p></html>',
      HTML_TYPE,
    );
    expect(classifyAnswer(help).origin).toEqual({ kind: 'unknown', evidence: 'HTTP 200: an HTML page "Troubleshooting"' });
  });

  test.each([
    ['Cloudflare', 'cdn', { server: 'cloudflare' }],
    ['Imperva (Incapsula)', 'waf', { 'x-iinfo': '10-1234567-0 0NNN RT(1700000000000 0)' }],
    ['Sucuri', 'waf', { 'x-sucuri-id': '11005' }],
    ['AWS CloudFront / WAF', 'cdn', { via: '1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront)' }],
    ['F5 BIG-IP', 'waf', { server: 'BigIP' }],
    ['ModSecurity', 'waf', { server: 'Apache/2.4.62 (Debian) mod_security/2.9.7' }],
  ] as const)("%s's 403 block page is a %s's", (vendor, front, headers) => {
    const blocked = answer(403, '<html><body><h1>Access denied</h1></body></html>', { ...HTML_TYPE, ...headers });
    expect(classifyAnswer(blocked)).toEqual({
      origin: { kind: 'front', front, evidence: `HTTP 403: ${vendor}'s block page`, vendor },
      meaning: { kind: 'error-page' },
    });
  });

  test("ModSecurity named in its page's words; a cache naming its own node is not Fastly", () => {
    const modsec = { status: 403, headers: HTML_TYPE, body: '<p>ModSecurity: Access denied with code 403 (phase 2).</p>' };
    expect(vendorOf(modsec)?.name).toBe('ModSecurity');
    expect(vendorOf({ status: 403, headers: { 'x-served-by': 'cache-fra1-Primary' }, body: '' })).toBeUndefined();
  });

  test("a vendor's headers on an answer make it the vendor's only where a block page stands: 4xx but 404, or a page under 300", () => {
    const cloudflare400 =
      '<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>';
    expect(classifyAnswer(answer(400, cloudflare400, { ...HTML_TYPE, ...CF })).origin).toEqual({
      kind: 'front',
      front: 'cdn',
      evidence: "HTTP 400: Cloudflare's block page",
      vendor: 'Cloudflare',
    });
    const incapsula = '<html><head><meta name="robots" content="noindex,nofollow"></head><body>Request unsuccessful.</body></html>';
    expect(classifyAnswer(answer(200, incapsula, { ...HTML_TYPE, 'x-iinfo': '10-1234567-0 0NNN' })).origin).toMatchObject({
      front: 'waf',
      evidence: "HTTP 200: Imperva (Incapsula)'s block page",
    });
    const originError = answer(500, '<html><body><h1>Internal Server Error</h1></body></html>', { ...HTML_TYPE, ...CF });
    expect(classifyAnswer(originError).origin).toEqual({ kind: 'unknown', evidence: 'HTTP 500: an HTML page' });
    const variants =
      '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>300 Multiple Choices</title>\n</head><body>\n<h1>Multiple Choices</h1>\nAvailable variants:\n<ul>\n<li><a href="1.php">1.php</a> , type application/x-httpd-php</li>\n</ul>\n</body></html>';
    expect(classifyAnswer(answer(300, variants, { ...HTML_TYPE, ...CF })).origin).toEqual({
      kind: 'unknown',
      evidence: 'HTTP 300: an HTML page "300 Multiple Choices"',
    });
    expect(classifyAnswer(answer(302, '', { ...CF, location: '/login' }))).toEqual({
      origin: { kind: 'unknown', evidence: 'a redirect to /login' },
      meaning: { kind: 'redirect', to: '/login' },
    });
  });

  test('only a 3xx with Location is a redirect: Location beside a 200 or a 400 changes nothing, and a 300 with it redirects', () => {
    expect(classifyAnswer(answer(200, ENVELOPE, { ...JSON_TYPE, location: '/api/ticket/status/1' })).meaning).toEqual({
      kind: 'served-status',
      id: '1',
    });
    const refusal = '{"status":"error","message":"Bad request","data":[]}';
    expect(classifyAnswer(answer(400, refusal, { ...JSON_TYPE, location: '/login' }))).toEqual({
      origin: { kind: 'api' },
      meaning: { kind: 'refused' },
    });
    expect(classifyAnswer(answer(300, '', { location: '/api/ticket/status/1.json' })).meaning).toEqual({
      kind: 'redirect',
      to: '/api/ticket/status/1.json',
    });
  });
});

describe("what the API's own answer holds, read exactly", () => {
  const fields = '"name":"Open","colour":"#35a600","auto_close":0,"order":1,"created_at":1,"updated_at":1,"translations":[]';

  test('the id of a status sent wrongly as the first entry of a list is its JSON text', () => {
    const body = `{"status":"error","message":"x","data":[{"id":1.0,${fields}}]}`;
    expect(classifyAnswer(answer(401, body, JSON_TYPE)).meaning).toEqual({ kind: 'served-status', id: '1.0' });
  });

  test('the id of a status after PHP notices, with data before the message, keeps its digits', () => {
    const envelope = `{"status":"success","data":{"id":9007199254740993,${fields}},"message":null}`;
    const text = `<b>Notice</b>: x\n${envelope}\n<!-- 12 ms -->`;
    expect(classifyAnswer({ ...answer(200, text, HTML_TYPE), json: parseJson({ text }) }).meaning).toEqual({
      kind: 'served-status',
      id: '9007199254740993',
    });
  });

  test('noise of exactly 160 characters is shown whole', () => {
    const notice = `Deprecated: ${'y'.repeat(148)}`;
    const text = `${notice}\n${ENVELOPE}`;
    expect(classifyAnswer({ ...answer(200, text, HTML_TYPE), json: parseJson({ text }) }).noise).toBe(notice);
  });

  test('a listing refused with data null is refused; one with its types keyed by id is handed out', () => {
    const listing = (status: number, body: unknown) =>
      classifyAnswer(answer(status, JSON.stringify(body), JSON_TYPE, LISTING)).meaning.kind;
    expect(listing(403, { message: 'Forbidden', data: null })).toBe('refused');
    expect(listing(403, { data: { '1': 'Question' } })).toBe('served-listing');
  });

  test('a 300 is no success code: JSON under it is no listing', () => {
    expect(classifyAnswer(answer(300, JSON.stringify({ data: [] }), JSON_TYPE, LISTING)).meaning.kind).toBe('refused');
    expect(classifyAnswer(answer(300, '[]', JSON_TYPE, LISTING)).meaning).toMatchObject({ kind: 'undecodable' });
  });

  test('a body beyond the caps is nobody that can be told, with the cap as evidence', () => {
    const deep = `{"status":"success","data":${'['.repeat(600)}${']'.repeat(600)}}`;
    const { origin, meaning } = classifyAnswer({ ...answer(200, deep, JSON_TYPE), json: parseJson({ text: deep }) });
    expect(meaning).toMatchObject({ kind: 'undecodable', why: 'suite-limit' });
    expect(origin).toEqual({ kind: 'unknown', evidence: meaning.kind === 'undecodable' ? meaning.detail : '' });
  });

  test("a stack trace in plain text is quoted by its line, without the line's break", () => {
    const trace = "TypeError: Cannot read properties of undefined (reading 'id')\n    at getStatus (/app/src/status.js:12:20)\n";
    expect(classifyAnswer(answer(500, trace, { 'content-type': 'text/plain' })).meaning).toEqual({
      kind: 'application-error',
      what: 'uncaught-exception',
      evidence: 'HTTP 500 with "at getStatus (/app/src/status.js:12:20)"',
    });
  });

  test.each([
    ['{"data":{"id":12', ['data', 'id'], '12'],
    ['{"data":{"id":1},"message":null}', ['data', 'id'], '1'],
    ['{"\\q":1,"data":2}', ['data'], undefined],
  ] as const)('a text cut short, read past an object, or not JSON: %s at %j', (text, path, value) => {
    expect(memberText(text, path)).toBe(value);
  });

  test('a 500 whose message is a list of texts names the failure they hold', () => {
    const nest = '{"statusCode":500,"message":["SQLSTATE[HY000] [2002] Connection refused"],"error":"Internal Server Error"}';
    expect(classifyAnswer(answer(500, nest, JSON_TYPE)).meaning).toEqual({
      kind: 'application-error',
      what: 'database-down',
      evidence: "HTTP 500 in the API's own envelope",
    });
    expect(classifyAnswer(answer(500, '{"message":null}', JSON_TYPE)).meaning).toMatchObject({ what: 'server-error' });
  });

  test("Apache's own page and CloudFront's Server header name who answered; a text has no first entry", () => {
    const apache = answer(
      404,
      '<html><body><p>The requested URL was not found on this server.</p><address>Apache</address></body></html>',
      HTML_TYPE,
    );
    expect(classifyAnswer(apache).origin).toEqual({
      kind: 'front',
      front: 'web-server',
      evidence: "HTTP 404: Apache's own error page",
      vendor: 'Apache',
    });
    expect(vendorOf({ status: 403, headers: { server: 'CloudFront' }, body: '<html>403 ERROR</html>' })?.name).toBe('AWS CloudFront / WAF');
    expect(memberText('{"data":"Open"}', ['data', 0])).toBeUndefined();
  });
});

describe("the application failing, in PHP's or its framework's own words, quoted by the line that says so", () => {
  const TEXT_TYPE = { 'content-type': 'text/plain' };
  test.each([
    [
      'WordPress without its database',
      'Error establishing a database connection',
      'database-down',
      'Error establishing a database connection',
    ],
    ["PDO's refusal by MySQL", 'could not connect to mysql server', 'database-down', 'could not connect to mysql'],
    ['PostgreSQL refusing the connection', 'pgsql: Connection refused', 'database-down', 'pgsql: Connection refused'],
    [
      'the connection refused before naming the database',
      'Connection refused (database at db:5432)',
      'database-down',
      'Connection refused (database',
    ],
    ["MySQL's connection limit", 'SQLSTATE[08004] [1040] Too many connections', 'database-down', 'SQLSTATE['],
    [
      'a PHP fatal error without its bold tags',
      'PHP Fatal error:  Uncaught TypeError in /var/www/app.php:7',
      'fatal-error',
      'PHP Fatal error:',
    ],
    [
      'a parse error',
      '<b>Parse error</b>: syntax error, unexpected token "}" in /var/www/index.php',
      'fatal-error',
      'Parse error</b>: syntax error',
    ],
    [
      'memory exhausted',
      'Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)',
      'fatal-error',
      'Allowed memory size of 134217728 bytes exhausted',
    ],
    [
      'an uncaught exception of a namespace',
      'Uncaught App\\Exceptions\\StatusException: missing',
      'uncaught-exception',
      'Uncaught App\\Exceptions\\StatusException',
    ],
    [
      "Laravel's Whoops page",
      '<h1>Whoops, looks like something went wrong.</h1>',
      'uncaught-exception',
      'Whoops, looks like something went wrong',
    ],
    [
      "Symfony's exception page",
      '<div class="trace">Symfony\\Component\\HttpKernel\\Exception\\NotFoundHttpException</div>',
      'uncaught-exception',
      'Symfony\\Component\\',
    ],
    ["Symfony's production error page", '<h1>Oops! An Error Occurred</h1>', 'uncaught-exception', 'Oops! An Error Occurred'],
    [
      "Laravel 11's error page",
      '<div class="ml-4 text-lg text-gray-500 uppercase tracking-wider">  Server Error  </div>',
      'uncaught-exception',
      'tracking-wider">  Server Error  <',
    ],
    [
      "PHP's stack trace as HTML",
      'Exception: no status in /var/www/app.php:9 Stack trace:<br />#0 {main}',
      'uncaught-exception',
      'Stack trace:<br',
    ],
    [
      "Python's traceback",
      'Traceback (most recent call last):\n  File "app.py", line 3',
      'uncaught-exception',
      'Traceback (most recent call last)',
    ],
    [
      "Node's stack, a method of a class",
      'TypeError: x\n    at Status.<anonymous> (/app/status.js:12:20)\n',
      'uncaught-exception',
      'at Status.<anonymous> (/app/status.js:12:20)',
    ],
  ] as const)('%s', (_name, body, what, line) => {
    expect(classifyAnswer(answer(500, body, TEXT_TYPE)).meaning).toEqual({
      kind: 'application-error',
      what,
      evidence: `HTTP 500 with "${line}"`,
    });
  });

  test.each([
    ['a connection refused far from any database', `Connection refused${' '.repeat(81)}by the mysql host`],
    ['a sentence about the database that does not fail', 'could not connect to the printer'],
    ['memory exhausted without its size', 'Allowed memory size of many bytes exhausted'],
    ['a stack trace line without a column', 'Error\n    at getStatus (/app/src/status.js:12)\n'],
    ['a parse error of something else', 'Parse error: unexpected input'],
  ])('%s is no failure of the application', (_name, body) => {
    expect(classifyAnswer(answer(500, body, TEXT_TYPE)).meaning.kind).toBe('undecodable');
  });
});

describe('a sign-in page or a captive portal, by the words and addresses of each', () => {
  test.each([
    ['Keycloak', 'https://id.example.com/realms/help/protocol/openid-connect/auth?client_id=help'],
    ['Auth0', 'https://example.auth0.com/authorize?client_id=abc'],
    ['Shibboleth', 'https://idp.example.edu/idp/profile/SAML2/Redirect/SSO?shibboleth=1'],
    ['CAS', 'https://cas.example.edu/cas/login?service=https%3A%2F%2Fhelp.example.edu'],
    ['an OAuth 2 proxy', 'http://help.example.com/oauth2/start?rd=%2Fapi'],
  ])("a redirect to %s's sign-in is a single sign-on front", (_name, location) => {
    expect(classifyAnswer(answer(302, '', { location })).origin).toEqual({
      kind: 'front',
      front: 'sso',
      evidence: `a redirect to a single sign-on page (${location})`,
    });
  });

  test('a sign-in path of the application itself, without scheme and host, is the application redirecting', () => {
    expect(classifyAnswer(answer(302, '', { location: '/oauth2/login' })).origin.kind).toBe('unknown');
  });

  test.each([
    ['a password field quoted with single quotes', "<form><input name='p' type='password'></form>"],
    ['an OpenID sign-in', '<html><a href="/openid/start">Sign in with OpenID</a></html>'],
  ])('a sign-in page with %s', (_name, page) => {
    expect(classifyAnswer(answer(200, page, HTML_TYPE)).origin).toMatchObject({ kind: 'front', front: 'sso' });
  });

  test.each([
    ['a captive portal by name', '<p>This captive portal needs you to sign in.</p>'],
    ['a Wi-Fi sign-in', '<p>Sign in to this Wi-Fi to continue.</p>'],
    ['a network sign-in', '<p>Sign in to the network</p>'],
    ['terms to accept to access', '<p>Accept the terms of service to access the Internet</p>'],
  ])('%s', (_name, page) => {
    expect(classifyAnswer(answer(200, page, HTML_TYPE)).origin).toMatchObject({ kind: 'front', front: 'captive-portal' });
  });

  test.each([
    ['a challenge page asking for JavaScript and cookies', '<noscript>Enable JavaScript and cookies to continue</noscript>'],
    ['a captcha', '<div class="g-recaptcha" data-sitekey="x">captcha</div>'],
    ['a check of the browser', '<h1>Checking your browser before accessing help.example.com</h1>'],
  ])('%s is a firewall challenge', (_name, page) => {
    expect(classifyAnswer(answer(403, page, HTML_TYPE)).origin).toMatchObject({ kind: 'front', front: 'waf' });
  });
});
