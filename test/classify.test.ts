import { describe, expect, test } from 'vitest';
import { classifyAnswer, type ClassifiedInput } from '../src/classify/classify.js';
import { memberText } from '../src/classify/json-text.js';
import { parseJson } from '../src/exchange/body-text.js';

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
      "Fastly's Guru Meditation",
      answer(503, '<html><h1>Error 503 Backend fetch failed</h1><p>Guru Meditation: XID: 1</p></html>', HTML_TYPE),
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
      'the API gateway in front of the API',
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
