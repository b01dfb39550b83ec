import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { WRONG_TOKEN } from '../src/exchange/credentials.js';
import { contradictions } from '../src/diagnosis/causes.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { startAllBeforeAll } from './helpers/in-process-runs.js';
import { requirementsWith } from './helpers/expect-run.js';
import type { CliRun } from './helpers/run-cli.js';
import { json, serveUnusualApi, type Reply, type UnusualApi } from './helpers/unusual-api.js';

/**
 * The fronts users meet, each written as its own pages and headers show it: its error page on every request, on some
 * requests only, and passing the API's own answers on. Each is named with its own fix and its documentation, never
 * given PHP-FPM or .htaccess advice, and no diagnosis contradicts the classification of the answers it cites.
 */

const TOKEN = 'front-servers-token-5c2e80';
const { inProcess, cleanUpAfterAll } = fileResources();

const basic = (user: string): string => `Basic ${Buffer.from(`${user}:x`).toString('base64')}`;
const urlOf = (request: IncomingMessage): URL => new URL(request.url ?? '/', 'http://front.invalid');
const text = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
});
const html = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers: { 'content-type': 'text/html; charset=UTF-8', ...headers },
});

/** Which requests a front answers itself. */
const every =
  (reply: Reply): UnusualApi['front'] =>
  () =>
    reply;
const withoutCredentials =
  (reply: Reply): UnusualApi['front'] =>
  (request) =>
    request.headers.authorization === undefined ? reply : undefined;
const withLang =
  (reply: Reply): UnusualApi['front'] =>
  (request) =>
    urlOf(request).searchParams.has('lang') ? reply : undefined;
const withWrongToken =
  (reply: Reply): UnusualApi['front'] =>
  (request) =>
    request.headers.authorization === basic(WRONG_TOKEN) ? reply : undefined;

// The fronts' own pages and headers, as their documentation and their users' reports show them.
const HAPROXY_503 = html(
  503,
  '<html><body><h1>503 Service Unavailable</h1>\nNo server is available to handle this request.\n</body></html>\n',
  { 'cache-control': 'no-cache' },
);
const HAPROXY_403 = html(403, '<html><body><h1>403 Forbidden</h1>\nRequest forbidden by administrative rules.\n</body></html>\n', {
  'cache-control': 'no-cache',
});
const TRAEFIK = { 'x-content-type-options': 'nosniff' };
const ENVOY = { server: 'envoy' };
const VARNISH = { via: '1.1 varnish (Varnish/7.1)', 'x-varnish': '32770' };
const GURU_MEDITATION = html(
  503,
  '<!DOCTYPE html>\n<html>\n  <head>\n    <title>503 Backend fetch failed</title>\n  </head>\n  <body>\n    <h1>Error 503 Backend fetch failed</h1>\n    <p>Backend fetch failed</p>\n    <h3>Guru Meditation:</h3>\n    <p>XID: 32770</p>\n    <hr>\n    <p>Varnish cache server</p>\n  </body>\n</html>\n',
  { ...VARNISH, 'retry-after': '5' },
);
const NGINX_403 = html(
  403,
  '<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n',
  { server: 'nginx/1.22.1' },
);
const APACHE_403 = html(
  403,
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>403 Forbidden</title>\n</head><body>\n<h1>Forbidden</h1>\n<p>You don\'t have permission to access this resource.</p>\n<hr>\n<address>Apache/2.4.62 (Debian) Server at help.example.com Port 443</address>\n</body></html>\n',
  { server: 'Apache/2.4.62 (Debian)' },
);
const HEROKU = { via: '1.1 vegur', server: 'Cowboy' };
const herokuPage = (page: string, title: string): Reply =>
  html(
    503,
    `<!DOCTYPE html>\n<html>\n  <head>\n    <meta name="viewport" content="width=device-width, initial-scale=1">\n    <meta charset="utf-8">\n    <title>${title}</title>\n    <style media="screen">html,body,iframe{margin:0;padding:0}html,body{height:100%;overflow:hidden}iframe{width:100%;height:100%;border:0}</style>\n  </head>\n  <body>\n    <iframe src="//www.herokucdn.com/error-pages/${page}.html"></iframe>\n  </body>\n</html>\n`,
    HEROKU,
  );
const GOOGLE = { server: 'Google Frontend' };
const googlePage = (status: number, title: string, words: string): Reply =>
  html(
    status,
    `<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error ${status} (${title})!!1</title>\n  <a href=//www.google.com/><span id=logo aria-label=Google></span></a>\n  <p><b>${status}.</b> <ins>That\u2019s an error.</ins>\n  <p>${words}  <ins>That\u2019s all we know.</ins>\n`,
    GOOGLE,
  );
const NETSCALER_LOGIN: Reply = {
  status: 302,
  body: '',
  headers: {
    location: '/logon/LogonPoint/tmindex.html',
    'set-cookie': 'NSC_TASS=/api/ticket/status/1;Path=/;Secure;HttpOnly, NSC_TMAS=xyz;Path=/;Secure;HttpOnly',
  },
};
const KONG_OWN = { server: 'kong/3.4.2', 'x-kong-response-latency': '0' };
const KONG_PASSED = { via: 'kong/3.4.2', 'x-kong-upstream-latency': '12', 'x-kong-proxy-latency': '1' };
const AWS = { 'x-amzn-requestid': '5b0c2f4e-8c1d-4f7e-9a6b-0c1d2e3f4a5b', 'x-amz-apigw-id': 'Ab1CdEfGhIjKlM=' };
const F5_REJECTED = html(
  200,
  "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 14396929317839226498<br><br><a href='javascript:history.back();'>[Go Back]</a></body></html>",
  { 'set-cookie': 'TS01a2b3c4=<redacted>; Path=/' },
);
const AKAMAI_DENIED = html(
  403,
  '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don\'t have permission to access "http&#58;&#47;&#47;help&#46;example&#46;com&#47;api&#47;ticket&#47;status&#47;1" on this server.<P>\nReference&#32;&#35;18&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c</P>\n</BODY>\n</HTML>\n',
  { server: 'AkamaiGHost' },
);

interface FrontCase {
  name: string;
  api: UnusualApi;
  exit: 0 | 1 | 2;
  /** The cause that must be named, the front's name in its summary, and its documentation among its advice. */
  cause?: string;
  vendor?: string;
  docs?: string;
  /** Requirements left unjudged (error) because the front answered their requests. */
  unjudged?: string[];
  also?(report: Report): void;
}

const cases: FrontCase[] = [
  // HAProxy
  {
    name: "HAProxy's 503: no server of its backend is up",
    api: { front: every(HAPROXY_503) },
    exit: 2,
    cause: 'front-origin-unreachable',
    vendor: 'HAProxy',
    docs: 'https://docs.haproxy.org/',
  },
  {
    name: 'HAProxy denies the lang requests by an ACL',
    api: { front: withLang(HAPROXY_403) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'HAProxy',
    docs: 'https://docs.haproxy.org/',
    unjudged: ['LANG-TRANSLATION-REPLACES'],
  },
  {
    name: "HAProxy's 504 on the requests without credentials: the refusals are not judged",
    api: {
      front: withoutCredentials(
        html(504, "<html><body><h1>504 Gateway Time-out</h1>\nThe server didn't respond in time.\n</body></html>\n"),
      ),
    },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'HAProxy',
    unjudged: ['AUTH-MISSING-HEADER-REFUSED'],
  },
  // Traefik
  {
    name: "Traefik's 404 page not found on every path: no router matches",
    api: { front: every(text(404, '404 page not found\n', TRAEFIK)) },
    exit: 2,
    cause: 'front-no-route',
    vendor: 'Traefik',
    docs: 'https://doc.traefik.io/traefik/routing/routers/',
  },
  {
    name: "Traefik's Bad Gateway on the requests without credentials",
    api: { front: withoutCredentials(text(502, 'Bad Gateway', TRAEFIK)) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'Traefik',
    unjudged: ['AUTH-MISSING-HEADER-REFUSED'],
  },
  { name: "the API behind Traefik, Go's nosniff on its answers", api: { passedThrough: TRAEFIK }, exit: 0 },
  // Envoy
  {
    name: "Envoy's no healthy upstream on every request",
    api: { front: every(text(503, 'no healthy upstream', { ...ENVOY, 'content-type': 'text/plain' })) },
    exit: 2,
    cause: 'front-origin-unreachable',
    vendor: 'Envoy',
    docs: 'https://www.envoyproxy.io/',
  },
  {
    name: "Envoy's empty 404: no route of its configuration matches",
    api: { front: every({ status: 404, body: '', headers: { ...ENVOY, date: 'Mon, 07 Dec 2026 07:00:00 GMT' } }) },
    exit: 2,
    cause: 'front-no-route',
    vendor: 'Envoy',
  },
  {
    name: "Envoy's RBAC refuses the wrong token before the API sees it",
    api: { front: withWrongToken(text(403, 'RBAC: access denied', ENVOY)) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'Envoy',
    unjudged: ['AUTH-WRONG-TOKEN-REFUSED'],
  },
  {
    name: 'the API behind Envoy, its upstream time on every answer',
    api: { passedThrough: { ...ENVOY, 'x-envoy-upstream-service-time': '12' } },
    exit: 0,
  },
  // Varnish
  {
    // With the Retry-After Varnish always sends: waited on once, then kept, since the backend is still down.
    name: "Varnish's Guru Meditation on every request: the backend failed, no maintenance window",
    api: { front: every(GURU_MEDITATION) },
    exit: 2,
    cause: 'front-origin-unreachable',
    vendor: 'Varnish',
    docs: 'https://varnish-cache.org/',
    also: (report) => expect(report.diagnoses.map((diagnosis) => diagnosis.id)).not.toContain('maintenance'),
  },
  {
    name: "Varnish's Guru Meditation on the lang requests",
    api: { front: withLang(GURU_MEDITATION) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'Varnish',
    unjudged: ['LANG-TRANSLATION-REPLACES'],
  },
  { name: 'the API behind Varnish, passed and not cached', api: { passedThrough: { ...VARNISH, age: '0' } }, exit: 0 },
  // The web server's own access rule
  {
    name: "nginx's own 403 page on every request: a deny rule in front of the API",
    api: { front: every(NGINX_403) },
    exit: 2,
    cause: 'web-server-forbidden',
    vendor: 'nginx',
    docs: 'https://nginx.org/en/docs/http/ngx_http_access_module.html#deny',
    also: (report) =>
      expect(report.diagnoses.map((diagnosis) => diagnosis.summary).join(' ')).not.toContain('while the plain request reached it'),
  },
  {
    name: "Apache's own 403 page on every request: a Require rule in front of the API",
    api: { front: every(APACHE_403) },
    exit: 2,
    cause: 'web-server-forbidden',
    vendor: 'Apache',
    also: (report) =>
      expect(report.diagnoses.map((diagnosis) => diagnosis.summary).join(' ')).not.toContain('while the plain request reached it'),
  },
  // Heroku's router
  {
    name: "Heroku's Application error page: the router got no answer from the app",
    api: { front: every(herokuPage('application-error', 'Application Error')) },
    exit: 2,
    cause: 'front-origin-unreachable',
    vendor: "Heroku's router",
    docs: 'https://devcenter.heroku.com/articles/error-codes',
    also: (report) => expect(report.diagnoses[0]?.advice.join(' ')).toMatch(/H10 .*H12 .*H13 .*H14/),
  },
  {
    name: "Heroku's maintenance mode",
    api: { front: every({ ...herokuPage('maintenance-mode', 'Offline for Maintenance'), headers: { ...HEROKU, 'retry-after': '3600' } }) },
    exit: 2,
    cause: 'maintenance',
    vendor: "Heroku's router",
    also: (report) => expect(report.diagnoses[0]?.advice.join(' ')).toMatch(/heroku maintenance:off/),
  },
  {
    name: "Heroku's Application error on the requests without credentials",
    api: { front: withoutCredentials(herokuPage('application-error', 'Application Error')) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: "Heroku's router",
    unjudged: ['AUTH-MISSING-HEADER-REFUSED'],
  },
  { name: "the API behind Heroku's router", api: { passedThrough: HEROKU }, exit: 0 },
  // Google's front end
  {
    name: "Google's front end answers its own 502: no healthy backend",
    api: {
      front: every(
        googlePage(
          502,
          'Server Error',
          'The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds.',
        ),
      ),
    },
    exit: 2,
    cause: 'front-origin-unreachable',
    vendor: 'Google Front End',
    docs: 'https://cloud.google.com/load-balancing/docs/https/troubleshooting-ext-https-lbs',
  },
  {
    name: "Google's front end answers its own 404: no route in the URL map",
    api: {
      front: every(googlePage(404, 'Not Found', 'The requested URL <code>/api/ticket/status/1</code> was not found on this server.')),
    },
    exit: 2,
    cause: 'front-no-route',
    vendor: 'Google Front End',
  },
  { name: "the API behind Google's front end", api: { passedThrough: { ...GOOGLE, via: '1.1 google' } }, exit: 0 },
  // Citrix NetScaler
  {
    name: "NetScaler's sign-in redirect on the requests without credentials is no refusal of the API's",
    api: { front: withoutCredentials(NETSCALER_LOGIN) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'Citrix NetScaler',
    docs: 'https://docs.netscaler.com/',
    unjudged: ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  },
  {
    name: "NetScaler's sign-in redirect on every request",
    api: { front: every(NETSCALER_LOGIN) },
    exit: 2,
    cause: 'single-sign-on-in-the-way',
    vendor: 'Citrix NetScaler',
    docs: 'https://docs.netscaler.com/',
  },
  {
    name: "the API behind a NetScaler's load balancing, its persistence cookie on every answer",
    api: { passedThrough: { 'set-cookie': 'NSC_ESNS=<redacted>;Path=/;Secure' } },
    exit: 0,
  },
  // Kong
  {
    name: "Kong's no Route matched on every path",
    api: { front: every(json(404, { message: 'no Route matched with those values' }, KONG_OWN)) },
    exit: 2,
    cause: 'front-no-route',
    vendor: 'Kong',
    docs: 'https://docs.konghq.com/',
  },
  {
    name: "Kong's basic-auth plugin refuses every request in JSON of its own",
    api: { front: every(json(401, { message: 'Unauthorized' }, { ...KONG_OWN, 'www-authenticate': 'Basic realm="kong"' })) },
    exit: 2,
    cause: 'gateway-refused',
    vendor: 'Kong',
  },
  {
    name: 'Kong refuses the requests without credentials itself, its Via but no upstream latency',
    api: { front: withoutCredentials(json(401, { message: 'No API key found in request', request_id: 'a1b2' }, { via: 'kong/3.4.2' })) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'Kong',
    unjudged: ['AUTH-MISSING-HEADER-REFUSED'],
  },
  { name: "the API behind Kong: its own refusals carry Kong's Via and are the API's", api: { passedThrough: KONG_PASSED }, exit: 0 },
  // AWS API Gateway
  {
    name: "AWS API Gateway's authorizer refuses every request",
    api: { front: every(json(403, { message: 'Forbidden' }, { ...AWS, 'x-amzn-errortype': 'ForbiddenException' })) },
    exit: 2,
    cause: 'gateway-refused',
    vendor: 'AWS API Gateway',
    docs: 'https://docs.aws.amazon.com/apigateway/',
  },
  {
    name: "AWS API Gateway's integration fails on every request",
    api: { front: every(json(502, { message: 'Internal server error' }, AWS)) },
    exit: 2,
    cause: 'front-origin-unreachable',
    vendor: 'AWS API Gateway',
  },
  {
    name: 'AWS API Gateway refuses the requests without credentials in its own words',
    api: { front: withoutCredentials(json(401, { message: 'Unauthorized' }, AWS)) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'AWS API Gateway',
    unjudged: ['AUTH-MISSING-HEADER-REFUSED'],
  },
  { name: "the API behind AWS API Gateway: its request ids on the API's own refusals", api: { passedThrough: AWS }, exit: 0 },
  // F5 BIG-IP
  {
    name: "F5's rejected page, with HTTP 200, on every request",
    api: { front: every(F5_REJECTED) },
    exit: 2,
    cause: 'front-blocked',
    vendor: 'F5 BIG-IP',
    docs: 'https://techdocs.f5.com/',
    also: (report) => expect(report.diagnoses[0]?.advice.join(' ')).toMatch(/support ID/),
  },
  {
    name: "F5's rejected page on the lang requests",
    api: { front: withLang(F5_REJECTED) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'F5 BIG-IP',
    unjudged: ['LANG-TRANSLATION-REPLACES'],
  },
  { name: "the API behind a BIG-IP, its Server header on the API's answers", api: { passedThrough: { server: 'BigIP' } }, exit: 0 },
  // Akamai
  {
    name: "Akamai's Access Denied on every request",
    api: { front: every(AKAMAI_DENIED) },
    exit: 2,
    cause: 'front-blocked',
    vendor: 'Akamai',
    docs: 'https://techdocs.akamai.com/',
    also: (report) => expect(report.diagnoses[0]?.advice.join(' ')).toMatch(/Reference #/),
  },
  {
    name: "Akamai's Access Denied on the wrong token",
    api: { front: withWrongToken(AKAMAI_DENIED) },
    exit: 2,
    cause: 'front-blocked-some-requests',
    vendor: 'Akamai',
    unjudged: ['AUTH-WRONG-TOKEN-REFUSED'],
  },
  {
    name: 'the API behind Akamai, a cache miss on every answer',
    api: { passedThrough: { 'x-cache': 'TCP_MISS from a23-1-2-3' } },
    exit: 0,
  },
  // The API failing on its own answers beside a front's page: the run has the API's verdict.
  {
    name: "HAProxy's page on the lang requests while the API hands the status to a wrong token",
    api: { front: withLang(HAPROXY_403), accepts: (user, _password, token) => user === token || user === WRONG_TOKEN },
    exit: 1,
    cause: 'front-blocked-some-requests',
    vendor: 'HAProxy',
  },
];

const PHP_ADVICE = /PHP-FPM|php-fpm|\.htaccess|mod_rewrite|AllowOverride|pm\.max_children/;

async function runCase(entry: FrontCase): Promise<CliRun> {
  const server = await serveUnusualApi(TOKEN, entry.api);
  cleanUpAfterAll(server.close);
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--reports', 'json']);
  cleanUpAfterAll(run.cleanup);
  return run;
}

const runOf = startAllBeforeAll(cases.map((entry) => [entry.name, () => runCase(entry)]));

describe('the fronts users meet: each named, with its own fix, and never a PHP fix for a front that is no PHP', () => {
  test.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const run = await runOf(entry.name);
    const report = run.report as Report;
    expect({ exit: run.code, stderr: run.stderr }).toEqual({ exit: entry.exit, stderr: '' });
    expect(contradictions(report.diagnoses, report.exchanges)).toEqual([]);
    const named = report.diagnoses.find((diagnosis) => diagnosis.id === entry.cause);
    if (entry.cause === undefined) expect(report.diagnoses).toEqual([]);
    else expect(named, report.diagnoses.map((diagnosis) => diagnosis.id).join(', ')).toBeDefined();
    if (entry.vendor) expect(named?.summary).toContain(entry.vendor);
    if (entry.docs) expect(named?.advice.join(' ')).toContain(entry.docs);
    for (const diagnosis of report.diagnoses) expect(diagnosis.advice.join(' ')).not.toMatch(PHP_ADVICE);
    for (const id of entry.unjudged ?? []) expect(requirementsWith(report, 'error')).toContain(id);
    entry.also?.(report);
  });
});
