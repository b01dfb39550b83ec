import { describe, expect, test } from 'vitest';
import { classifyAnswer, type ClassifiedInput } from '../src/classify/classify.js';
import type { Classified, FrontName, Reach } from '../src/classify/types.js';
import { parseJson } from '../src/exchange/body-text.js';
import { webServerRefusal, whyNotJudged } from '../src/judge/unjudged.js';

/** When a check of an answer judges the API, and when it is set aside: the answers as fronts and servers send them. */

const API_ANSWERED: Reach = { apiAnswered: true, servedStatusTo: { 1: ['valid'] }, servedListingTo: ['valid'] };
const NOTHING_ANSWERED: Reach = { apiAnswered: false, servedStatusTo: { 1: [] }, servedListingTo: [] };
const HTML = { 'content-type': 'text/html; charset=iso-8859-1' };

const classified = (status: number, bodyText: string, headers: Record<string, string> = HTML): Classified => {
  const input: ClassifiedInput = { apiPath: '/api/ticket/status/1', status, headers, bodyText };
  return classifyAnswer({ ...input, json: parseJson({ text: bodyText }) });
};
const APACHE_404 = classified(
  404,
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n<hr>\n<address>Apache/2.4.62 (Debian) Server at help.example.com Port 80</address>\n</body></html>\n',
);
const NGINX_502 = classified(
  502,
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n',
);
const FPM_NOT_FOUND = classified(404, 'File not found.\n');
const CLOUDFLARE_BLOCK = classified(
  403,
  '<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1></body></html>',
  { ...HTML, server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' },
);
const API_REFUSAL = classified(401, '{"status":"error","message":"Invalid authentication credentials.","data":[]}', {
  'content-type': 'application/json',
});
const frontOf = (front: FrontName): Classified => ({
  origin: { kind: 'front', front, evidence: `HTTP 403: the ${front}'s page` },
  meaning: { kind: 'error-page' },
});

describe("a body beyond the suite's own caps", () => {
  test("is the suite's limit, never the target's failure, whoever sent it", () => {
    const deep = `{"status":"success","data":${'['.repeat(600)}${']'.repeat(600)}}`;
    const capped = classified(200, deep, { 'content-type': 'application/json' });
    expect(capped.meaning).toMatchObject({ kind: 'undecodable', why: 'suite-limit' });
    const detail = capped.meaning.kind === 'undecodable' ? capped.meaning.detail : '';
    for (const passed of [true, false]) {
      expect(whyNotJudged(capped, 200, API_ANSWERED, { ok: passed })).toEqual({
        code: 'HARNESS_SUITE_LIMIT',
        message: `not judged: ${detail}`,
        hint: "The cap is the suite's own, not a rule of the document: judge this answer by hand, or report the answer that needs a higher cap",
        party: 'suite',
      });
    }
  });

  test("a body that does not decode is judged: curl and the vendor's client fail on it too", () => {
    const undecodable: Classified = {
      origin: { kind: 'unknown', evidence: 'a body that is not UTF-8' },
      meaning: { kind: 'undecodable', why: 'encoding', detail: 'not UTF-8' },
    };
    expect(whyNotJudged(undecodable, 200, NOTHING_ANSWERED, { ok: false })).toBeUndefined();
  });
});

describe("a front's page", () => {
  test("a CDN's block page is never judged, even where the API answered other requests and the check failed", () => {
    expect(whyNotJudged(CLOUDFLARE_BLOCK, 403, API_ANSWERED, { ok: false })).toEqual({
      code: 'HARNESS_NOT_THE_API',
      message: "not judged: Cloudflare answered instead of the API (HTTP 403: Cloudflare's block page)",
      hint: 'What stands in front of the API answered this request: see the diagnosis for what to change, then run again',
      party: 'environment',
    });
    expect(whyNotJudged(CLOUDFLARE_BLOCK, 403, API_ANSWERED, { ok: true })?.code).toBe('HARNESS_NOT_THE_API');
  });

  test.each(['cdn', 'waf', 'proxy', 'gateway', 'cache', 'sso', 'captive-portal', 'maintenance'] as const)(
    "a %s stands outside the deployment: a failure on its answer is not the API's",
    (front) => {
      expect(whyNotJudged(frontOf(front), 403, API_ANSWERED, { ok: false })).toMatchObject({
        code: 'HARNESS_NOT_THE_API',
        party: 'environment',
      });
    },
  );

  test("the web server's own 404 page fails a check once the API is seen answering here: a rewrite that misses a path", () => {
    expect(whyNotJudged(APACHE_404, 404, API_ANSWERED, { ok: false })).toBeUndefined();
    expect(whyNotJudged(FPM_NOT_FOUND, 404, API_ANSWERED, { ok: false })).toBeUndefined();
  });

  test('the same page never passes a check (a refusal), and judges nothing where the API never answered', () => {
    expect(whyNotJudged(APACHE_404, 404, API_ANSWERED, { ok: true })).toMatchObject({
      code: 'HARNESS_NOT_THE_API',
      message: "not judged: Apache answered instead of the API (HTTP 404: Apache's own error page)",
    });
    expect(whyNotJudged(APACHE_404, 404, NOTHING_ANSWERED, { ok: false })?.code).toBe('HARNESS_NOT_THE_API');
  });

  test("the web server's own 401 or 403 page passes a refusal only where the same path was served in the run", () => {
    const apache401 = classified(
      401,
      '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>401 Unauthorized</title>\n</head><body>\n<h1>Unauthorized</h1>\n<p>This server could not verify that you\nare authorized to access the document\nrequested.</p>\n</body></html>\n',
    );
    expect(apache401.origin).toMatchObject({ kind: 'front', front: 'web-server', vendor: 'Apache' });
    const refusal = { ok: true, refusal: true } as const;
    expect(webServerRefusal(apache401, 401, refusal, ['valid'])).toBe(
      "Apache's own HTTP 401 page refused it, while this path was served in the same run: the deployment refuses these credentials",
    );
    expect(whyNotJudged(apache401, 401, API_ANSWERED, refusal, ['valid'])).toBeUndefined();
    // Nothing served on that path: its own password, or a page in front of everything, proves nothing.
    expect(whyNotJudged(apache401, 401, API_ANSWERED, refusal, [])?.code).toBe('HARNESS_NOT_THE_API');
    // Only a refusal that passed, only a refusal's code, and only the web server's own page.
    expect(webServerRefusal(apache401, 401, { ok: true }, ['valid'])).toBeUndefined();
    expect(webServerRefusal(APACHE_404, 404, refusal, ['valid'])).toBeUndefined();
    expect(webServerRefusal(NGINX_502, 502, refusal, ['valid'])).toBeUndefined();
    expect(webServerRefusal(CLOUDFLARE_BLOCK, 403, refusal, ['valid'])).toBeUndefined();
    expect(whyNotJudged(CLOUDFLARE_BLOCK, 403, API_ANSWERED, refusal, ['valid'])?.code).toBe('HARNESS_NOT_THE_API');
  });

  test('a gateway error page judges nothing: the application did not take the request', () => {
    expect(NGINX_502.origin).toMatchObject({ kind: 'front', front: 'web-server' });
    expect(whyNotJudged(NGINX_502, 502, API_ANSWERED, { ok: false })).toMatchObject({
      code: 'HARNESS_NOT_THE_API',
      message: "not judged: nginx answered instead of the API (HTTP 502: nginx's own error page)",
    });
  });
});

describe('an answer nobody can be told to have written', () => {
  const unknown = {
    'an HTML page': classified(200, '<!DOCTYPE html><html><head><title>Help Desk</title></head><body><div id="app"></div></body></html>'),
    'an empty body': classified(200, '', {}),
    'a redirect': classified(302, '', { location: '/login' }),
    'text that is not JSON': classified(200, 'Service is up.', { 'content-type': 'text/plain' }),
  };

  test.each(Object.entries(unknown))('%s judges nothing while no answer of the run came from the API', (_name, answer) => {
    expect(answer.origin.kind).toBe('unknown');
    expect(whyNotJudged(answer, 200, NOTHING_ANSWERED, { ok: false })).toEqual({
      code: 'HARNESS_NOT_THE_API',
      message: `not judged: no answer of this run came from the API at this base URL, and this one cannot be told to (${answer.origin.kind === 'unknown' ? answer.origin.evidence : ''})`,
      hint: 'Check --base-url: it must be the address of the service, the one the API paths /api/... are added to',
      party: 'environment',
    });
  });

  test.each(Object.entries(unknown))("%s is the API's once the API is seen answering at this base URL", (_name, answer) => {
    expect(whyNotJudged(answer, 200, API_ANSWERED, { ok: false })).toBeUndefined();
  });
});

test("the API's own answer is always judged, even one that does not parse where nothing else came from the API", () => {
  expect(whyNotJudged(API_REFUSAL, 401, NOTHING_ANSWERED, { ok: false })).toBeUndefined();
  const broken = classified(200, '{"status":"success","data":{"id":1,', { 'content-type': 'application/json' });
  expect(broken).toMatchObject({ origin: { kind: 'api' }, meaning: { kind: 'undecodable', why: 'not-json' } });
  expect(whyNotJudged(broken, 200, NOTHING_ANSWERED, { ok: false })).toBeUndefined();
  expect(whyNotJudged(API_REFUSAL, 401, API_ANSWERED, { ok: true })).toBeUndefined();
});

describe('who a set-aside answer names when no vendor signed it', () => {
  test.each([
    ['cdn', 'a CDN'],
    ['waf', 'a web application firewall'],
    ['proxy', 'a proxy'],
    ['gateway', 'an API gateway'],
    ['cache', 'a cache'],
    ['web-server', 'the web server'],
    ['php-fpm', 'PHP-FPM'],
    ['php-runtime', 'the PHP runtime'],
    ['sso', 'a single sign-on front'],
    ['captive-portal', 'a captive portal'],
    ['maintenance', 'a maintenance page'],
  ] as const)('a %s is named by its kind: %s', (front, words) => {
    expect(whyNotJudged(frontOf(front), 403, NOTHING_ANSWERED, { ok: false })?.message).toBe(
      `not judged: ${words} answered instead of the API (HTTP 403: the ${front}'s page)`,
    );
  });
});
