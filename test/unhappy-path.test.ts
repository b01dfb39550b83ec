import type { IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServerOptions } from '../src/reference-server/server.js';
import type { StatusRecord } from '../src/reference-server/data.js';
import type { Report, Verdict } from '../src/report/model/types.js';
import { expectSettledRun } from './helpers/expect-run.js';
import type { LoopbackServer } from './helpers/loopback-server.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import { runCli, type CliRun } from './helpers/run-cli.js';
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

const TOKEN = 'unhappy-Token-5b9d2e71';
const { inProcess, cleanUpAfterAll } = fileResources();

interface UnhappyCase {
  name: string;
  /** A server written for the case, or the reference server with these options. */
  api?: UnusualApi;
  reference?: Omit<ReferenceServerOptions, 'token'>;
  url?(url: string): string;
  args?: string[];
  /** The token of the run, when the case needs its own. */
  token?: string;
  /** The token the CLI is given, when it is not the one the server holds. */
  cliToken?: string;
  exit: 0 | 1 | 2;
  /** Exactly the requirements that fail, and that warn. */
  fail?: string[];
  warn?: string[];
  /** Exactly the requirements that pass, where a case must pin them (nothing passes for an API never reached). */
  pass?: string[];
  /** Requirements skipped, each with a word of its reason. */
  skip?: Record<string, RegExp>;
  /** MUSTs left unjudged because something other than the API answered (verdict error), each with a word of why. */
  unjudged?: Record<string, RegExp>;
  /** Exactly the diagnoses named. */
  diagnoses?: string[];
  line?: RegExp;
  also?(report: Report, run: CliRun): void;
}

const verdictOf = (report: Report | undefined, verdict: Verdict): string[] =>
  (report?.requirements ?? [])
    .filter((result) => result.verdict === verdict)
    .map((result) => result.id)
    .sort();

const NEAR_MISS = ['AUTH-NEAR-MISS-TOKEN-REFUSED'];
const EVERY_REFUSAL = [
  'AUTH-INVALID-HEADER-REFUSED',
  'AUTH-MISSING-HEADER-REFUSED',
  'AUTH-NEAR-MISS-TOKEN-REFUSED',
  'AUTH-TOKEN-AS-USER-NAME',
  'AUTH-WRONG-TOKEN-REFUSED',
  'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS',
];
const COULD_NOT_JUDGE = /^Verdict for \S+: No verdict: the API could not be judged, /m;
const NO_CONTROL = /no request of this run was handed (status \d+|the listing), with any credentials .*so a refusal proves nothing/;

const CLOUDFLARE_PAGE =
  '<!DOCTYPE html><html lang="en-US"><head><title>Attention Required! | Cloudflare</title></head><body><div id="cf-wrapper"><h1>Sorry, you have been blocked</h1><div class="cf-error-details">You are unable to access example.com</div><span>Cloudflare Ray ID: <strong>8a1b2c3d4e5f6071</strong></span></div></body></html>';
const AKAMAI_PAGE =
  '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don\'t have permission to access "http&#58;&#47;&#47;help&#46;example&#46;com&#47;api&#47;ticket&#47;status&#47;1" on this server.<P>\nReference&#32;&#35;18&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c4d\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f3e4d5c</P>\n</BODY>\n</HTML>\n';
const GENERIC_WAF_PAGE =
  '<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1><p>Your request was blocked by the web application firewall.</p></body></html>';
const CHALLENGE_PAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript><div id="challenge-body"></div></body></html>';
const IMPERVA_PAGE =
  '<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"></head><body style="margin:0px;height:100%"><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=23&xinfo=1-2-3" frameborder=0 width="100%" height="100%">Request unsuccessful. Incapsula incident ID: 1234000560123456789-123456789012345678</iframe></body></html>';
const SQUID_407_PAGE =
  '<!DOCTYPE html><html><head><title>ERROR: Cache Access Denied</title></head><body><h1>ERROR</h1><h2>Cache Access Denied.</h2><p>Sorry, you are not currently allowed to request http://help.example.com/ from this cache until you have authenticated yourself.</p></body></html>';
const MAINTENANCE_PAGE =
  '<!DOCTYPE html><html><head><title>Down for maintenance</title></head><body><h1>We are down for maintenance</h1><p>Back soon.</p></body></html>';
const APACHE_404_PAGE =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n<hr>\n<address>Apache/2.4.62 (Debian) Server at help.example.com Port 80</address>\n</body></html>\n';

/** As Apache writes it with ServerSignature Off: no <address> line to name it by. */
const APACHE_401_PAGE =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>401 Unauthorized</title>\n</head><body>\n<h1>Unauthorized</h1>\n<p>This server could not verify that you\nare authorized to access the document\nrequested.  Either you supplied the wrong\ncredentials (e.g., bad password), or your\nbrowser doesn\'t understand how to supply\nthe credentials required.</p>\n</body></html>\n';
const APACHE_403_PAGE =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>403 Forbidden</title>\n</head><body>\n<h1>Forbidden</h1>\n<p>You don\'t have permission to access this resource.</p>\n<hr>\n<address>Apache/2.4.62 (Debian) Server at help.example.com Port 80</address>\n</body></html>\n';
const NGINX_401_PAGE =
  '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n<center><h1>401 Authorization Required</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';
const LARAVEL_401_PAGE =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Unauthorized</title>\n</head>\n<body class="antialiased">\n<div class="flex items-center pt-8 sm:justify-start sm:pt-0"><div class="px-4 text-lg text-gray-500 border-r border-gray-400 tracking-wider">401</div><div class="ml-4 text-lg text-gray-500 uppercase tracking-wider">Unauthorized</div></div>\n</body>\n</html>\n';
const htmlReply = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers: { 'content-type': 'text/html; charset=iso-8859-1', ...headers },
});
/** The Actual line of a requirement's first passing check. */
const actualOf = (report: Report, id: string): string | undefined =>
  report.requirements.find((result) => result.id === id)?.checks.find((check) => check.verdict === 'pass')?.actual;
/** The curl repros of a requirement's failed checks. */
const failedRepros = (report: Report, id: string): string[] =>
  (report.requirements.find((result) => result.id === id)?.checks ?? [])
    .filter((check) => check.verdict === 'fail' && check.exchange !== undefined)
    .map((check) => report.exchanges[check.exchange ?? '']?.repro ?? '');
const STATUS_1_URL = (report: Report): string => `${report.target.baseUrl.replace(/\/$/, '')}/api/ticket/status/1`;

const CLOUDFLARE = { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' };
const CLOUDFLARE_522_PAGE =
  '<!DOCTYPE html><html><head><title>help.example.com | 522: Connection timed out</title></head><body><div id="cf-error-details"><h1>Connection timed out</h1><span class="cf-error-code">522</span></div></body></html>';
const MODSECURITY_406_PAGE =
  '<html><head><title>406 Not Acceptable</title></head><body><h1>Not Acceptable</h1><p>An appropriate representation of the requested resource could not be found on this server. This error was generated by Mod_Security.</p></body></html>';
const NGINX_PLAIN_HTTP_PAGE =
  '<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';
const LANG = ['LANG-KEEPS-TRANSLATIONS', 'LANG-OTHER-FIELDS-UNCHANGED', 'LANG-TRANSLATION-REPLACES'];
/** A check of an answer that something other than the API gave. */
const NOT_THE_API = /not judged: .* answered instead of the API/;

const urlOf = (request: IncomingMessage): URL => new URL(request.url ?? '/', 'http://unhappy.invalid');
/** A front that answers the requests `when` picks, and lets the others through to the API. */
const frontFor =
  (when: (request: IncomingMessage) => boolean, reply: UnusualApi['front']): UnusualApi['front'] =>
  (request) =>
    when(request) ? reply?.(request) : undefined;
/** A proxy that drops the Authorization header of the requests `when` picks: the API sees them without one. */
const stripsAuthorization =
  (when: (request: IncomingMessage) => boolean): UnusualApi['front'] =>
  (request) => {
    if (when(request)) delete request.headers.authorization;
    return undefined;
  };
const onStatusPath = (request: IncomingMessage): boolean => urlOf(request).pathname.startsWith('/api/ticket/status/');

const basicUser = (header: string | undefined): string =>
  Buffer.from((header ?? '').replace(/^Basic\s+/i, ''), 'base64')
    .toString('utf8')
    .split(':')[0] ?? '';
const twoLetterCodes = (count: number): string[] =>
  [...'abcdefghijklmnopqrstuvwxyz']
    .flatMap((first) => [...'abcdefghijklmnopqrstuvwxyz'].map((second) => `${first}${second}`))
    .slice(0, count);
const withTranslations = (codes: string[]): StatusRecord => ({
  ...(statuses[0] as StatusRecord),
  translations: codes.map((locale) => ({ status_id: 1, name: `Open (${locale})`, locale })),
});
/** A server that changes each translation entry, only when lang is asked for. */
const translationsUnderLang =
  (change: (entry: Record<string, unknown>) => Record<string, unknown>): UnusualApi['status'] =>
  (envelope, request) => {
    if (!request.lang) return envelope;
    const data = envelope.data as { translations: Record<string, unknown>[] };
    return withData(envelope, { translations: data.translations.map(change) });
  };
/** Status 1 lists an "en" translation named like its default content before the others, and lang is ignored. */
const LANG_IGNORED_WITH_EN: UnusualApi = {
  find: (id) => {
    const record = statuses.find((status) => status.id === id);
    return record && id === 1
      ? { ...record, translations: [{ status_id: 1, name: record.name, locale: 'en' }, ...record.translations] }
      : record;
  },
  status: (envelope, request) => (request.lang ? withData(envelope, { name: statuses[0]?.name }) : envelope),
};
const missingLocaleAsked = (report: Report): string | undefined =>
  report.requirements
    .find((result) => result.id === 'LANG-MISSING-FALLBACK')
    ?.checks.map((check) => /lang=(\w+)/.exec(check.description)?.[1])
    .find((code) => code !== undefined);

const cases: UnhappyCase[] = [
  // Near-miss tokens: each sloppy comparison is caught, and filed under the rule it breaks.
  {
    name: 'the token compared without regard to case (a _ci collation)',
    api: { accepts: (u, _p, t) => u.toLowerCase() === t.toLowerCase() },
    exit: 1,
    fail: NEAR_MISS,
  },
  { name: 'any user name that starts with the token', api: { accepts: (u, _p, t) => u.startsWith(t) }, exit: 1, fail: NEAR_MISS },
  {
    name: 'only the first eight characters compared',
    api: { accepts: (u, _p, t) => u.slice(0, 8) === t.slice(0, 8) },
    exit: 1,
    fail: NEAR_MISS,
  },
  {
    name: 'compared over the length of the token only (strncmp)',
    api: { accepts: (u, _p, t) => u.slice(0, t.length) === t },
    exit: 1,
    fail: NEAR_MISS,
  },
  {
    name: 'the token also accepted as the password',
    api: { accepts: (u, p, t) => u === t || p === t },
    exit: 1,
    fail: ['AUTH-TOKEN-AS-USER-NAME'],
  },
  // The token as the password under an empty user name (Basic ":TOKEN"), taken by a fallback to the password.
  {
    name: "the user name, or the password when it is empty (PHP's PHP_AUTH_USER ?: PHP_AUTH_PW)",
    api: { readsEmptyUser: true, accepts: (u, p, t) => (u || p) === t },
    exit: 1,
    fail: ['AUTH-TOKEN-AS-USER-NAME'],
    also: (report) =>
      expect(failedRepros(report, 'AUTH-TOKEN-AS-USER-NAME')).toEqual([`curl -sS -u ':<API_TOKEN>' '${STATUS_1_URL(report)}'`]),
  },
  {
    name: 'the password when the user name is blank once trimmed',
    api: { readsEmptyUser: true, accepts: (u, p, t) => (u.trim() === '' ? p : u) === t },
    exit: 1,
    fail: ['AUTH-TOKEN-AS-USER-NAME'],
  },
  {
    name: 'the password when the user name is empty or a placeholder ("null", "undefined", "-")',
    api: { readsEmptyUser: true, accepts: (u, p, t) => (['', 'null', 'undefined', '-'].includes(u) ? p : u) === t },
    exit: 1,
    fail: ['AUTH-TOKEN-AS-USER-NAME'],
  },
  {
    name: 'an empty user name read, and refused as a wrong token: conformant',
    api: { readsEmptyUser: true, accepts: (u, _p, t) => u === t },
    exit: 0,
  },
  {
    name: 'the token looked for anywhere in the credentials',
    api: { accepts: (u, p, t) => `${u}:${p}`.includes(t) },
    exit: 1,
    fail: ['AUTH-NEAR-MISS-TOKEN-REFUSED', 'AUTH-TOKEN-AS-USER-NAME'],
  },
  {
    name: 'a token without letters against a case-insensitive compare: no case to flip, nothing to blame',
    api: { accepts: (u, _p, t) => u.toLowerCase() === t.toLowerCase() },
    token: '48151623421',
    exit: 0,
    also: (report) => expect(report.requirements.find((result) => result.id === 'AUTH-NEAR-MISS-TOKEN-REFUSED')?.checks).toHaveLength(2),
  },

  // Refusals of any shape count, on both endpoints alike; an answer that hands the resource out does not.
  {
    name: 'refused with HTTP 200 and {"status":"error"}',
    api: { refuse: () => json(200, { status: 'error', message: 'Unauthenticated' }) },
    exit: 0,
  },
  {
    name: 'refused with HTTP 200 and {"message":"Unauthenticated."}',
    api: { refuse: () => json(200, { message: 'Unauthenticated.' }) },
    exit: 0,
  },
  { name: 'refused with HTTP 200 and {"status":401}', api: { refuse: () => json(200, { status: 401, message: 'Unauthorized' }) }, exit: 0 },
  {
    name: 'a redirect to a login page where a refusal is due: nothing shows it is the API refusing, so no refusal is judged',
    api: { refuse: () => ({ status: 302, body: '', headers: { location: '/login' } }) },
    exit: 2,
    diagnoses: ['front-blocked-some-requests'],
    line: /a redirect nobody can place answered some requests instead of the API \(HTTP 302, a redirect to \/login\)/,
    unjudged: { 'AUTH-MISSING-HEADER-REFUSED': /not judged: a redirect to \/login, which nothing shows to be the API's refusal/ },
  },
  {
    name: 'refused with an HTML page',
    api: { refuse: () => ({ status: 403, body: GENERIC_WAF_PAGE, headers: { 'content-type': 'text/html' } }) },
    exit: 0,
  },
  {
    name: 'refused with HTTP 401 that still hands the resource out',
    api: {
      refuse: (_why, route) =>
        json(401, { status: 'error', message: 'Unauthenticated', data: route === 'status' ? statuses[0] : selfserviceTypes }),
    },
    exit: 1,
    fail: EVERY_REFUSAL,
    diagnoses: ['authentication-not-enforced'],
  },
  {
    name: 'the listing handed out with HTTP 200 under an error status',
    api: {
      refuse: (why, route) =>
        route === 'selfservice' ? json(200, { status: 'error', message: 'Unauthenticated', data: selfserviceTypes }) : errorReply(401, why),
    },
    exit: 1,
    fail: ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },

  // The web server's own page refusing bad credentials, on paths the valid token is served: the deployment refuses them.
  {
    name: "Apache's own 401 page for every refusal, the token served",
    api: { refuse: () => htmlReply(401, APACHE_401_PAGE, { 'www-authenticate': 'Basic realm="Help desk API"' }) },
    exit: 0,
    also: (report) => {
      expect(actualOf(report, 'AUTH-WRONG-TOKEN-REFUSED')).toMatch(
        /Apache's own HTTP 401 page refused it, while this path was served in the same run: the deployment refuses these credentials$/,
      );
      const observed = report.requirements.find((result) => result.id === 'AUTH-ERROR-RESPONSE')?.checks[0]?.description;
      expect(observed).toBe("answer to a token that is not valid (Apache's own page, not an error envelope)");
    },
  },
  {
    name: "Apache's own 403 page for every refusal, the token served",
    api: { refuse: () => htmlReply(403, APACHE_403_PAGE) },
    exit: 0,
    also: (report) => expect(actualOf(report, 'AUTH-MISSING-HEADER-REFUSED')).toMatch(/Apache's own HTTP 403 page refused it/),
  },
  {
    name: "nginx's own 401 page for every refusal, the token served",
    api: { refuse: () => htmlReply(401, NGINX_401_PAGE, { server: 'nginx/1.24.0' }) },
    exit: 0,
    also: (report) => expect(actualOf(report, 'AUTH-INVALID-HEADER-REFUSED')).toMatch(/nginx's own HTTP 401 page refused it/),
  },
  {
    name: "a PHP framework's HTML 401 page for every refusal, the token served",
    api: { refuse: () => htmlReply(401, LARAVEL_401_PAGE) },
    exit: 0,
  },
  {
    name: 'an Express-style plain 401 "Unauthorized" for every refusal, the token served',
    api: { refuse: () => ({ status: 401, body: 'Unauthorized', headers: { 'content-type': 'text/plain; charset=utf-8' } }) },
    exit: 0,
  },
  {
    name: "Apache's own 401 page for the token too: its own password, not the API's refusal, and nothing passes for it",
    api: { front: page(401, APACHE_401_PAGE, { 'www-authenticate': 'Basic realm="Restricted"', server: 'Apache/2.4.62 (Debian)' }) },
    exit: 2,
    pass: [],
    diagnoses: ['web-server-password'],
    skip: { 'AUTH-WRONG-TOKEN-REFUSED': NO_CONTROL },
  },

  // Something in front of the API answers: no verdict, the cause named, nothing passed for answers the API never gave.
  {
    name: 'a Cloudflare block page',
    api: { front: page(403, CLOUDFLARE_PAGE, { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' }) },
    exit: 2,
    pass: [],
    diagnoses: ['front-blocked'],
    line: /^Diagnosis \(environment, high confidence\): Cloudflare answered instead of the API \(a block page\)/m,
    skip: { 'AUTH-WRONG-TOKEN-REFUSED': NO_CONTROL },
    unjudged: { 'AUTH-TOKEN-ACCEPTED': /not judged: Cloudflare answered instead of the API/ },
  },
  {
    name: 'an Akamai block page',
    api: { front: page(403, AKAMAI_PAGE, { server: 'AkamaiGHost' }) },
    exit: 2,
    pass: [],
    diagnoses: ['front-blocked'],
    line: /Akamai answered instead of the API/,
  },
  {
    name: 'a WAF 403 page of no known vendor',
    api: { front: page(403, GENERIC_WAF_PAGE) },
    exit: 2,
    pass: [],
    diagnoses: ['front-blocked'],
    line: /^Diagnosis \(environment, medium confidence\): a firewall or CDN in front of the API answered instead of the API/m,
  },
  {
    name: 'a browser challenge page with HTTP 200',
    api: { front: page(200, CHALLENGE_PAGE) },
    exit: 2,
    pass: [],
    diagnoses: ['front-blocked'],
    line: /answered instead of the API \(a browser challenge page\)/,
  },
  {
    name: 'an Imperva page with HTTP 200',
    api: { front: page(200, IMPERVA_PAGE, { 'x-iinfo': '1-2-3 NNNN CT(0 0 0) RT(1 0) q(0 0 0 -1) r(0 0) U5' }) },
    exit: 2,
    pass: [],
    diagnoses: ['front-blocked'],
    line: /Imperva \(Incapsula\) answered instead of the API/,
  },
  {
    name: 'a proxy asking for its own credentials (407, Squid page)',
    api: { front: page(407, SQUID_407_PAGE, { 'proxy-authenticate': 'Basic realm="Corporate proxy"' }) },
    exit: 2,
    pass: [],
    diagnoses: ['proxy-authentication'],
    line: /a proxy between this machine and the API asks for its own credentials \(HTTP 407\)/,
  },
  {
    name: 'a proxy asking for its own credentials (407, empty body)',
    api: { front: () => ({ status: 407, body: '', headers: { 'proxy-authenticate': 'Negotiate' } }) },
    exit: 2,
    pass: [],
    diagnoses: ['proxy-authentication'],
  },
  {
    name: 'a maintenance page with Retry-After in seconds, past what the run may wait',
    api: { front: page(503, MAINTENANCE_PAGE, { 'retry-after': '3600' }) },
    exit: 2,
    pass: [],
    diagnoses: ['maintenance'],
    line: /Next: Run the suite again in 3600 s, at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ or later, as Retry-After asks\./,
  },
  {
    name: 'an application in maintenance mode, JSON with Retry-After as a date',
    api: { front: () => json(503, { message: 'Service Unavailable' }, { 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' }) },
    exit: 2,
    pass: [],
    diagnoses: ['maintenance'],
    line: /Next: Run the suite again at 2099-10-21T07:28:00Z or later/,
  },
  {
    name: 'a maintenance page without Retry-After',
    api: { front: page(503, MAINTENANCE_PAGE) },
    exit: 2,
    pass: [],
    diagnoses: ['maintenance'],
    line: /Next: Run the suite again once the maintenance is over\./,
  },
  {
    name: 'an API gateway refusing on its own (AWS)',
    api: {
      front: () => json(403, { message: 'Missing Authentication Token' }, { 'x-amzn-errortype': 'MissingAuthenticationTokenException' }),
    },
    exit: 2,
    pass: [],
    diagnoses: ['front-no-route'],
    line: /AWS API Gateway answered with its own "no route" answer \(HTTP 403\)/,
  },

  {
    name: "Cloudflare's 522: the web server behind it does not answer",
    api: { front: page(522, CLOUDFLARE_522_PAGE, CLOUDFLARE) },
    exit: 2,
    pass: [],
    diagnoses: ['front-origin-unreachable'],
    line: /^Diagnosis \(environment, high confidence\): Cloudflare answered with its own error page \(HTTP 522\): it could not get an answer from the web server behind it/m,
  },
  {
    name: 'a CDN replays a refusal it stored to the valid token',
    api: {
      front: frontFor(
        (request) => urlOf(request).pathname === '/api/ticket/status/1',
        () => ({
          ...errorReply(401, 'Failed to authenticate.'),
          headers: { 'content-type': 'application/json', age: '120', 'x-cache': 'HIT' },
        }),
      ),
    },
    exit: 2,
    diagnoses: ['cache-answered'],
    line: /a cache in front of the API answered the valid token with an answer it had stored \(Age: 120\)/,
  },
  {
    name: 'a captive portal redirects every request to its login page',
    api: { front: () => ({ status: 302, body: '', headers: { location: 'http://portal.example.net/login?continue=1' } }) },
    exit: 2,
    pass: [],
    diagnoses: ['api-redirects'],
    line: /Next: The redirect leads away from the API \(a login page, a captive portal, a front end\)/m,
  },
  {
    name: 'plain HTTP redirected to HTTPS: the address to pass is named',
    api: { front: (request) => ({ status: 301, body: '', headers: { location: `https://127.0.0.1:8443${request.url ?? '/'}` } }) },
    exit: 2,
    pass: [],
    diagnoses: ['api-redirects'],
    line: /Next: The redirect names the same API at another address: pass --base-url https:\/\/127\.0\.0\.1:8443$/m,
  },

  // A front that answers some requests only: what it answered is not the API's, and the rest is judged as ever.
  {
    name: 'Cloudflare blocks only the request with a long password',
    api: {
      front: frontFor((request) => (request.headers.authorization ?? '').length > 200, page(403, CLOUDFLARE_PAGE, CLOUDFLARE)),
    },
    exit: 2,
    diagnoses: ['front-blocked-some-requests'],
    line: /^Diagnosis \(environment, high confidence\): Cloudflare answered some requests instead of the API \(HTTP 403: Cloudflare's block page\), while the plain request reached it: AUTH-PASSWORD-IGNORED could not be judged on its answers$/m,
    unjudged: { 'AUTH-PASSWORD-IGNORED': NOT_THE_API },
    also: (report) => expect(verdictOf(report, 'pass')).toContain('AUTH-TOKEN-ACCEPTED'),
  },
  {
    name: 'ModSecurity refuses every request with a query string',
    api: { front: frontFor((request) => urlOf(request).search !== '', page(406, MODSECURITY_406_PAGE, { server: 'Apache' })) },
    exit: 2,
    diagnoses: ['front-blocked-some-requests'],
    line: /ModSecurity answered some requests instead of the API \(HTTP 406: ModSecurity's block page\).*: LANG-TRANSLATION-REPLACES, LANG-KEEPS-TRANSLATIONS, LANG-OTHER-FIELDS-UNCHANGED, HOST-AUTHORIZATION-PASSED could not be judged/,
    unjudged: { 'LANG-TRANSLATION-REPLACES': NOT_THE_API, 'LANG-OTHER-FIELDS-UNCHANGED': NOT_THE_API },
  },
  {
    name: 'an API gateway refuses the selfservice listing in JSON of its own',
    api: {
      front: frontFor(
        (request) => urlOf(request).pathname === '/api/selfservice/type',
        () => json(403, { message: 'Forbidden' }, { 'x-amzn-errortype': 'ForbiddenException' }),
      ),
    },
    exit: 2,
    diagnoses: ['front-blocked-some-requests'],
    line: /AWS API Gateway answered some requests instead of the API \(HTTP 403: AWS API Gateway's own refusal\)/,
    unjudged: { 'SELFSERVICE-ACCEPTED': NOT_THE_API },
  },
  {
    name: 'a front blocks the lang requests while the API breaks colour on its own: not conformant, the front named, lang not judged',
    api: {
      front: frontFor((request) => urlOf(request).searchParams.has('lang'), page(403, CLOUDFLARE_PAGE, CLOUDFLARE)),
      status: (envelope) => withData(envelope, { colour: '#3a0' }),
    },
    exit: 1,
    fail: ['STATUS-COLOUR'],
    unjudged: Object.fromEntries(LANG.map((id) => [id, NOT_THE_API])),
    diagnoses: ['front-blocked-some-requests'],
    line: /Cloudflare answered some requests instead of the API \(HTTP 403: Cloudflare's block page\).*could not be judged on its answers; the API failed other requirements on its own answers$/m,
  },
  {
    name: "a JSON refusal of the lang requests with no front's mark is the API's own",
    api: {
      front: frontFor(
        (request) => urlOf(request).searchParams.has('lang'),
        () => json(403, { status: 'error', message: 'Forbidden' }),
      ),
    },
    exit: 1,
    fail: LANG,
    diagnoses: [],
  },

  // Set-up mistakes: named, with the fix, and no false blame on the API.
  {
    name: 'a base URL ending in /api',
    reference: {},
    url: (url) => `${url}/api`,
    exit: 2,
    pass: [],
    diagnoses: ['base-url-ends-in-api'],
    line: /Next: Pass --base-url http:\/\/127\.0\.0\.1:\d+$/m,
  },
  {
    name: 'a base URL ending in /api/',
    reference: {},
    url: (url) => `${url}/api/`,
    exit: 2,
    pass: [],
    diagnoses: ['base-url-ends-in-api'],
  },
  {
    name: "a base URL that is the status endpoint's address pasted whole",
    reference: { pathPrefix: '/support' },
    url: (url) => `${url}/api/ticket/status/1`,
    exit: 2,
    pass: [],
    diagnoses: ['base-url-ends-in-api'],
    line: /Next: Pass --base-url http:\/\/127\.0\.0\.1:\d+\/support$/m,
  },
  {
    name: 'a base URL without the path prefix (the application answers 404 everywhere)',
    reference: { pathPrefix: '/support' },
    url: (url) => url.replace(/\/support$/, ''),
    exit: 2,
    pass: [],
    diagnoses: ['api-paths-not-found'],
  },
  {
    name: "a base URL without the path prefix (Apache's 404 page everywhere)",
    api: { front: page(404, APACHE_404_PAGE, { server: 'Apache/2.4.62 (Debian)' }) },
    exit: 2,
    pass: [],
    diagnoses: ['api-not-found'],
    line: /Pass the address of the folder the application is served from, e\.g\. --base-url https:\/\/help\.example\.com or https:\/\/example\.com\/support/,
  },
  {
    name: "behind Cloudflare, the origin's own 404 page: a missing prefix, not a block",
    api: { front: page(404, APACHE_404_PAGE, { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' }) },
    exit: 2,
    pass: [],
    diagnoses: ['api-not-found'],
  },
  {
    name: 'a --status-id that does not exist',
    reference: {},
    args: ['--status-id', '999'],
    exit: 2,
    pass: ['HOST-AUTHORIZATION-PASSED', 'SELFSERVICE-ACCEPTED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS', 'STATUS-OPEN-FIRST'],
    diagnoses: ['status-not-found'],
    line: /status 999 does not seem to exist.*\n(.*\n)*.*Next: Pass --status-id 1/,
  },
  {
    name: 'an installation without status 1, run with the default --status-id',
    api: { find: (id) => statuses.find((status) => status.id === id && id !== 1) },
    exit: 2,
    pass: ['HOST-AUTHORIZATION-PASSED', 'SELFSERVICE-ACCEPTED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
    diagnoses: ['status-not-found'],
  },
  {
    name: 'a wrong --token, answered unlike a missing header',
    reference: {},
    cliToken: 'not-the-Token-of-this-server',
    exit: 2,
    pass: [],
    diagnoses: ['token-refused'],
    line: /the token reached the application and was refused as wrong: check that --token is right/,
  },
  {
    name: 'a revoked --token, answered unlike a wrong one and unlike none',
    api: {
      front: (request) =>
        basicUser(request.headers.authorization) === TOKEN
          ? json(401, { status: 'error', message: 'This API token has been revoked.' })
          : undefined,
    },
    exit: 2,
    pass: [],
    diagnoses: ['token-refused'],
  },
  {
    name: 'every credential answered alike, a malformed header otherwise: the header arrives, the token is wrong',
    api: {
      accepts: () => false,
      refuse: (why) =>
        why === 'malformed' ? json(400, { message: 'Malformed Authorization header.' }) : json(401, { message: 'Unauthenticated.' }),
    },
    exit: 2,
    pass: [],
    diagnoses: ['token-refused'],
  },
  {
    name: "plain HTTP spoken to nginx's HTTPS port",
    api: { front: page(400, NGINX_PLAIN_HTTP_PAGE, { server: 'nginx/1.24.0' }) },
    exit: 2,
    pass: [],
    diagnoses: ['plain-http-to-tls-port'],
    line: /Next: Use https:\/\/ instead of http:\/\/ in --base-url: --base-url https:\/\/127\.0\.0\.1:\d+$/m,
  },
  {
    name: 'TLS spoken to a plain-HTTP port',
    reference: {},
    url: (url) => url.replace(/^http:/, 'https:'),
    exit: 2,
    line: /use http:\/\/ instead of https:\/\/ in --base-url/,
  },

  // The token refused like no header: the header lost, where the token is served through /index.php/api/...; the header
  // stripped or the token wrong, not told apart, where nothing is served and a wrong token is answered as no header.
  {
    name: 'the reference server behind a web server that loses Authorization on the rewritten /api/... paths',
    reference: { variants: ['authorization-stripped'] },
    exit: 1,
    fail: ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED', 'HOST-AUTHORIZATION-PASSED', 'SELFSERVICE-ACCEPTED'],
    diagnoses: ['authorization-header-stripped'],
    line: /^Diagnosis \(environment, medium confidence\): .*while GET \/index\.php\/api\/ticket\/status\/1 was served with the same token: the token is right/m,
    skip: { 'AUTH-MISSING-HEADER-REFUSED': NO_CONTROL, 'STATUS-OPEN-FIRST': /served no status at all/ },
  },
  {
    name: 'every request, malformed or not, answered with the same 401',
    api: { accepts: () => false, refuse: () => json(401, { message: 'Unauthenticated.' }) },
    exit: 2,
    pass: [],
    diagnoses: ['authorization-header-stripped'],
    line: /To tell the two apart: copy the token again/,
  },

  // The header lost on one API path only: the token is right, so the path is named.
  {
    name: 'a proxy strips Authorization on the status path only',
    api: { front: stripsAuthorization(onStatusPath) },
    exit: 1,
    fail: ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED', 'HOST-AUTHORIZATION-PASSED'],
    diagnoses: ['authorization-header-stripped'],
    line: /while GET \/api\/selfservice\/type was served with the same token: the token is right, so the Authorization header is most likely stripped on the way to \/api\/ticket\/status\/1 only$/m,
  },
  {
    name: 'a proxy strips Authorization on the selfservice path only',
    api: { front: stripsAuthorization((request) => !onStatusPath(request)) },
    exit: 1,
    fail: ['HOST-AUTHORIZATION-PASSED', 'SELFSERVICE-ACCEPTED'],
    diagnoses: ['authorization-header-stripped'],
    line: /the token was served on GET \/api\/ticket\/status\/1, but other requests made with it got the answer of a request without an Authorization header.*\n {2}Evidence: GET \/api\/selfservice\/type \(valid token/m,
  },

  {
    name: 'the header lost on the selfservice path, refused there with HTTP 200: the reference call fails, not the refusal',
    api: {
      front: stripsAuthorization((request) => !onStatusPath(request)),
      refuse: () => json(200, { status: 'error', message: 'Unauthenticated', data: [] }),
    },
    exit: 1,
    fail: ['HOST-AUTHORIZATION-PASSED', 'SELFSERVICE-ACCEPTED'],
    diagnoses: ['authorization-header-stripped'],
    skip: { 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS': NO_CONTROL },
    line: /Expected: HTTP 2xx with a JSON body that is not a refusal \(its shape is not stated\)/,
  },

  // Representation choices the document leaves open.
  { name: 'JSON labelled text/html, as PHP sends it unless told otherwise', api: { contentType: 'text/html; charset=UTF-8' }, exit: 0 },
  { name: 'no Content-Length: every answer ends when the connection closes', api: { closeDelimited: true }, exit: 0 },

  // Each rule judges every answer that served a status, whatever request it answered.
  {
    name: 'a three-digit colour only under lang',
    api: { status: (envelope, request) => (request.lang ? withData(envelope, { colour: '#3a0' }) : envelope) },
    exit: 1,
    fail: ['LANG-OTHER-FIELDS-UNCHANGED', 'STATUS-COLOUR'],
  },
  {
    name: 'a string id only under lang',
    api: { status: (envelope, request) => (request.lang ? withData(envelope, { id: String(request.id) }) : envelope) },
    exit: 1,
    fail: ['LANG-OTHER-FIELDS-UNCHANGED', 'STATUS-ID'],
  },
  {
    name: "a translation's status_id wrong only under lang",
    api: { status: translationsUnderLang((entry) => ({ ...entry, status_id: 99 })) },
    exit: 1,
    fail: ['LANG-KEEPS-TRANSLATIONS', 'TRANSLATION-STATUS-ID'],
  },
  {
    name: 'another status served for an id that does not exist',
    api: { find: (id) => statuses.find((status) => status.id === id) ?? statuses[0] },
    exit: 1,
    fail: ['STATUS-ID'],
  },
  {
    name: 'translation entries that are not objects fail, rather than leave nothing to judge',
    api: { status: (envelope) => withData(envelope, { translations: ['fr', 'de'] }) },
    exit: 1,
    fail: ['TRANSLATION-LOCALE', 'TRANSLATION-NAME', 'TRANSLATION-STATUS-ID'],
  },
  {
    name: 'an extra field in the translation entries under lang only',
    api: { status: translationsUnderLang((entry) => ({ ...entry, id: 7 })) },
    exit: 0,
  },
  {
    name: 'a PHP notice before the JSON of the status: ENV-JSON fails, the status is still found served, display_errors named',
    api: {
      text: (text, route) =>
        route === 'status' ? `<br />\n<b>Notice</b>: Undefined index: lang in /var/www/api.php on line 12<br />\n${text}` : text,
    },
    exit: 1,
    fail: ['ENV-JSON'],
    diagnoses: ['php-display-errors'],
    line: /Fix: +Set display_errors = Off/,
    also: (report) => expect(verdictOf(report, 'pass')).toContain('AUTH-TOKEN-ACCEPTED'),
  },
  {
    name: 'a status with 200 translations: the missing locale asked for is not one of them',
    api: {
      find: (id) =>
        id === 1 ? withTranslations([...twoLetterCodes(190), 'sw', 'is', 'mt', 'cy', 'eu', 'ga', 'lb', 'mk', 'zz', 'zy']) : undefined,
    },
    exit: 0,
    also: (report) => {
      const asked = missingLocaleAsked(report);
      expect(asked).toMatch(/^[a-z]{2}$/);
      expect([...twoLetterCodes(190), 'sw', 'is', 'mt', 'cy', 'eu', 'ga', 'lb', 'mk', 'zz', 'zy']).not.toContain(asked);
    },
  },
  {
    name: 'a status with a translation for every two-letter code: no missing locale to ask for',
    api: { find: (id) => (id === 1 ? withTranslations(twoLetterCodes(26 * 26)) : undefined) },
    exit: 0,
    skip: { 'LANG-MISSING-FALLBACK': /a translation for every two-letter code/ },
  },
  {
    name: 'a translation named like the default listed first, and lang ignored: the locale asked for is one named otherwise',
    api: LANG_IGNORED_WITH_EN,
    exit: 1,
    fail: ['LANG-TRANSLATION-REPLACES'],
  },
  {
    name: 'and with --lang naming that translation: the name check could not fail, so it is skipped and names another',
    api: LANG_IGNORED_WITH_EN,
    args: ['--lang', 'en'],
    exit: 0,
    skip: { 'LANG-TRANSLATION-REPLACES': /the "en" translation has the default name \("Open"\), .*; pass --lang fr$/ },
  },
  {
    name: 'a byte order mark before the JSON: a warning, not a pass',
    api: { text: (text) => `\uFEFF${text}` },
    exit: 0,
    warn: ['ENV-NO-BOM'],
  },
  {
    name: 'a MUST and a SHOULD broken: Next names the MUST',
    api: { status: (envelope, request) => withData(envelope, { colour: '#3a0', ...(request.lang ? {} : { name: 'Opened' }) }) },
    exit: 1,
    fail: ['STATUS-COLOUR'],
    warn: ['STATUS-OPEN-FIRST'],
    line: /Next: make STATUS-COLOUR pass/,
  },
];

type Runner = (args: string[]) => Promise<CliRun>;
interface CaseRun {
  run: CliRun;
  token: string;
  servers: LoopbackServer[];
}

/** The case's server started, and one run against it: the real CLI, or the run command in this process. */
async function runCase(entry: UnhappyCase, runner: Runner): Promise<CaseRun> {
  const servers: LoopbackServer[] = [];
  const token = entry.token ?? TOKEN;
  let url: string;
  if (entry.api) {
    const server = await serveUnusualApi(token, entry.api);
    servers.push(server);
    cleanUpAfterAll(server.close);
    url = server.url;
  } else {
    const server = await startReferenceServer({ token, ...entry.reference });
    cleanUpAfterAll(server.close);
    url = server.url;
  }
  const run = await runner(['--base-url', entry.url ? entry.url(url) : url, '--token', entry.cliToken ?? token, ...(entry.args ?? [])]);
  cleanUpAfterAll(run.cleanup);
  return { run, token, servers };
}

async function expectCase(entry: UnhappyCase, { run, token, servers }: CaseRun): Promise<void> {
  await expectSettledRun(run, { exit: entry.exit, line: entry.line, token, servers });
  const report = run.report as Report;
  expect(report.verdict).toBe({ 0: 'conformant', 1: 'not-conformant', 2: 'inconclusive' }[entry.exit]);
  expect(verdictOf(report, 'fail')).toEqual([...(entry.fail ?? [])].sort());
  expect(verdictOf(report, 'warn')).toEqual([...(entry.warn ?? [])].sort());
  if (entry.pass) expect(verdictOf(report, 'pass')).toEqual([...entry.pass].sort());
  if (entry.diagnoses) expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(entry.diagnoses);
  if (entry.exit === 2 && entry.diagnoses) expect(run.stdout).toMatch(COULD_NOT_JUDGE);
  for (const [id, reason] of Object.entries(entry.skip ?? {})) {
    const result = report.requirements.find((candidate) => candidate.id === id);
    expect(result?.verdict).toBe('skip');
    expect(result?.checks.map((check) => check.description).join(' | ')).toMatch(reason);
  }
  for (const [id, reason] of Object.entries(entry.unjudged ?? {})) {
    const result = report.requirements.find((candidate) => candidate.id === id);
    expect(result?.verdict).toBe('error');
    expect(result?.checks.map((check) => check.description).join(' | ')).toMatch(reason);
  }
  entry.also?.(report, run);
}

const caseNamed = (name: string): UnhappyCase => {
  const entry = cases.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no unhappy case is named "${name}"`);
  return entry;
};

/** Every case's server is recorded once, all at once, and the recordings judged together by one spec runner. */
let caseRun: (name: string) => Promise<CaseRun>;
beforeAll(async () => {
  const started = startAll(cases.map((entry) => [entry.name, () => runCase(entry, (args) => inProcess.run(args))]));
  caseRun = started.outcome;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

describe('the unhappy path: near misses, refusals of any shape, fronts, set-up mistakes', () => {
  test.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (name, entry) => expectCase(entry, await caseRun(name)));
});

describe('the real CLI, end to end, judges them as the shared spec runner does', () => {
  const verdicts = (report: Report | undefined): Record<string, string> =>
    Object.fromEntries((report?.requirements ?? []).map((result) => [result.id, result.verdict]));
  // One case of each kind the binary could judge differently: a front that answers instead of the API, and a set-up
  // mistake named with its fix; every case is judged in-process above.
  test.concurrent.each([['a Cloudflare block page'], ['a base URL ending in /api']])('%s', async (name) => {
    const entry = caseNamed(name);
    const outcome = await runCase(entry, (args) => runCli(args));
    await expectCase(entry, outcome);
    expect(verdicts(outcome.run.report)).toEqual(verdicts((await caseRun(name)).run.report));
  });
});
