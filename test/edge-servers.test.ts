import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import { WRONG_TOKEN } from '../src/exchange/credentials.js';
import type { StatusRecord } from '../src/reference-server/data.js';
import { translate } from '../src/reference-server/server.js';
import type { Report, Verdict } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import { serveHttp } from './helpers/loopback-server.js';
import type { CliRun } from './helpers/run-cli.js';
import {
  errorReply,
  json,
  page,
  selfserviceTypes,
  serveUnusualApi,
  statuses,
  withData,
  type Reply,
  type UnusualApi,
} from './helpers/unusual-api.js';

/**
 * Servers as they are deployed at the edges the other self-tests leave out: frameworks' own refusals and error pages,
 * CDNs, SSO and proxies in front, caches, near misses on one status of several, and set-up mistakes, each with the
 * exit code and the requirements or cause the document and the rules of judgement give it.
 */

const TOKEN = 'edge-Token-7c41d9a3';
const { inProcess, cleanUpAfterAll } = fileResources();

const urlOf = (request: IncomingMessage): URL => new URL(request.url ?? '/', 'http://edge.invalid');
const onStatus = (id: number) => (request: IncomingMessage) => urlOf(request).pathname === `/api/ticket/status/${id}`;
const onListing = (request: IncomingMessage): boolean => urlOf(request).pathname === '/api/selfservice/type';
const withLang = (request: IncomingMessage): boolean => urlOf(request).searchParams.has('lang');
const noHeader = (request: IncomingMessage): boolean => request.headers.authorization === undefined;
const basicUser = (request: IncomingMessage): string =>
  Buffer.from((request.headers.authorization ?? '').replace(/^Basic\s+/i, ''), 'base64')
    .toString('utf8')
    .split(':')[0] ?? '';
/** A front that answers the requests `when` picks, and lets the others through to the API. */
const frontFor =
  (when: (request: IncomingMessage) => boolean, reply: UnusualApi['front']): UnusualApi['front'] =>
  (request) =>
    when(request) ? reply?.(request) : undefined;
const html = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers: { 'content-type': 'text/html; charset=UTF-8', ...headers },
});
/** Basic credentials whose user name is the token, with a colon after it. */
const holdsToken = (request: IncomingMessage): boolean =>
  Buffer.from((request.headers.authorization ?? '').replace(/^Basic\s+/i, ''), 'base64')
    .toString('utf8')
    .startsWith(`${TOKEN}:`);
/** The answer the API serves to the valid token. */
const servedFor = (request: IncomingMessage): Reply => {
  const url = urlOf(request);
  if (url.pathname === '/api/selfservice/type') return json(200, { status: 'success', message: null, data: selfserviceTypes });
  const record = statuses.find((entry) => `/api/ticket/status/${entry.id}` === url.pathname);
  return record ? json(200, translate(record, url.searchParams.get('lang') ?? undefined)) : errorReply(404, 'Not found.');
};
const CACHING = {
  etag: 'W/"5f3a-1a2b3c"',
  'cache-control': 'private, max-age=60, must-revalidate',
  vary: 'Authorization, Accept-Encoding, Accept-Language',
  'last-modified': 'Wed, 15 Feb 2017 13:18:58 GMT',
};
const without = (value: Record<string, unknown>, field: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([name]) => name !== field));
/** A PHP front controller: the script's own name is taken off the path once, and the rest is the route. */
const frontController: UnusualApi['front'] = (request) => {
  if (request.url?.startsWith('/index.php/')) request.url = request.url.slice('/index.php'.length);
  return undefined;
};
/** Refusals throttled once three have been given, as a guard against guessing tokens does. */
function throttledAfterThree(): UnusualApi['refuse'] {
  let refusals = 0;
  return () => {
    refusals += 1;
    return refusals > 3
      ? json(429, { message: 'Too Many Attempts.' }, { 'retry-after': '3600' })
      : json(401, { message: 'Unauthenticated.' });
  };
}
const onStatusOf =
  (id: number, change: UnusualApi['status']): UnusualApi['status'] =>
  (envelope, request) =>
    request.id === id ? change?.(envelope, request) : envelope;

const PHP_WARNING = '<br />\n<b>Warning</b>:  Undefined array key "PHP_AUTH_USER" in <b>/var/www/api/auth.php</b> on line <b>7</b><br />\n';
const LARAVEL_500_PAGE =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Server Error</title>\n</head>\n<body class="antialiased">\n<div class="flex items-center pt-8 sm:justify-start sm:pt-0"><div class="px-4 text-lg text-gray-500 border-r border-gray-400 tracking-wider">500</div><div class="ml-4 text-lg text-gray-500 uppercase tracking-wider">Server Error</div></div>\n</body>\n</html>\n';
const SYMFONY_500_PAGE =
  '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="UTF-8" />\n<title>An Error Occurred: Internal Server Error</title>\n</head>\n<body>\n<div class="container">\n<h1>Oops! An Error Occurred</h1>\n<h2>The server returned a "500 Internal Server Error".</h2>\n<p>Something is broken. Please let us know what you were doing when this error occurred.</p>\n</div>\n</body>\n</html>\n';
const PHP_FATAL_TEXT =
  'PHP Fatal error:  Uncaught PDOException: SQLSTATE[HY000] [2002] No such file or directory in /var/www/app/db.php:12\nStack trace:\n#0 /var/www/app/db.php(12): PDO->__construct()\n#1 {main}\n  thrown in /var/www/app/db.php on line 12\n';
const CLOUDFLARE = { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' };
const CLOUDFLARE_1020_PAGE =
  '<!DOCTYPE html><html lang="en-US"><head><title>Access denied | help.example.com used Cloudflare to restrict access</title></head><body><div id="cf-wrapper"><div id="cf-error-details"><h1><span class="cf-error-type">Error</span> <span class="cf-error-code">1020</span></h1><h2 class="cf-subheadline">Access denied</h2><p>This website is using a security service to protect itself from online attacks.</p><span>Cloudflare Ray ID: <strong>8a1b2c3d4e5f6071</strong></span></div></div></body></html>';
const MAINTENANCE_PAGE =
  '<!DOCTYPE html><html><head><title>Scheduled maintenance</title></head><body><h1>The help desk is down for scheduled maintenance</h1><p>Please come back in an hour.</p></body></html>';
const ZSCALER_407_PAGE =
  '<html><head><title>Proxy Authentication Required</title></head><body><h1>Proxy Authentication Required</h1><p>Your organization requires you to authenticate to the Internet gateway before browsing.</p></body></html>';

/** Status 2's translations carry status 1's id. */
const STATUS_2 = statuses[1] as StatusRecord;

interface EdgeCase {
  name: string;
  /** A server written for the case, or a raw handler for what that server cannot send. */
  api?: UnusualApi;
  raw?: (request: IncomingMessage, response: ServerResponse) => void;
  url?(url: string): string;
  args?: string[];
  /** The token the CLI is given, when it is not the one the server holds. */
  cliToken?: string;
  exit: 0 | 1 | 2;
  fail?: string[];
  warn?: string[];
  /** Exactly the requirements left unjudged (error) because something other than the API answered. */
  unjudged?: string[];
  /** Requirements skipped, never passed. */
  skip?: string[];
  /** Exactly the diagnoses named, and diagnoses that must not be. */
  diagnoses?: string[];
  notDiagnosed?: string[];
  line?: RegExp;
  also?(report: Report, run: CliRun): void;
}

const SEVERAL = ['--status-id', '1,2'];

/** The reference answers, with the status and the listing served gzipped, and every refusal plain. */
function gzipOnServed(request: IncomingMessage, response: ServerResponse): void {
  const url = urlOf(request);
  const valid = holdsToken(request);
  const status = /^\/api\/ticket\/status\/(\d+)$/.exec(url.pathname);
  const record = statuses.find((entry) => entry.id === Number(status?.[1]));
  let reply: Reply;
  if (!valid) reply = errorReply(401, 'Invalid authentication credentials.');
  else if (url.pathname === '/api/selfservice/type') reply = json(200, { status: 'success', message: null, data: selfserviceTypes });
  else if (record) reply = json(200, translate(record, url.searchParams.get('lang') ?? undefined));
  else reply = errorReply(404, 'Not found.');
  const zipped = reply.status === 200;
  const bytes = zipped ? gzipSync(reply.body) : Buffer.from(reply.body);
  response.writeHead(reply.status, {
    ...reply.headers,
    'content-length': String(bytes.length),
    ...(zipped ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
  });
  response.end(bytes);
}

const LANG = ['LANG-KEEPS-TRANSLATIONS', 'LANG-OTHER-FIELDS-UNCHANGED', 'LANG-TRANSLATION-REPLACES'];
const REFUSALS_OF_A_WRONG_TOKEN = [
  'AUTH-NEAR-MISS-TOKEN-REFUSED',
  'AUTH-TOKEN-AS-USER-NAME',
  'AUTH-WRONG-TOKEN-REFUSED',
  'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS',
];
const SERVED_NOTHING = ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED', 'SELFSERVICE-ACCEPTED'];
/** Status 1's translations, each locale written in capitals. */
const capitalLocales: UnusualApi['status'] = (envelope) => {
  const data = envelope.data as { translations: { locale: string }[] };
  return withData(envelope, { translations: data.translations.map((entry) => ({ ...entry, locale: entry.locale.toUpperCase() })) });
};

const cases: EdgeCase[] = [
  // Conformant oddities: the document leaves each open, so each passes.
  {
    name: 'Laravel: {"message":"Unauthenticated."} with 401 and WWW-Authenticate',
    api: { refuse: () => json(401, { message: 'Unauthenticated.' }, { 'www-authenticate': 'Basic realm="Help desk API"' }) },
    exit: 0,
  },
  {
    name: 'JSend: refusals as HTTP 200 {"status":"fail"}',
    api: { refuse: () => json(200, { status: 'fail', data: { authorization: 'A valid API token is required.' } }) },
    exit: 0,
  },
  {
    name: 'refusals as RFC 9457 problem details',
    api: {
      refuse: () => ({
        status: 401,
        body: JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Invalid API token.' }),
        headers: { 'content-type': 'application/problem+json' },
      }),
    },
    exit: 0,
  },
  {
    name: 'caching headers on every answer: ETag, Cache-Control, Vary, Last-Modified',
    api: {
      front: (request) => {
        if (!holdsToken(request)) return undefined;
        const reply = servedFor(request);
        return { ...reply, headers: { ...reply.headers, ...CACHING } };
      },
      refuse: () =>
        json(401, { status: 'error', message: 'Unauthenticated.', data: [] }, { 'cache-control': 'no-store', vary: 'Authorization' }),
    },
    exit: 0,
  },
  { name: 'gzip on the served answers only, refusals plain', raw: gzipOnServed, exit: 0 },
  {
    name: 'a status with no translation at all: what needs one is skipped, never passed',
    args: ['--status-id', '3'],
    exit: 0,
    skip: ['LANG-OTHER-FIELDS-UNCHANGED', 'LANG-TRANSLATION-REPLACES', 'TRANSLATION-LOCALE', 'TRANSLATION-NAME', 'TRANSLATION-STATUS-ID'],
  },
  { name: 'statuses 1 to 4, each with translations of its own or none', args: ['--status-id', '1,2,3,4', '--lang', 'fr,de'], exit: 0 },
  {
    name: 'lang matched without regard to case, asked in capitals',
    api: {
      status: (envelope, request) =>
        request.lang === undefined
          ? envelope
          : translate(statuses.find((status) => status.id === request.id) as StatusRecord, request.lang, true),
    },
    args: ['--lang', 'FR'],
    exit: 0,
  },
  {
    name: 'locales listed in capitals, and lang matched without regard to case',
    api: {
      status: (envelope, request) =>
        capitalLocales(
          request.lang === undefined
            ? envelope
            : translate(statuses.find((status) => status.id === request.id) as StatusRecord, request.lang, true),
          request,
        ),
    },
    exit: 0,
  },
  {
    name: 'colours in upper-case hexadecimal',
    api: { status: (envelope) => withData(envelope, { colour: String((envelope.data as { colour: string }).colour).toUpperCase() }) },
    exit: 0,
  },
  {
    name: 'times in milliseconds, an auto_close of 2 and an order of 0',
    api: {
      status: (envelope) => {
        const data = envelope.data as { created_at: number; updated_at: number };
        return withData(envelope, { created_at: data.created_at * 1000, updated_at: data.updated_at * 1000, auto_close: 2, order: 0 });
      },
    },
    exit: 0,
  },
  {
    name: 'an empty selfservice listing',
    api: {
      front: (request) =>
        holdsToken(request) && onListing(request) ? json(200, { status: 'success', message: null, data: [] }) : undefined,
    },
    exit: 0,
  },
  {
    name: 'a 500 for a locale with no translation, whose fallback is not shown',
    api: {
      front: (request) => {
        const lang = urlOf(request).searchParams.get('lang');
        return lang !== null && !['fr', 'de'].includes(lang)
          ? json(500, { status: 'error', message: `Undefined array key "${lang}"`, data: [] })
          : undefined;
      },
    },
    exit: 0,
  },

  {
    name: 'refusals as HTTP 200 with the text "Access denied"',
    api: { refuse: () => ({ status: 200, body: 'Access denied', headers: { 'content-type': 'text/html; charset=UTF-8' } }) },
    exit: 0,
  },
  {
    name: 'refusals as HTTP 200 with an empty body',
    api: { refuse: () => ({ status: 200, body: '', headers: { 'content-type': 'text/html; charset=UTF-8' } }) },
    exit: 0,
  },
  {
    name: "PHP's warning before the refusal of a request without credentials: display_errors named, the refusal still one",
    api: {
      refuse: (why) =>
        why === 'missing'
          ? html(401, `${PHP_WARNING}{"status":"error","message":"Unauthenticated.","data":[]}`)
          : json(401, { status: 'error', message: 'Invalid authentication credentials.', data: [] }),
    },
    exit: 0,
    diagnoses: ['php-display-errors'],
  },
  {
    name: 'translations in another order under lang',
    api: {
      status: (envelope, request) =>
        request.lang === undefined
          ? envelope
          : withData(envelope, { translations: [...(envelope.data as StatusRecord).translations].reverse() }),
    },
    exit: 0,
  },

  // Near misses: the API breaks one rule, on one status or in one way.
  {
    name: 'translations left out for status 2 only',
    api: {
      status: onStatusOf(2, (envelope) => ({ ...envelope, data: without(envelope.data as Record<string, unknown>, 'translations') })),
    },
    args: SEVERAL,
    exit: 1,
    fail: ['LANG-KEEPS-TRANSLATIONS', 'STATUS-TRANSLATIONS'],
  },
  {
    name: "status 2's translations carry status 1's id",
    api: {
      status: onStatusOf(2, (envelope) =>
        withData(envelope, { translations: STATUS_2.translations.map((entry) => ({ ...entry, status_id: 1 })) }),
      ),
    },
    args: SEVERAL,
    exit: 1,
    fail: ['TRANSLATION-STATUS-ID'],
  },
  {
    name: 'status 1 served for every id',
    api: { find: () => statuses[0] },
    args: SEVERAL,
    exit: 1,
    fail: ['STATUS-ID', 'TRANSLATION-STATUS-ID'],
  },
  {
    name: 'message left out of the success envelope, not null',
    api: {
      status: (envelope) => without(envelope, 'message'),
    },
    exit: 1,
    fail: ['ENV-MESSAGE-NULL'],
  },
  {
    name: 'status 2 served to a request without an Authorization header',
    api: {
      front: frontFor(
        (request) => onStatus(2)(request) && noHeader(request),
        () => json(200, translate(STATUS_2, undefined)),
      ),
    },
    args: SEVERAL,
    exit: 1,
    fail: ['AUTH-MISSING-HEADER-REFUSED'],
  },
  {
    name: 'refusals in a success envelope saying Unauthenticated: a success envelope is never a refusal',
    api: { refuse: () => json(200, { status: 'success', message: 'Unauthenticated.', data: [] }) },
    exit: 1,
    fail: ['AUTH-INVALID-HEADER-REFUSED', 'AUTH-MISSING-HEADER-REFUSED', ...REFUSALS_OF_A_WRONG_TOKEN],
    diagnoses: ['authentication-not-enforced'],
  },
  {
    name: 'only the translation asked for listed under lang',
    api: {
      status: (envelope, request) => {
        if (request.lang === undefined) return envelope;
        const data = envelope.data as { translations: { locale: string }[] };
        return withData(envelope, { translations: data.translations.filter((entry) => entry.locale === request.lang) });
      },
    },
    exit: 1,
    fail: ['LANG-KEEPS-TRANSLATIONS'],
  },
  {
    name: 'translations keyed by locale instead of a list',
    api: {
      status: (envelope) => {
        const data = envelope.data as { translations: { locale: string }[] };
        return withData(envelope, { translations: Object.fromEntries(data.translations.map((entry) => [entry.locale, entry])) });
      },
    },
    exit: 1,
    fail: ['LANG-KEEPS-TRANSLATIONS', 'STATUS-TRANSLATIONS'],
  },
  {
    name: 'locales listed in capitals, and lang=FR not matched',
    api: { status: capitalLocales },
    exit: 1,
    fail: ['LANG-TRANSLATION-REPLACES'],
  },
  {
    name: 'name null for a locale with no translation',
    api: {
      status: (envelope, request) =>
        request.lang !== undefined && !(envelope.data as StatusRecord).translations.some((entry) => entry.locale === request.lang)
          ? withData(envelope, { name: null })
          : envelope,
    },
    exit: 1,
    fail: ['STATUS-NAME'],
  },
  {
    name: 'the selfservice listing refused to the token with 403 while the status is served',
    api: {
      front: (request) =>
        holdsToken(request) && onListing(request) ? errorReply(403, 'You do not have permission to access this page.') : undefined,
    },
    exit: 1,
    fail: ['SELFSERVICE-ACCEPTED'],
    skip: ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },

  {
    name: 'a second JSON object after the status',
    api: { text: (text, route) => (route === 'status' ? `${text}{"debug":true}` : text) },
    exit: 1,
    fail: ['ENV-JSON'],
  },
  {
    name: 'the listing handed to a wrong token only',
    api: {
      front: (request) =>
        onListing(request) && basicUser(request) === WRONG_TOKEN
          ? json(200, { status: 'success', message: null, data: selfserviceTypes })
          : undefined,
    },
    exit: 1,
    fail: ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },
  {
    name: "status 2 under lang=fr named with status 1's French name",
    api: { status: (envelope, request) => (request.lang === 'fr' && request.id === 2 ? withData(envelope, { name: 'Ouvrir' }) : envelope) },
    args: SEVERAL,
    exit: 1,
    fail: ['LANG-TRANSLATION-REPLACES'],
  },
  {
    name: "the translations' names changed under lang",
    api: {
      status: (envelope, request) =>
        request.lang === undefined
          ? envelope
          : withData(envelope, {
              translations: (envelope.data as StatusRecord).translations.map((entry) => ({ ...entry, name: entry.name.toUpperCase() })),
            }),
    },
    exit: 1,
    fail: ['LANG-KEEPS-TRANSLATIONS'],
  },
  {
    name: 'a cache replays the status to requests without an Authorization header',
    api: {
      front: frontFor(
        (request) => noHeader(request) && !onListing(request),
        () => ({
          ...json(200, translate(statuses[0] as StatusRecord, undefined)),
          headers: { 'content-type': 'application/json', age: '40', 'x-cache': 'HIT' },
        }),
      ),
    },
    exit: 1,
    fail: ['AUTH-MISSING-HEADER-REFUSED'],
    line: /a cache in front of the API hands out, to requests without a valid token, the answer it stored for an authenticated one \(Age: 40\)/,
  },

  // Application errors: the API failed where it was to serve, or where authentication was to fail.
  {
    name: "Laravel's HTML Server Error page on status 2 only",
    api: { front: frontFor(onStatus(2), () => html(500, LARAVEL_500_PAGE)) },
    args: SEVERAL,
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED'],
  },
  {
    name: "Laravel's HTML Server Error page on every request",
    api: { front: () => html(500, LARAVEL_500_PAGE) },
    exit: 1,
    fail: SERVED_NOTHING,
    diagnoses: ['application-failed'],
    line: /the application failed: an exception went uncaught/,
  },
  {
    name: "Symfony's error page on every request",
    api: { front: () => html(500, SYMFONY_500_PAGE) },
    exit: 1,
    fail: SERVED_NOTHING,
    diagnoses: ['application-failed'],
    line: /the application failed: an exception went uncaught \(HTTP 500 with "Oops! An Error Occurred"\)/,
  },
  {
    name: "PHP's fatal error as plain text with HTTP 200 on status 2 only",
    api: {
      front: frontFor(onStatus(2), () => ({ status: 200, body: PHP_FATAL_TEXT, headers: { 'content-type': 'text/html; charset=UTF-8' } })),
    },
    args: SEVERAL,
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED', 'ENV-JSON'],
    notDiagnosed: ['status-not-found'],
  },
  {
    name: 'the database down on status 2 only, in the API envelope with HTTP 200',
    api: {
      front: frontFor(onStatus(2), () => json(200, { status: 'error', message: 'SQLSTATE[HY000] [2002] Connection refused', data: [] })),
    },
    args: SEVERAL,
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED', 'ENV-DATA-OBJECT', 'ENV-MESSAGE-NULL', 'ENV-STATUS-SUCCESS'],
    notDiagnosed: ['status-not-found'],
    line: /Actual: +HTTP 200 .*: the application failed \(database-down: HTTP 200 in the API.s own envelope\)/,
  },
  {
    name: "Laravel's HTML Server Error page on the lang requests only",
    api: { front: frontFor(withLang, () => html(500, LARAVEL_500_PAGE)) },
    exit: 1,
    fail: LANG,
  },
  {
    name: 'the database down on the lang requests only, in the API envelope with HTTP 200',
    api: {
      front: frontFor(withLang, () => json(200, { status: 'error', message: 'SQLSTATE[HY000] [2002] Connection refused', data: [] })),
    },
    exit: 1,
    fail: ['ENV-DATA-OBJECT', 'ENV-MESSAGE-NULL', 'ENV-STATUS-SUCCESS', ...LANG],
  },
  {
    name: "Symfony's error page for requests without credentials",
    api: { front: frontFor(noHeader, () => html(500, SYMFONY_500_PAGE)) },
    exit: 1,
    fail: ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },
  {
    name: 'the database down on every request, in the API envelope with HTTP 200',
    api: {
      front: () => json(200, { status: 'error', message: 'SQLSTATE[08006] [7] could not connect to server: Connection refused', data: [] }),
    },
    exit: 1,
    fail: ['ENV-DATA-OBJECT', 'ENV-MESSAGE-NULL', 'ENV-STATUS-SUCCESS', ...SERVED_NOTHING],
    diagnoses: ['application-failed'],
    line: /the application failed: it cannot reach its database/,
  },
  {
    name: "Laravel's Route [login] not defined for requests without credentials",
    api: {
      refuse: (why) =>
        why === 'missing'
          ? json(500, {
              message: 'Route [login] not defined.',
              exception: 'Symfony\\Component\\Routing\\Exception\\RouteNotFoundException',
            })
          : json(401, { message: 'Unauthenticated.' }),
    },
    exit: 1,
    fail: ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },
  {
    name: 'a fatal error for a token that is not in the database',
    api: {
      refuse: (why) =>
        why === 'bad'
          ? html(
              500,
              '<br />\n<b>Fatal error</b>:  Uncaught Error: Call to a member function isActive() on null in /var/www/app/Auth.php:31\n',
            )
          : json(401, { status: 'error', message: 'Unauthenticated.', data: [] }),
    },
    exit: 1,
    fail: REFUSALS_OF_A_WRONG_TOKEN,
    line: /Actual: +HTTP 500 .*: the application failed \(fatal-error/,
  },

  // Fronts and set-up mistakes: what they answered is not the API's, and the run names them.
  {
    name: 'Apache sends index.php as a file (no PHP handler): PHP not running named, the source and its secrets kept out of the report',
    api: {
      front: page(
        200,
        "<?php\ndefine('LARAVEL_START', microtime(true));\n$db = new PDO('mysql:host=localhost', 'helpdesk', 'S3cretDbPass!');\n",
        {
          'content-type': 'application/x-httpd-php',
          server: 'Apache/2.4.62 (Debian)',
        },
      ),
    },
    exit: 2,
    unjudged: ['ENV-JSON', ...SERVED_NOTHING],
    diagnoses: ['php-not-running'],
    line: /the web server sends the application's PHP source as a file instead of running it[^]*Next: On Apache, hand \.php files to PHP-FPM/,
    also: (report) => expect(JSON.stringify(report)).not.toMatch(/S3cretDbPass|LARAVEL_START/),
  },
  {
    name: 'nginx handing /api/... to PHP-FPM as the script: its "Access denied." named, no firewall blamed',
    api: { front: page(403, 'Access denied.\n', { server: 'nginx/1.22.1' }) },
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['php-fpm-access-denied'],
    notDiagnosed: ['front-blocked'],
    line: /PHP-FPM answered "Access denied\.": the web server hands it the request's own path[^]*Next: On nginx, pass only \.php scripts to PHP-FPM/,
  },
  {
    name: "Cloudflare's error 1020 on every request",
    api: { front: page(403, CLOUDFLARE_1020_PAGE, CLOUDFLARE) },
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['front-blocked'],
  },
  {
    name: "Cloudflare's error 1020 on the lang requests only",
    api: { front: frontFor(withLang, page(403, CLOUDFLARE_1020_PAGE, CLOUDFLARE)) },
    exit: 2,
    unjudged: ['HOST-AUTHORIZATION-PASSED', ...LANG],
    diagnoses: ['front-blocked-some-requests'],
    line: /Cloudflare answered some requests instead of the API/,
  },
  {
    name: "an AWS load balancer's 502 on the lang requests only",
    api: {
      front: frontFor(
        withLang,
        page(
          502,
          '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n',
          {
            server: 'awselb/2.0',
          },
        ),
      ),
    },
    exit: 2,
    unjudged: ['HOST-AUTHORIZATION-PASSED', ...LANG],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: 'Varnish replays a stored 401 to the valid token on every path',
    api: {
      front: (request) =>
        basicUser(request) === TOKEN
          ? {
              ...errorReply(401, 'Invalid authentication credentials.'),
              headers: { 'content-type': 'application/json', age: '86', 'x-varnish': '32770 3', via: '1.1 varnish (Varnish/7.1)' },
            }
          : undefined,
    },
    exit: 2,
    diagnoses: ['cache-answered'],
  },
  {
    name: 'a redirect to Azure AD on the requests without an Authorization header only',
    api: {
      front: frontFor(noHeader, () => ({
        status: 302,
        body: '',
        headers: {
          location:
            'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=1&redirect_uri=https%3A%2F%2Fhelp.example.com',
        },
      })),
    },
    exit: 2,
    unjudged: ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
    diagnoses: ['front-blocked-some-requests'],
    line: /a single sign-on front answered some requests instead of the API/,
  },
  {
    name: 'an HTML sign-in form with HTTP 200 on the requests without an Authorization header only',
    api: {
      front: frontFor(noHeader, () =>
        html(
          200,
          '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form method="post" action="/login"><input name="email"><input type="password" name="password"></form></body></html>',
        ),
      ),
    },
    exit: 2,
    unjudged: ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: 'a redirect to Okta on every request',
    api: { front: () => ({ status: 302, body: '', headers: { location: 'https://example.okta.com/oauth2/v1/authorize?client_id=0oa1' } }) },
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['single-sign-on-in-the-way'],
  },
  {
    name: "a corporate gateway's 407 asking for NTLM",
    api: { front: page(407, ZSCALER_407_PAGE, { 'proxy-authenticate': 'NTLM', 'proxy-connection': 'close' }) },
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['proxy-authentication'],
  },
  {
    name: 'a maintenance page with Retry-After 3600, past the deadline of the run',
    api: { front: page(503, MAINTENANCE_PAGE, { 'retry-after': '3600' }) },
    args: ['--deadline-ms', '30000'],
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['maintenance'],
    line: /Next: Run the suite again in 3600 s/,
  },
  {
    name: 'a maintenance page on status 2 only, Retry-After 3600',
    api: { front: frontFor(onStatus(2), page(503, MAINTENANCE_PAGE, { 'retry-after': '3600' })) },
    args: SEVERAL,
    exit: 2,
    unjudged: ['AUTH-TOKEN-ACCEPTED', 'HOST-AUTHORIZATION-PASSED'],
    diagnoses: ['front-blocked-some-requests'],
  },
  {
    name: "Laravel's maintenance mode in JSON, without Retry-After (artisan down): unavailable, not failing",
    api: { front: () => json(503, { message: 'Service Unavailable' }) },
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['maintenance'],
    notDiagnosed: ['application-failed'],
    line: /the API is unavailable, down for maintenance or overloaded \(HTTP 503\).*Next: Run the suite again once the maintenance is over\./s,
  },
  {
    name: "the API's own envelope with HTTP 503 on every request, whatever its words",
    api: { front: () => json(503, { status: 'error', message: 'Server busy', data: [] }) },
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['maintenance'],
  },
  {
    name: "the API's JSON 503 on the lang requests only: those left unjudged, not failed",
    api: { front: frontFor(withLang, () => json(503, { status: 'error', message: 'Translations are being rebuilt', data: [] })) },
    exit: 2,
    unjudged: ['HOST-AUTHORIZATION-PASSED', ...LANG],
    diagnoses: ['front-blocked-some-requests'],
    line: /some requests were answered that the service cannot serve them for now \(HTTP 503 in JSON: the application says it cannot serve for now\), while the plain request was served[^]*Next: Run the suite again\. If the same requests get HTTP 503 again/,
  },
  {
    name: "an application's 429 with Retry-After 3600 on status 2 only: the deadline named",
    api: {
      front: frontFor(onStatus(2), () =>
        json(429, { message: 'Too Many Attempts.' }, { 'retry-after': '3600', 'x-ratelimit-remaining': '0' }),
      ),
    },
    args: SEVERAL,
    exit: 2,
    line: /Retry-After: 3600, a wait that ends past the run's deadline \(--deadline-ms\).*\(HARNESS_RATE_LIMITED\)/,
  },
  {
    name: 'refusals throttled after three with Retry-After 3600: the deadline named',
    api: { refuse: throttledAfterThree() },
    exit: 2,
    line: /Retry-After: 3600, a wait that ends past the run's deadline \(--deadline-ms\).*\(HARNESS_RATE_LIMITED\)/,
  },
  {
    name: 'every API path redirected to itself with a slash added',
    api: {
      front: (request) => {
        const url = urlOf(request);
        return url.pathname.endsWith('/') ? undefined : { status: 301, body: '', headers: { location: `${url.pathname}/${url.search}` } };
      },
    },
    exit: 2,
    unjudged: SERVED_NOTHING,
    diagnoses: ['api-redirects'],
    line: /Next: The API path redirects to itself with a slash added/,
  },
  {
    name: 'a base URL with /index.php twice, the front controller reading the second as its route',
    api: { front: frontController },
    url: (url) => `${url}/index.php/index.php`,
    exit: 2,
    diagnoses: ['api-paths-not-found'],
    line: /Next: --base-url has \/index\.php twice: pass --base-url http:\/\/127\.0\.0\.1:\d+\/index\.php$/m,
  },
  {
    name: 'a base URL ending in /api/v1',
    api: {},
    url: (url) => `${url}/api/v1`,
    exit: 2,
    diagnoses: ['base-url-ends-in-api'],
    line: /--base-url ends in \/api\/v1, so every request asks for \/api\/v1\/api\/\.\.\.(.*\n)*.*Next: Pass --base-url http:\/\/127\.0\.0\.1:\d+$/m,
  },
  {
    name: 'a --token with one character too many at its end: the token named as off, the API not blamed for comparing loosely',
    api: {},
    cliToken: `${TOKEN}7`,
    exit: 2,
    diagnoses: ['token-refused'],
    notDiagnosed: ['token-compared-by-prefix', 'token-compared-case-insensitively'],
    line: /the token given was refused, but the token without its last character was served: the token given is a character off the one the help desk issued \(it has one character too many at its end\)/,
  },
  {
    name: 'a --token with its first letter in the other case: the token named as off, the API not blamed',
    api: {},
    cliToken: `E${TOKEN.slice(1)}`,
    exit: 2,
    diagnoses: ['token-refused'],
    notDiagnosed: ['token-compared-by-prefix', 'token-compared-case-insensitively'],
    line: /\(one of its letters is in the other case\)/,
  },
  {
    name: 'a wrong --token against an API that answers every refusal alike',
    api: { refuse: () => json(401, { status: 'error', message: 'Unauthenticated.', data: [] }) },
    cliToken: 'edge-Token-not-this-one',
    exit: 2,
    diagnoses: ['authorization-header-stripped'],
    line: /either the web server \(or something in front of it\) strips the Authorization header before the application sees it, or the token is wrong; nothing in this run tells the two apart/,
  },
  {
    name: 'CloudFront in front, dropping the Authorization header on the way to the origin: no verdict, its policy named',
    api: {
      front: (request) => {
        delete request.headers.authorization;
        return undefined;
      },
      refuse: () =>
        json(
          401,
          { status: 'error', message: 'Unauthenticated.', data: [] },
          {
            via: '1.1 5f1e2d3c4b5a6978.cloudfront.net (CloudFront)',
            'x-amz-cf-id': 'kX3t0bY9Qm2Zc1aP8wE4rT6uI5oL7nM==',
            'x-cache': 'Error from cloudfront',
          },
        ),
    },
    exit: 2,
    diagnoses: ['authorization-header-stripped'],
    line: /The answers came through CloudFront .* origin request policy includes it/,
  },
  {
    name: 'the token read from ?token= only, the header ignored: refused like a wrong token, no verdict',
    api: {
      accepts: () => false,
      front: (request) => (urlOf(request).searchParams.get('token') === TOKEN ? servedFor(request) : undefined),
    },
    exit: 2,
    diagnoses: ['token-refused'],
  },
];

async function runCase(entry: EdgeCase): Promise<CliRun> {
  const server = entry.raw ? await serveHttp(entry.raw) : await serveUnusualApi(TOKEN, entry.api ?? {});
  cleanUpAfterAll(server.close);
  const url = entry.url ? entry.url(server.url) : server.url;
  const run = await inProcess.run(['--base-url', url, '--token', entry.cliToken ?? TOKEN, ...(entry.args ?? [])]);
  cleanUpAfterAll(run.cleanup);
  return run;
}

const withVerdict = (report: Report, verdict: Verdict): string[] =>
  report.requirements
    .filter((result) => result.verdict === verdict)
    .map((result) => result.id)
    .sort();

let runOf: (name: string) => Promise<CliRun>;
beforeAll(async () => {
  const started = startAll(cases.map((entry) => [entry.name, () => runCase(entry)]));
  runOf = started.outcome;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

describe('servers at the edges: each verdict and cause as the document and the rules of judgement give them', () => {
  test.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const run = await runOf(entry.name);
    const report = run.report as Report;
    expect({ exit: run.code, stderr: run.stderr }).toEqual({ exit: entry.exit, stderr: '' });
    expect(report.exitCode).toBe(entry.exit);
    expect(withVerdict(report, 'fail')).toEqual([...(entry.fail ?? [])].sort());
    expect(withVerdict(report, 'warn')).toEqual([]);
    if (entry.unjudged) expect(withVerdict(report, 'error')).toEqual([...entry.unjudged].sort());
    for (const id of entry.skip ?? []) expect(withVerdict(report, 'skip')).toContain(id);
    const named = report.diagnoses.map((diagnosis) => diagnosis.id);
    if (entry.diagnoses) expect(named).toEqual(entry.diagnoses);
    for (const id of entry.notDiagnosed ?? []) expect(named).not.toContain(id);
    if (entry.line) expect(run.stdout).toMatch(entry.line);
  });
});
