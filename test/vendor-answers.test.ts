import { describe, expect, test } from 'vitest';
import { vendorOf, vendorPage, type AnswerText } from '../src/classify/signatures.js';
import type { ObservedAnswer, StackObservations } from '../src/diagnosis/answers.js';
import { frontAnsweredSome } from '../src/diagnosis/fronts.js';
import { diagnoseStack } from '../src/diagnosis/rules.js';
import type { Diagnosis } from '../src/diagnosis/types.js';
import { answer, classifiedAlone } from './doctor/recorded.js';

/**
 * Each named front's own answers, as its documentation and its users' reports show them, read in-process: who the
 * classification says answered, and the fix and documentation the diagnosis hands the user. The same fronts in front
 * of a whole run are in front-servers.test.ts.
 */

const HTML = { 'content-type': 'text/html; charset=UTF-8' };
const TEXT = { 'content-type': 'text/plain; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
const GO_TEXT = { ...TEXT, 'x-content-type-options': 'nosniff' };
const ENVOY = { server: 'envoy' };
const VARNISH = { via: '1.1 varnish (Varnish/7.1)', 'x-varnish': '32770' };
const HEROKU = { via: '1.1 vegur', server: 'Cowboy' };
const GOOGLE = { server: 'Google Frontend' };
const KONG_OWN = { server: 'kong/3.4.2', 'x-kong-response-latency': '0' };
const AWS_GATEWAY = { 'x-amzn-requestid': '5b0c2f4e-8c1d-4f7e-9a6b-0c1d2e3f4a5b', 'x-amz-apigw-id': 'Ab1CdEfGhIjKlM=' };

const herokuPage = (status: number, page: string): ObservedAnswer =>
  answer(
    status,
    `<!DOCTYPE html>\n<html>\n  <head>\n    <meta charset="utf-8">\n    <title>Heroku</title>\n  </head>\n  <body>\n    <iframe src="//www.herokucdn.com/error-pages/${page}.html"></iframe>\n  </body>\n</html>\n`,
    { ...HTML, ...HEROKU },
  );
const googlePage = (status: number, title: string, words: string): ObservedAnswer =>
  answer(
    status,
    `<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error ${status} (${title})!!1</title>\n  <p><b>${status}.</b> <ins>That\u2019s an error.</ins>\n  <p>${words}  <ins>That\u2019s all we know.</ins>\n`,
    { ...HTML, ...GOOGLE },
  );
const varnishPage = (status: number, reason: string, headers: Record<string, string> = {}): ObservedAnswer =>
  answer(
    status,
    `<!DOCTYPE html>\n<html>\n  <head>\n    <title>${status} ${reason}</title>\n  </head>\n  <body>\n    <h1>Error ${status} ${reason}</h1>\n    <p>${reason}</p>\n    <h3>Guru Meditation:</h3>\n    <p>XID: 32770</p>\n    <hr>\n    <p>Varnish cache server</p>\n  </body>\n</html>\n`,
    { ...HTML, ...VARNISH, ...headers },
  );
const akamaiPage = (status: number, title: string): ObservedAnswer =>
  answer(
    status,
    `<HTML><HEAD>\n<TITLE>${title}</TITLE>\n</HEAD><BODY>\n<H1>${title}</H1>\n \nYou don't have permission to access "http&#58;&#47;&#47;help&#46;example&#46;com&#47;api&#47;ticket&#47;status&#47;1" on this server.<P>\nReference&#32;&#35;18&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c</P>\n</BODY>\n</HTML>\n`,
    { ...HTML, server: 'AkamaiGHost' },
  );
const haproxyPage = (status: number, title: string, words: string): ObservedAnswer =>
  answer(status, `<html><body><h1>${status} ${title}</h1>\n${words}\n</body></html>\n`, { ...HTML, 'cache-control': 'no-cache' });

const F5_REJECTED =
  "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 14396929317839226498<br><br><a href='javascript:history.back();'>[Go Back]</a></body></html>";
const NETSCALER_LOGIN = {
  location: '/logon/LogonPoint/tmindex.html',
  'set-cookie': 'NSC_TASS=/api/ticket/status/1;Path=/;Secure;HttpOnly',
};

const everyProbe = (seen: ObservedAnswer): StackObservations => ({ valid: seen, noHeader: seen, wrongToken: seen });
const onlyDiagnosis = (seen: ObservedAnswer): Diagnosis => {
  const diagnoses = diagnoseStack(everyProbe(seen));
  expect(diagnoses.map((diagnosis) => diagnosis.id)).toHaveLength(1);
  return diagnoses[0] as Diagnosis;
};

interface VendorCase {
  vendor: string;
  seen: ObservedAnswer;
  cause: string;
  /** Words only this vendor's fix for what it did holds. */
  fix: RegExp;
  docs: string;
}

/** Every fix a named front has, each from an answer of that front that calls for it. */
const VENDOR_CASES: [string, VendorCase][] = [
  [
    "HAProxy's 503: no server of its backend is up",
    {
      vendor: 'HAProxy',
      seen: haproxyPage(503, 'Service Unavailable', 'No server is available to handle this request.'),
      cause: 'front-origin-unreachable',
      fix: /^HAProxy holds every server of the backend for down .*option httpchk/,
      docs: 'https://docs.haproxy.org/2.8/configuration.html#5.2-check',
    },
  ],
  [
    "HAProxy's 403: an http-request deny rule",
    {
      vendor: 'HAProxy',
      seen: haproxyPage(403, 'Forbidden', 'Request forbidden by administrative rules.'),
      cause: 'front-blocked',
      fix: /^An "http-request deny" rule of HAProxy matched these requests/,
      docs: 'https://docs.haproxy.org/2.8/configuration.html#5.2-check',
    },
  ],
  [
    "Traefik's 404 page not found: no router matches",
    {
      vendor: 'Traefik',
      seen: answer(404, '404 page not found\n', GO_TEXT),
      cause: 'front-no-route',
      fix: /^No Traefik router matches these requests .*PathPrefix\(`\/api`\)/,
      docs: 'https://doc.traefik.io/traefik/routing/routers/',
    },
  ],
  [
    "Traefik's Bad Gateway: the service's server refused",
    {
      vendor: 'Traefik',
      seen: answer(502, 'Bad Gateway', GO_TEXT),
      cause: 'front-origin-unreachable',
      fix: /^The Traefik service of this router has no server that answers/,
      docs: 'https://doc.traefik.io/traefik/routing/routers/',
    },
  ],
  [
    "Traefik's IPAllowList middleware: Go's plain Forbidden",
    {
      vendor: 'Traefik',
      seen: answer(403, 'Forbidden\n', GO_TEXT),
      cause: 'front-blocked',
      fix: /^A middleware of the Traefik router refused these requests \(IPAllowList, BasicAuth, ForwardAuth\)/,
      docs: 'https://doc.traefik.io/traefik/routing/routers/',
    },
  ],
  [
    "Envoy's no healthy upstream",
    {
      vendor: 'Envoy',
      seen: answer(503, 'no healthy upstream', { ...TEXT, ...ENVOY }),
      cause: 'front-origin-unreachable',
      fix: /^Envoy found no healthy host in the cluster of this route .*\(UH, UF, UT\)/,
      docs: 'https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_conn_man/response_code_details',
    },
  ],
  [
    "Envoy's empty 404: no route of its configuration",
    {
      vendor: 'Envoy',
      seen: answer(404, '', ENVOY),
      cause: 'front-no-route',
      fix: /^No route of Envoy's route configuration matches these requests .*response flag NR/,
      docs: 'https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_conn_man/response_code_details',
    },
  ],
  [
    "Envoy's RBAC filter",
    {
      vendor: 'Envoy',
      seen: answer(403, 'RBAC: access denied', { ...TEXT, ...ENVOY }),
      cause: 'front-blocked',
      fix: /^An Envoy filter refused these requests \(RBAC, JWT authentication, external authorization\)/,
      docs: 'https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_conn_man/response_code_details',
    },
  ],
  [
    "Varnish's Guru Meditation: its backend fetch failed",
    {
      vendor: 'Varnish',
      seen: varnishPage(503, 'Backend fetch failed', { 'retry-after': '5' }),
      cause: 'front-origin-unreachable',
      fix: /^Varnish could not fetch the answer from its backend .*varnishlog -g request/,
      docs: 'https://varnish-cache.org/docs/trunk/users-guide/troubleshooting.html',
    },
  ],
  [
    "Varnish's synthetic 403 from its VCL",
    {
      vendor: 'Varnish',
      seen: varnishPage(403, 'Forbidden'),
      cause: 'front-blocked',
      fix: /^Varnish's VCL answered these requests itself \(a return \(synth\(\.\.\.\)\) in vcl_recv\)/,
      docs: 'https://varnish-cache.org/docs/trunk/users-guide/troubleshooting.html',
    },
  ],
  [
    "Heroku's Application error",
    {
      vendor: "Heroku's router",
      seen: herokuPage(503, 'application-error'),
      cause: 'front-origin-unreachable',
      fix: /^Heroku's router got no answer from the app .*heroku ps:scale web=1 for H14/,
      docs: 'https://devcenter.heroku.com/articles/error-codes',
    },
  ],
  [
    "Heroku's no such app",
    {
      vendor: "Heroku's router",
      seen: herokuPage(404, 'no-such-app'),
      cause: 'front-no-route',
      fix: /^Heroku has no app at this address .*heroku domains/,
      docs: 'https://devcenter.heroku.com/articles/error-codes',
    },
  ],
  [
    "Google's 502: no healthy backend",
    {
      vendor: 'Google Front End',
      seen: googlePage(502, 'Server Error', 'The server encountered a temporary error and could not complete your request.'),
      cause: 'front-origin-unreachable',
      fix: /^Google's load balancer found no healthy backend, .*130\.211\.0\.0\/22/,
      docs: 'https://cloud.google.com/load-balancing/docs/https/troubleshooting-ext-https-lbs',
    },
  ],
  [
    "Google's 404: no route in the URL map",
    {
      vendor: 'Google Front End',
      seen: googlePage(404, 'Not Found', 'The requested URL was not found on this server.'),
      cause: 'front-no-route',
      fix: /^Google's front end has no route for this host or path .*URL map/,
      docs: 'https://cloud.google.com/load-balancing/docs/https/troubleshooting-ext-https-lbs',
    },
  ],
  [
    "Google's 403: IAM in front of Cloud Run",
    {
      vendor: 'Google Front End',
      seen: googlePage(403, 'Forbidden', 'Your client does not have permission to get URL from this server.'),
      cause: 'front-blocked',
      fix: /^Google's front end refused these requests .*allUsers as Cloud Run invoker/,
      docs: 'https://cloud.google.com/load-balancing/docs/https/troubleshooting-ext-https-lbs',
    },
  ],
  [
    "NetScaler's redirect to its sign-in page",
    {
      vendor: 'Citrix NetScaler',
      seen: answer(302, '', NETSCALER_LOGIN),
      cause: 'single-sign-on-in-the-way',
      fix: /^The NetScaler's authentication \(AAA, nFactor\) sends these requests to its sign-in page .*STARTSWITH\("\/api\/"\)/,
      docs: 'https://docs.netscaler.com/en-us/citrix-adc/current-release/aaa-tm.html',
    },
  ],
  [
    "Kong's no Route matched",
    {
      vendor: 'Kong',
      seen: answer(404, JSON.stringify({ message: 'no Route matched with those values' }), { ...JSON_TYPE, ...KONG_OWN }),
      cause: 'front-no-route',
      fix: /^No Kong route matches these requests .*GET among its methods/,
      docs: 'https://docs.konghq.com/gateway/latest/key-concepts/routes/',
    },
  ],
  [
    "Kong's key-auth plugin",
    {
      vendor: 'Kong',
      seen: answer(401, JSON.stringify({ message: 'No API key found in request' }), { ...JSON_TYPE, ...KONG_OWN }),
      cause: 'gateway-refused',
      fix: /^A Kong plugin on the route refused these requests \(key-auth, basic-auth, acl, ip-restriction\)/,
      docs: 'https://docs.konghq.com/gateway/latest/key-concepts/routes/',
    },
  ],
  [
    "Kong's upstream failing",
    {
      vendor: 'Kong',
      seen: answer(502, JSON.stringify({ message: 'An invalid response was received from the upstream server' }), {
        ...JSON_TYPE,
        ...KONG_OWN,
      }),
      cause: 'front-origin-unreachable',
      fix: /^Kong could not reach the route's upstream .*ring-balancer/,
      docs: 'https://docs.konghq.com/gateway/latest/key-concepts/routes/',
    },
  ],
  [
    "AWS API Gateway's Missing Authentication Token: no such resource",
    {
      vendor: 'AWS API Gateway',
      seen: answer(403, JSON.stringify({ message: 'Missing Authentication Token' }), {
        ...JSON_TYPE,
        ...AWS_GATEWAY,
        'x-amzn-errortype': 'MissingAuthenticationTokenException',
      }),
      cause: 'front-no-route',
      fix: /^API Gateway has no resource with a GET method for this path .*execute-api\.<region>\.amazonaws\.com\/<stage>/,
      docs: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html',
    },
  ],
  [
    "AWS API Gateway's Endpoint request timed out",
    {
      vendor: 'AWS API Gateway',
      seen: answer(504, JSON.stringify({ message: 'Endpoint request timed out' }), { ...JSON_TYPE, ...AWS_GATEWAY }),
      cause: 'front-origin-unreachable',
      fix: /^API Gateway's integration failed .*x-amzn-RequestId names it/,
      docs: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html',
    },
  ],
  [
    "F5 BIG-IP's Request Rejected, served with HTTP 200",
    {
      vendor: 'F5 BIG-IP',
      seen: answer(200, F5_REJECTED, { ...HTML, 'set-cookie': 'TS01a2b3c4=0123; Path=/' }),
      cause: 'front-blocked',
      fix: /^The BIG-IP's security policy \(ASM \/ Advanced WAF\) rejected these requests .*Security > Event Logs/,
      docs: 'https://techdocs.f5.com/',
    },
  ],
  [
    "Akamai's Access Denied",
    {
      vendor: 'Akamai',
      seen: akamaiPage(403, 'Access Denied'),
      cause: 'front-blocked',
      fix: /^Akamai denied these requests \("Access Denied" with a Reference #\): translate the Reference #/,
      docs: 'https://techdocs.akamai.com/edge-diagnostics/docs',
    },
  ],
  [
    "Akamai's 503: the origin did not answer",
    {
      vendor: 'Akamai',
      seen: akamaiPage(503, 'Service Unavailable - Zero size object'),
      cause: 'front-origin-unreachable',
      fix: /^Akamai's edge could not get an answer from the origin: .*origin hostname, port and certificate/,
      docs: 'https://techdocs.akamai.com/edge-diagnostics/docs',
    },
  ],
];

describe("a named front's own answer to every request: the front named, its own fix and its documentation", () => {
  test.each(VENDOR_CASES)('%s', (_name, { vendor, seen: made, cause, fix, docs }) => {
    // Classified again here, inside the test, where the mutation run sees what code the test reaches.
    const seen = classifiedAlone(made);
    expect(seen.classified.origin).toMatchObject({ kind: 'front', vendor });
    const diagnosis = onlyDiagnosis(seen);
    expect(diagnosis).toMatchObject({ id: cause, party: 'environment', inconclusive: true });
    expect(diagnosis.summary).toContain(vendor === "Heroku's router" || vendor === 'Citrix NetScaler' ? vendor : vendor.split(' ')[0]);
    // A front without a route for the API may also lack the service's path prefix in --base-url: said on a line of its own.
    expect(diagnosis.advice).toHaveLength(cause === 'front-no-route' ? 3 : 2);
    expect(diagnosis.advice[0]).toMatch(fix);
    expect(diagnosis.advice[1]).toBe(`${vendor}'s documentation: ${docs}`);
  });

  test("Heroku's maintenance mode: its own way out, then when to come back", () => {
    const seen = answer(503, herokuPage(503, 'maintenance-mode').body, { ...HTML, ...HEROKU, 'retry-after': '3600' });
    expect(seen.classified.origin).toMatchObject({ kind: 'front', front: 'maintenance', vendor: "Heroku's router" });
    const diagnosis = onlyDiagnosis(seen);
    expect(diagnosis.id).toBe('maintenance');
    expect(diagnosis.summary).toContain("Heroku's router's maintenance page");
    expect(diagnosis.advice.slice(0, 2)).toEqual([
      'The app is in Heroku\'s maintenance mode: "heroku maintenance:off" once the work is done, then run the suite again.',
      "Heroku's router's documentation: https://devcenter.heroku.com/articles/error-codes",
    ]);
  });

  test("Varnish's own 404 from its VCL: no fix of Varnish's for a missing route, so the general one, with no documentation line", () => {
    const diagnosis = onlyDiagnosis(varnishPage(404, 'Not Found'));
    expect(diagnosis).toMatchObject({ id: 'front-no-route', confidence: 'high' });
    expect(diagnosis.advice).toEqual([
      'Give Varnish a route for the API paths (/api/...) to the web server of the service.',
      'If the service lives under a path (https://example.com/support), --base-url must include it: a missing prefix matches no route either.',
    ]);
  });

  test.each([
    ["NetScaler's redirect to its sign-in page", () => answer(302, '', NETSCALER_LOGIN)],
    ["NetScaler's VPN sign-in page served in place of the answer", () => answer(200, '<script>location="/vpn/index.html"</script>', HTML)],
  ])('%s on the requests without credentials only: its own sign-in fix', (_name, seen) => {
    const blocked = [{ requirement: 'AUTH-MISSING-REFUSED', credentials: 'no Authorization header', withToken: false, answer: seen() }];
    expect(frontAnsweredSome(blocked, false)?.advice).toEqual([
      expect.stringMatching(/^The NetScaler's authentication \(AAA, nFactor\) sends these requests to its sign-in page/),
      "Citrix NetScaler's documentation: https://docs.netscaler.com/en-us/citrix-adc/current-release/aaa-tm.html",
    ]);
  });

  test("Kong's own redirect of plain HTTP to HTTPS on some requests is no plugin of Kong's refusing them", () => {
    const redirect = answer(301, JSON.stringify({ message: 'Please use HTTPS protocol' }), {
      ...JSON_TYPE,
      ...KONG_OWN,
      location: 'https://help.example.com/api/ticket/status/1?lang=fr',
    });
    expect(redirect.classified).toMatchObject({ origin: { front: 'gateway', vendor: 'Kong' }, meaning: { kind: 'redirect' } });
    const blocked = [{ requirement: 'LANG-FR', credentials: 'valid token', withToken: true, answer: redirect }];
    expect(frontAnsweredSome(blocked, false)?.advice).toEqual([
      expect.stringMatching(/^Let these requests through Kong: its log names the rule/),
    ]);
  });

  test('a front without a fix of its own gets the general one, with no documentation line', () => {
    const sucuri = answer(403, '<title>Sucuri WebSite Firewall - Access Denied</title>', HTML);
    const diagnosis = onlyDiagnosis(sucuri);
    expect(diagnosis).toMatchObject({ id: 'front-blocked', confidence: 'high' });
    expect(diagnosis.advice[0]).toMatch(/^Let the suite's requests through Sucuri: /);
    expect(diagnosis.advice.join(' ')).not.toMatch(/documentation/);
  });
});

describe("a vendor's signature, clause by clause: its own answer, or only the headers it adds to what it passes on", () => {
  const PLAIN = { 'content-type': 'text/plain' };
  const at = (status: number, body: string, headers: Record<string, string> = {}): AnswerText => ({ status, headers, body });
  const KONG_LATENCY = { 'x-kong-response-latency': '2' };
  const AWS_ID = { 'x-amzn-requestid': '5f1a6b7c-0d2e-4f3a-9b8c-7d6e5f4a3b2c' };

  /** [what, the answer, the vendor whose own answer it is, the vendor whose headers it carries]. */
  test.each([
    [
      "Cloudflare's challenge platform script",
      at(403, '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8a1b"></script><div id="cf-chl-widget"></div>'),
      'Cloudflare',
      'Cloudflare',
    ],
    ["Akamai's reference number, written plainly", at(403, '<p>Reference #18.2f3e4d5c.1700000000.1a2b3c</p>'), 'Akamai', 'Akamai'],
    ["Fastly's details line alone", at(503, '<p>Details: cache-ams21080-AMS 1700000000 1234567</p>'), 'Fastly', 'Fastly'],
    ['a cache named in other words is not Fastly', at(503, '<p>Details: cache-db1 is down</p>'), undefined, undefined],
    [
      "Varnish's own page under a cache node that is no Fastly's",
      at(503, '<p>Guru Meditation:</p><p>XID: 1</p>', { 'x-served-by': 'cache-fra1-Primary' }),
      'Varnish',
      'Varnish',
    ],
    ['ModSecurity named without its underscore', at(403, '<h1>Forbidden</h1>', { server: 'ModSecurity' }), undefined, 'ModSecurity'],
    [
      "Fastly's node passing Varnish's own page on",
      at(503, '<p>Guru Meditation:</p><p>XID: 1</p>', { 'x-served-by': 'cache-ams21080-AMS' }),
      'Fastly',
      'Fastly',
    ],
    ["Varnish's page by its last line alone", at(503, '<hr><p>Varnish cache server</p>'), 'Varnish', 'Varnish'],
    ['Varnish by its header on an answer it passes', at(200, '{}', { 'x-varnish': '32770' }), undefined, 'Varnish'],
    ['Varnish named in Via', at(200, '{}', { via: '1.1 varnish (Varnish/7.1)' }), undefined, 'Varnish'],
    [
      "HAProxy's 502: a server's answer it could not read",
      at(502, '<h1>502 Bad Gateway</h1>\nThe server returned an invalid or incomplete response.\n'),
      'HAProxy',
      'HAProxy',
    ],
    ["HAProxy's 504", at(504, "<h1>504 Gateway Time-out</h1>\nThe server didn't respond in time.\n"), 'HAProxy', 'HAProxy'],
    ["Go's words without nosniff are not Traefik's", at(502, 'Bad Gateway', PLAIN), undefined, undefined],
    [
      "Go's words as HTML are not Traefik's",
      at(502, 'Bad Gateway', { 'content-type': 'text/html', 'x-content-type-options': 'nosniff' }),
      undefined,
      undefined,
    ],
    [
      "an application's plain text that ends in Go's words is not Traefik's",
      at(502, 'Upstream said: Bad Gateway', { ...PLAIN, 'x-content-type-options': 'nosniff' }),
      undefined,
      undefined,
    ],
    [
      "an application's plain text that opens with Go's words is not Traefik's",
      at(403, 'Forbidden: this help desk is closed', { ...PLAIN, 'x-content-type-options': 'nosniff' }),
      undefined,
      undefined,
    ],
    ["Traefik's Gateway Timeout", at(504, 'Gateway Timeout\n', { ...PLAIN, 'x-content-type-options': 'nosniff' }), 'Traefik', 'Traefik'],
    [
      "Envoy's upstream connect error",
      at(503, 'upstream connect error or disconnect/reset before headers. reset reason: connection failure', PLAIN),
      'Envoy',
      'Envoy',
    ],
    [
      "Envoy's words quoted inside another page are not Envoy's answer",
      at(503, '<p>The status page says: no healthy upstream</p>'),
      undefined,
      undefined,
    ],
    ["Envoy's JWT filter", at(401, 'Jwt is missing', PLAIN), 'Envoy', 'Envoy'],
    ["Envoy's empty 400 of its own", at(400, ' ', { server: 'envoy' }), 'Envoy', 'Envoy'],
    ["an empty 399 through Envoy is not Envoy's refusal", at(399, '', { server: 'envoy' }), undefined, 'Envoy'],
    [
      "an empty 403 from upstream through Envoy is the upstream's",
      at(403, '', { server: 'envoy', 'x-envoy-upstream-service-time': '3' }),
      undefined,
      'Envoy',
    ],
    ["Envoy's empty 403 under Istio's name", at(403, '', { server: 'istio-envoy' }), 'Envoy', 'Envoy'],
    ['a text from upstream through Envoy', at(403, 'Forbidden by policy', { server: 'envoy' }), undefined, 'Envoy'],
    ['an Envoy header alone', at(200, '{}', { 'x-envoy-decorator-operation': 'api' }), undefined, 'Envoy'],
    [
      "Heroku's maintenance page is a maintenance window, not the router's",
      at(503, '<iframe src="//www.herokucdn.com/error-pages/maintenance-mode.html"></iframe>'),
      undefined,
      undefined,
    ],
    ["Heroku's router named in Via", at(200, '{}', { via: '1.1 heroku-router' }), undefined, "Heroku's router"],
    ["Google's error page in plain quotes", at(500, "<p><b>500.</b> That's an error.</p>"), 'Google Front End', 'Google Front End'],
    ["Google's title alone", at(404, '<title>Error 404 (Not Found)!!1</title>'), 'Google Front End', 'Google Front End'],
    ["Google's front end by its server's name", at(200, '{}', { server: 'gws' }), undefined, 'Google Front End'],
    ['a server merely mentioning GFE later is not Google', at(200, '{}', { server: 'nginx (GFE)' }), undefined, undefined],
    ['Google named in Via', at(200, '{}', { via: '1.1 google' }), undefined, 'Google Front End'],
    [
      "a Via naming googlebot's host is not Google's front end",
      at(200, '{}', { via: '1.1 googleusercontent-proxy' }),
      undefined,
      undefined,
    ],
    [
      "NetScaler's VPN sign-in page in the body",
      at(200, '<script>location="/vpn/index.html"</script>'),
      'Citrix NetScaler',
      'Citrix NetScaler',
    ],
    ["NetScaler's traffic management login", at(302, '', { location: '/cgi/tmlogin' }), 'Citrix NetScaler', 'Citrix NetScaler'],
    ["NetScaler's cookie alone", at(200, '{}', { 'set-cookie': 'NSC_ESNS=abc;Path=/' }), undefined, 'Citrix NetScaler'],
    [
      "NetScaler's cookie after another",
      at(200, '{}', { 'set-cookie': 'session=1; Path=/, NSC_ESNS=abc;Path=/' }),
      undefined,
      'Citrix NetScaler',
    ],
    ['a cookie whose name only ends in NSC_', at(200, '{}', { 'set-cookie': 'XNSC_ESNS=abc;Path=/' }), undefined, undefined],
    ["NetScaler's scrambled Connection header", at(200, '{}', { cneonction: 'close' }), undefined, 'Citrix NetScaler'],
    ['the other scrambling of it', at(200, '{}', { nncoection: 'close' }), undefined, 'Citrix NetScaler'],
    ["Kong's own message, its name in Server", at(401, '{"message":"Unauthorized"}', { server: 'kong/3.4.2' }), 'Kong', 'Kong'],
    ["Kong's own message, its name in Via", at(401, '{"message":"Unauthorized"}', { via: '1.1 kong/3.4.2' }), 'Kong', 'Kong'],
    [
      "Kong named in Server on the API's envelope",
      at(401, '{"status":"error","message":"Unauthenticated.","data":[]}', { server: 'kong/3.4.2' }),
      undefined,
      'Kong',
    ],
    [
      "the API's envelope through Kong is no answer of Kong's",
      at(401, '{"status":"error","message":"Unauthenticated.","data":[]}', { via: 'kong/3.4.2' }),
      undefined,
      'Kong',
    ],
    [
      "an upstream's answer through Kong, both latencies on it",
      at(401, '{"message":"Unauthorized"}', { ...KONG_LATENCY, 'x-kong-upstream-latency': '9' }),
      undefined,
      'Kong',
    ],
    ["Kong's upstream latency alone", at(200, '{}', { 'x-kong-upstream-latency': '9' }), undefined, 'Kong'],
    [
      "AWS API Gateway's message beside its request id",
      at(403, '{"message":"User is not authorized to access this resource with an explicit deny"}', AWS_ID),
      'AWS API Gateway',
      undefined,
    ],
    [
      "AWS API Gateway's message with its request id field",
      at(403, '{"message":"Forbidden","request_id":"5f1a"}', { 'x-amz-apigw-id': 'Ab1=' }),
      'AWS API Gateway',
      'AWS API Gateway',
    ],
    [
      'AWS API Gateway refusing a Basic token where it expects a signature',
      at(
        403,
        JSON.stringify({
          message:
            "Invalid key=value pair (missing equal-sign) in Authorization header (hashed with SHA-256 and encoded with Base64): 'Zm9vOmJhcg=='.",
        }),
        AWS_ID,
      ),
      'AWS API Gateway',
      undefined,
    ],
    ["an application's own not-found behind API Gateway", at(404, '{"message":"Status Not Found"}', AWS_ID), undefined, undefined],
    ["an application's own message behind API Gateway", at(403, '{"message":"Forbidden for this user"}', AWS_ID), undefined, undefined],
    ['a message beside other fields behind API Gateway', at(403, '{"message":"Forbidden","code":7}', AWS_ID), undefined, undefined],
    ['a message that is no text', at(403, '{"message":["Forbidden"]}', AWS_ID), undefined, undefined],
    ['a JSON text', at(403, '"Forbidden"', AWS_ID), undefined, undefined],
    ['a JSON list', at(403, '["Forbidden"]', AWS_ID), undefined, undefined],
    ['JSON null', at(403, 'null', AWS_ID), undefined, undefined],
    ['no JSON at all', at(403, 'Forbidden', AWS_ID), undefined, undefined],
    ["API Gateway's stage id alone", at(200, '{}', { 'x-amz-apigw-id': 'Ab1=' }), undefined, 'AWS API Gateway'],
    // Every page's words are searched at once first: case is kept where a vendor's own words keep it, and words
    // anchored at the start stay so.
    [
      "HAProxy's words in other case",
      at(503, '<html><body>no server is available to handle this request.</body></html>'),
      undefined,
      undefined,
    ],
    ["Envoy's words in capitals", at(503, 'NO HEALTHY UPSTREAM'), undefined, undefined],
    ["Envoy's words after others", at(503, 'upstream: no healthy upstream'), undefined, undefined],
    ["Google's page in capitals", at(502, "<p>THAT'S AN ERROR.</p>"), undefined, undefined],
    [
      "NetScaler's sign-in named by its redirect alone",
      at(302, '', { location: '/logon/LogonPoint/tmindex.html' }),
      'Citrix NetScaler',
      'Citrix NetScaler',
    ],
    [
      "NetScaler's sign-in named by its page alone",
      at(200, '<a href="/vpn/index.html">Sign in</a>'),
      'Citrix NetScaler',
      'Citrix NetScaler',
    ],
    [
      "a WAF's words inside the API's own JSON envelope",
      at(403, '{"status":"error","message":"Request blocked by Sucuri WebSite Firewall","data":null}', {
        'content-type': 'application/json',
      }),
      'Sucuri',
      'Sucuri',
    ],
  ] as const)('%s', (_what, seen, own, carried) => {
    expect(vendorPage(seen)?.name).toBe(own);
    expect(vendorOf(seen)?.name).toBe(carried ?? own);
  });
});
