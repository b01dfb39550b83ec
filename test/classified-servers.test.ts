import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { contradictions } from '../src/diagnosis/causes.js';
import { OTHER_USER, WRONG_TOKEN } from '../src/exchange/credentials.js';
import type { StatusRecord } from '../src/reference-server/data.js';
import { translate } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { startAllBeforeAll } from './helpers/in-process-runs.js';
import { requirementsWith } from './helpers/expect-run.js';
import { serveHttp, type LoopbackServer } from './helpers/loopback-server.js';
import type { CliRun } from './helpers/run-cli.js';
import { json, selfserviceTypes, serveUnusualApi, statuses, type Reply, type UnusualApi } from './helpers/unusual-api.js';

/**
 * Servers written for each class of answer the classification stage must read right: a front's page where a refusal
 * was due, the status inside PHP's messages, the token served in another form, pages beside the API's own answers,
 * the suite's own caps, bodies that do not decode, the envelope's own words, and what each diagnosis must name.
 */

const TOKEN = 'classified-token-3b7e91';
const FIRST = statuses[0] as StatusRecord;
const BIG_ID = 3_000_000_123;
const MAX_ID = Number.MAX_SAFE_INTEGER;
/** The first status, and the same status under a large id too. */
const holding =
  (large: number) =>
  (id: number): StatusRecord | undefined =>
    id === large || id === 1 ? { ...FIRST, id, translations: FIRST.translations.map((entry) => ({ ...entry, status_id: id })) } : undefined;
const { inProcess, cleanUpAfterAll } = fileResources();

const basic = (user: string, password = 'x'): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const pathOf = (request: IncomingMessage): URL => new URL(request.url ?? '/', 'http://classified.invalid');
const html = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers: { 'content-type': 'text/html; charset=UTF-8', ...headers },
});
/** The API's own success answers, for a front that serves what the API would. */
const servedStatus = (lang?: string): Reply => json(200, translate(FIRST, lang));
const servedListing = (): Reply => json(200, { status: 'success', message: null, data: selfserviceTypes });
const servedFor = (request: IncomingMessage): Reply =>
  pathOf(request).pathname === '/api/selfservice/type'
    ? servedListing()
    : servedStatus(pathOf(request).searchParams.get('lang') ?? undefined);

const CLOUDFLARE_522 =
  '<!DOCTYPE html><html><head><title>help.example.com | 522: Connection timed out</title></head><body><div id="cf-error-details"><span class="cf-error-code">522</span></div></body></html>';
const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';
const APACHE_503 =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>503 Service Unavailable</title>\n</head><body>\n<h1>Service Unavailable</h1>\n<p>The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.</p>\n<hr>\n<address>Apache/2.4.62 (Debian) Server at help.example.com Port 80</address>\n</body></html>\n';
const AKAMAI_403 =
  '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\nReference&#32;&#35;18&#46;2f3e4d5c\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18</P>\n</BODY>\n</HTML>\n';
const PHP_WARNING = '<br />\n<b>Warning</b>:  Undefined variable $locale in <b>/var/www/app/api/status.php</b> on line <b>42</b><br />\n';
const PHP_DEPRECATED = '\nDeprecated: Creation of dynamic property Status::$icon is deprecated in /var/www/app/Model.php on line 9\n';
const SPA_PAGE =
  '<!DOCTYPE html><html><head><title>Help Desk</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>';
const PHP_FATAL =
  '<br />\n<b>Fatal error</b>:  Uncaught Error: Call to undefined function mb_strtolower() in /var/www/app/api/auth.php:17\nStack trace:\n#0 {main}\n  thrown in <b>/var/www/app/api/auth.php</b> on line <b>17</b><br />\n';

const nested = (depth: number): unknown => {
  let value: unknown = 0;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

interface ClassCase {
  name: string;
  /** An API written for the case, or a raw handler for what the API helper cannot send. */
  api?: UnusualApi;
  raw?: (request: IncomingMessage, response: ServerResponse) => void;
  /** More arguments for the run. */
  args?: string[];
  exit: 0 | 1 | 2;
  /** Exactly the requirements that fail; those that could not be judged (error); those that must pass. */
  fail?: string[];
  unjudged?: string[];
  pass?: string[];
  /** Diagnoses that must be named (in any order, among others). */
  diagnoses?: string[];
  /** A line of the terminal output. */
  line?: RegExp;
  also?(report: Report, run: CliRun): void;
}

const cases: ClassCase[] = [
  // 1. A refusal counts only when the API refused: a front's page on it leaves it not judged, whatever else passed.
  {
    name: "a CDN's 522 page answers the wrong token",
    api: {
      front: (request) =>
        request.headers.authorization === basic(WRONG_TOKEN) ? html(522, CLOUDFLARE_522, { server: 'cloudflare' }) : undefined,
    },
    exit: 2,
    fail: [],
    unjudged: ['AUTH-WRONG-TOKEN-REFUSED'],
    pass: ['AUTH-TOKEN-ACCEPTED', 'AUTH-MISSING-HEADER-REFUSED'],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: "nginx's 502 page answers every request without credentials",
    api: {
      front: (request) => (request.headers.authorization === undefined ? html(502, NGINX_502, { server: 'nginx/1.24.0' }) : undefined),
    },
    exit: 2,
    fail: [],
    unjudged: ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: "Apache's 503 page answers the malformed headers",
    api: {
      front: (request) =>
        /^(Bearer|Basic %)/.test(request.headers.authorization ?? '')
          ? html(503, APACHE_503, { server: 'Apache/2.4.62 (Debian)' })
          : undefined,
    },
    exit: 2,
    fail: [],
    unjudged: ['AUTH-INVALID-HEADER-REFUSED'],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: "Akamai's block page answers the token sent as the password",
    api: {
      front: (request) =>
        request.headers.authorization === basic(OTHER_USER, TOKEN) ? html(403, AKAMAI_403, { server: 'AkamaiGHost' }) : undefined,
    },
    exit: 2,
    fail: [],
    unjudged: ['AUTH-TOKEN-AS-USER-NAME'],
  },

  // 2. A served resource is found inside PHP's messages.
  {
    name: 'a PHP warning printed before every answer',
    api: { text: (text) => `${PHP_WARNING}${text}` },
    exit: 1,
    fail: ['ENV-JSON', 'SELFSERVICE-ACCEPTED'],
    pass: ['AUTH-TOKEN-ACCEPTED', 'AUTH-WRONG-TOKEN-REFUSED'],
    diagnoses: ['php-display-errors'],
    line: /display_errors = Off/,
  },
  {
    name: 'a deprecation after the JSON, and the status handed to a wrong token',
    api: { accepts: () => true, text: (text) => `${text}${PHP_DEPRECATED}` },
    exit: 1,
    fail: [
      'ENV-JSON',
      'SELFSERVICE-ACCEPTED',
      'AUTH-WRONG-TOKEN-REFUSED',
      'AUTH-NEAR-MISS-TOKEN-REFUSED',
      'AUTH-TOKEN-AS-USER-NAME',
      'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS',
    ],
    diagnoses: ['authentication-not-enforced', 'php-display-errors'],
  },
  {
    name: 'a notice before the status handed to a request without credentials',
    api: {
      refuse: (why, route) =>
        why === 'missing' && route === 'status'
          ? {
              status: 200,
              body: `${PHP_WARNING}${JSON.stringify(translate(FIRST, undefined))}`,
              headers: { 'content-type': 'text/html' },
            }
          : json(401, { status: 'error', message: 'Unauthenticated.', data: [] }),
    },
    exit: 1,
    fail: ['AUTH-MISSING-HEADER-REFUSED'],
    pass: ['ENV-JSON', 'AUTH-TOKEN-ACCEPTED'],
  },

  // 3. Any credential form served is a positive control.
  {
    name: 'a framework that reads the token from the password only',
    api: { accepts: (_user, password, token) => password === token },
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-AS-USER-NAME', 'SELFSERVICE-ACCEPTED'],
    diagnoses: ['token-read-from-wrong-place'],
    line: /reads the token from the wrong place/,
  },
  {
    name: 'a framework that takes the token as a Bearer token only',
    api: {
      accepts: () => false,
      front: (request) => (request.headers.authorization === `Bearer ${TOKEN}` ? servedFor(request) : undefined),
    },
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED', 'AUTH-INVALID-HEADER-REFUSED', 'SELFSERVICE-ACCEPTED'],
    diagnoses: ['token-read-from-wrong-place'],
  },
  {
    name: 'a server that wants the token alone, without the colon',
    api: {
      accepts: () => false,
      front: (request) =>
        request.headers.authorization === `Basic ${Buffer.from(TOKEN).toString('base64')}` ? servedFor(request) : undefined,
    },
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED', 'AUTH-INVALID-HEADER-REFUSED', 'SELFSERVICE-ACCEPTED'],
    diagnoses: ['token-read-from-wrong-place'],
  },

  // 4. Where the API answers at this base URL, a page or nothing on another documented path is the API's failure.
  {
    name: "a front end's catch-all route takes the selfservice path",
    api: { front: (request) => (pathOf(request).pathname === '/api/selfservice/type' ? html(200, SPA_PAGE) : undefined) },
    exit: 1,
    fail: ['SELFSERVICE-ACCEPTED'],
    pass: ['AUTH-TOKEN-ACCEPTED'],
  },
  {
    name: 'the selfservice path answers 404 with an empty body',
    api: { front: (request) => (pathOf(request).pathname === '/api/selfservice/type' ? { status: 404, body: '' } : undefined) },
    exit: 1,
    fail: ['SELFSERVICE-ACCEPTED'],
  },
  {
    name: 'the lang requests get an empty 200',
    api: {
      front: (request) =>
        pathOf(request).searchParams.has('lang') ? { status: 200, body: '', headers: { 'content-type': 'text/html' } } : undefined,
    },
    exit: 1,
    fail: ['ENV-JSON', 'LANG-KEEPS-TRANSLATIONS', 'LANG-OTHER-FIELDS-UNCHANGED', 'LANG-TRANSLATION-REPLACES'],
  },
  {
    name: "a catch-all route takes the status path while the listing is the API's",
    api: { front: (request) => (pathOf(request).pathname.startsWith('/api/ticket/status/') ? html(200, SPA_PAGE) : undefined) },
    exit: 1,
    fail: ['ENV-JSON', 'AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED'],
    diagnoses: ['catch-all-route'],
  },

  // 6. The suite's own caps are never the server's fault.
  {
    name: 'an extra field nested 600 levels deep, beyond the suite cap',
    api: { status: (envelope) => ({ ...envelope, meta: nested(600) }) },
    exit: 2,
    fail: [],
    line: /nested more than 512 levels deep, the suite's cap/,
    also: (report) => expect(codes(report)).toContain('HARNESS_SUITE_LIMIT'),
  },
  {
    name: 'an extra field nested 500 levels deep, as deep as the vendor client reads',
    api: { status: (envelope) => ({ ...envelope, meta: nested(500) }) },
    exit: 0,
  },
  {
    name: 'an extra field of 30,000 values, beyond the suite cap',
    api: { status: (envelope) => ({ ...envelope, meta: Array.from({ length: 30_000 }, () => 0) }) },
    exit: 2,
    fail: [],
    line: /more than the 20000 the suite reads of one answer \(its cap\)/,
  },

  // 7. A body that does not decode is a failure, not a silent fallback.
  {
    name: 'a gzip label on plain JSON',
    raw: (request, response) => rawReply(request, response, (body) => Buffer.from(body), { 'content-encoding': 'gzip' }),
    exit: 1,
    fail: ['ENV-JSON', 'AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED', 'SELFSERVICE-ACCEPTED'],
    line: /does not decode/,
  },
  {
    name: 'a gzip stream cut short',
    raw: (request, response) => rawReply(request, response, (body) => gzipSync(body).subarray(0, 20), { 'content-encoding': 'gzip' }),
    exit: 1,
    fail: ['ENV-JSON', 'AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED', 'SELFSERVICE-ACCEPTED'],
  },
  {
    name: 'gzip bytes labelled brotli',
    raw: (request, response) => rawReply(request, response, (body) => gzipSync(body), { 'content-encoding': 'br' }),
    exit: 1,
    fail: ['ENV-JSON', 'AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED', 'SELFSERVICE-ACCEPTED'],
  },
  {
    name: 'a coding the request did not accept (zstd from a CDN): named, with the fix',
    raw: (request, response) => rawReply(request, response, (body) => gzipSync(body), { 'content-encoding': 'zstd' }),
    exit: 1,
    fail: ['ENV-JSON', 'AUTH-TOKEN-ACCEPTED', 'AUTH-PASSWORD-IGNORED', 'SELFSERVICE-ACCEPTED'],
    line: /Content-Encoding: zstd, which the request did not accept \(Accept-Encoding: gzip, deflate, br\)[^]*Compress it only in a coding the request accepts/,
  },
  {
    name: "a coding the suite does not know on plain JSON (PHP's header('Content-Encoding: UTF-8')): read as it came",
    raw: (request, response) => rawReply(request, response, (body) => Buffer.from(body), { 'content-encoding': 'UTF-8' }),
    // What fails is this stub's own: it serves status 1 for any id and refuses any password but x.
    exit: 1,
    fail: ['AUTH-PASSWORD-IGNORED', 'STATUS-ID'],
    pass: ['ENV-JSON', 'AUTH-TOKEN-ACCEPTED', 'SELFSERVICE-ACCEPTED'],
  },

  // 8. The envelope is the envelope.
  {
    name: 'a success envelope whose data is null',
    api: { status: (envelope) => ({ ...envelope, data: null }) },
    exit: 1,
    fail: ['ENV-DATA-OBJECT'],
    pass: ['AUTH-TOKEN-ACCEPTED', 'AUTH-WRONG-TOKEN-REFUSED'],
  },
  {
    name: 'an empty success listing for a request without credentials',
    api: {
      refuse: (why, route) =>
        route === 'selfservice' && why === 'missing'
          ? json(200, { status: 'success', message: null, data: [] })
          : json(401, { status: 'error', message: 'Unauthenticated.', data: [] }),
    },
    exit: 1,
    fail: ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },
  {
    name: 'a success envelope without data for a status request without credentials',
    api: {
      refuse: (why, route) =>
        route === 'status' && why === 'missing'
          ? json(200, { status: 'success', message: null, data: null })
          : json(401, { status: 'error', message: 'Unauthenticated.', data: [] }),
    },
    exit: 1,
    fail: ['AUTH-MISSING-HEADER-REFUSED'],
  },

  // 9. Diagnoses name the real cause.
  {
    name: 'a token column with a case-insensitive collation',
    api: { accepts: (user, _password, token) => user.toLowerCase() === token.toLowerCase() },
    exit: 1,
    fail: ['AUTH-NEAR-MISS-TOKEN-REFUSED'],
    diagnoses: ['token-compared-case-insensitively'],
    line: /utf8mb4_bin/,
  },
  {
    name: 'a token compared on its first characters',
    api: { accepts: (user, _password, token) => user.slice(0, token.length - 1) === token.slice(0, -1) },
    exit: 1,
    fail: ['AUTH-NEAR-MISS-TOKEN-REFUSED'],
    diagnoses: ['token-compared-by-prefix'],
  },
  {
    name: "PHP-FPM's File not found on every path",
    api: {
      front: () => ({ status: 404, body: 'File not found.\n', headers: { 'content-type': 'text/html; charset=UTF-8', server: 'nginx' } }),
    },
    exit: 2,
    fail: [],
    diagnoses: ['php-fpm-script-not-found'],
    line: /SCRIPT_FILENAME/,
    also: (report) => expect(report.diagnoses[0]?.summary).not.toMatch(/try_files/),
  },
  {
    name: 'a PHP fatal error on every request',
    api: { front: () => html(500, PHP_FATAL) },
    exit: 1,
    diagnoses: ['application-failed'],
    line: /the request reached the application, and the application failed: PHP stopped it with a fatal error/,
  },
  {
    name: 'the database down',
    api: { front: () => json(500, { status: 'error', message: 'SQLSTATE[HY000] [2002] Connection refused', data: [] }) },
    exit: 1,
    diagnoses: ['application-failed'],
    line: /it cannot reach its database/,
  },
  {
    name: "a CDN's cache that ignores the query string answers lang",
    api: {
      front: (request) =>
        pathOf(request).searchParams.has('lang')
          ? { ...servedStatus(), headers: { 'content-type': 'application/json', 'cf-cache-status': 'HIT', age: '42' } }
          : undefined,
    },
    exit: 1,
    fail: ['LANG-TRANSLATION-REPLACES'],
    diagnoses: ['cache-ignores-query-string'],
  },
  {
    name: 'an empty body on every path',
    api: { front: () => ({ status: 200, body: '', headers: { 'content-type': 'text/html; charset=UTF-8' } }) },
    exit: 2,
    fail: [],
    diagnoses: ['api-path-answers-empty'],
    also: (report) => expect(report.diagnoses.map((diagnosis) => diagnosis.summary).join(' ')).not.toMatch(/HTML/),
  },
  {
    name: 'a translated name in another Unicode normalisation form',
    api: {
      status: (envelope, { lang }) => {
        const data = envelope.data as Record<string, unknown>;
        return lang === undefined ? envelope : { ...envelope, data: { ...data, name: String(data.name).normalize('NFD') } };
      },
      find: (id) => (id === 1 ? { ...FIRST, translations: [{ status_id: 1, locale: 'fr', name: 'Ouvert é' }] } : undefined),
    },
    exit: 1,
    fail: ['LANG-TRANSLATION-REPLACES'],
    line: /U\+0065 U\+0301/,
  },

  // 10. Any integer id the document allows, compared as the JSON text holds it.
  {
    name: 'a status id beyond 2^31',
    api: {
      find: holding(BIG_ID),
    },
    args: ['--status-id', String(BIG_ID)],
    exit: 0,
  },
  {
    name: 'a status id beyond 2^31 answered with its neighbour',
    api: {
      find: holding(BIG_ID),
      text: (text) => text.replace(`"id":${BIG_ID},`, `"id":${BIG_ID + 1},`),
    },
    args: ['--status-id', String(BIG_ID)],
    exit: 1,
    fail: ['STATUS-ID'],
    line: new RegExp(`data\\.id: ${BIG_ID + 1}`),
  },
  {
    name: 'the largest id sent exactly, answered as 1.0-style text with the same value',
    api: {
      find: holding(MAX_ID),
      text: (text) => text.replace(`"id":${MAX_ID},`, `"id":${MAX_ID}.0,`),
    },
    args: ['--status-id', String(MAX_ID)],
    exit: 1,
    fail: ['STATUS-ID'],
  },

  // 11. Every front's words are read in every answer, the API's own JSON envelope shape included.
  {
    name: "a WAF's block words inside a JSON envelope answer the wrong token",
    api: {
      front: (request) =>
        request.headers.authorization === basic(WRONG_TOKEN)
          ? json(403, { status: 'error', message: 'Access Denied - Sucuri Website Firewall', data: null })
          : undefined,
    },
    exit: 2,
    fail: [],
    unjudged: ['AUTH-WRONG-TOKEN-REFUSED'],
    pass: ['AUTH-TOKEN-ACCEPTED', 'AUTH-MISSING-HEADER-REFUSED'],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: "Imperva's incident in a JSON envelope answers the listing without credentials",
    api: {
      front: (request) =>
        request.headers.authorization === undefined && pathOf(request).pathname === '/api/selfservice/type'
          ? json(403, { status: 'error', message: 'Request unsuccessful. Incapsula incident ID: 1203000420157613412-116021', data: [] })
          : undefined,
    },
    exit: 2,
    fail: [],
    unjudged: ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
    pass: ['AUTH-TOKEN-ACCEPTED', 'SELFSERVICE-ACCEPTED'],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: "the API's own envelopes passed through a CDN that marks each of them",
    api: { passedThrough: { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6a7b-FRA', 'x-served-by': 'cache-fra19123-FRA' } },
    exit: 0,
    fail: [],
    pass: ['AUTH-TOKEN-ACCEPTED', 'AUTH-WRONG-TOKEN-REFUSED', 'AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },
];

const codes = (report: Report): string[] =>
  report.requirements.flatMap((result) => result.checks.flatMap((check) => (check.error ? [check.error.code] : [])));

/** The reference answers, each body turned into bytes by `encode` and sent with those headers. */
function rawReply(
  request: IncomingMessage,
  response: ServerResponse,
  encode: (body: string) => Buffer,
  headers: Record<string, string>,
): void {
  const reply =
    request.headers.authorization === basic(TOKEN)
      ? servedFor(request)
      : json(401, { status: 'error', message: 'Unauthenticated.', data: [] });
  const bytes = encode(reply.body);
  response.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  response.end(bytes);
}

async function serverFor(entry: ClassCase): Promise<LoopbackServer> {
  if (entry.raw) return serveHttp(entry.raw);
  return serveUnusualApi(TOKEN, entry.api ?? {});
}

async function runCase(entry: ClassCase): Promise<CliRun> {
  const server = await serverFor(entry);
  cleanUpAfterAll(server.close);
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, ...(entry.args ?? [])]);
  cleanUpAfterAll(run.cleanup);
  return run;
}

const runOf = startAllBeforeAll(cases.map((entry) => [entry.name, () => runCase(entry)]));

describe('every answer classified once: who answered and what it means decide the verdict', () => {
  test.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const run = await runOf(entry.name);
    const report = run.report as Report;
    expect({ exit: run.code, stderr: run.stderr }).toEqual({ exit: entry.exit, stderr: '' });
    expect(report.exitCode).toBe(entry.exit);
    expect(contradictions(report.diagnoses, report.exchanges)).toEqual([]);
    if (entry.fail) expect(requirementsWith(report, 'fail')).toEqual([...entry.fail].sort());
    for (const id of entry.unjudged ?? []) expect(requirementsWith(report, 'error')).toContain(id);
    for (const id of entry.pass ?? []) expect(requirementsWith(report, 'pass')).toContain(id);
    for (const id of entry.diagnoses ?? []) expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toContain(id);
    if (entry.line) expect(run.stdout).toMatch(entry.line);
    entry.also?.(report, run);
  });
});
