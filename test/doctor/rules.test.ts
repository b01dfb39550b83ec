import { describe, expect, test } from 'vitest';
import type { FailedAnswer, ObservedAnswer, StackObservations } from '../../src/diagnosis/answers.js';
import { diagnoseStack as stackRules, headerLostOnSome as headerLost, unrecognisedAnswer } from '../../src/diagnosis/rules.js';
import { diagnose } from '../../src/diagnosis/diagnose.js';
import { requirement } from '../../src/requirements/catalog.js';
import type { RequirementResult } from '../../src/report/model/types.js';
import type { Diagnosis, ClassifiedExchanges } from '../../src/diagnosis/types.js';
import { variantLabel } from '../../src/exchange/credentials.js';
import type { JudgedExchange } from '../../src/judge/scenario-result.js';
import { classifiedExchanges } from '../../src/pipeline/pipeline.js';
import { STACK_REQUESTS, stackRequestKey, type StackRequestName } from '../../src/record/plan.js';
import { nginxDocUrl } from '../../src/diagnosis/nginx-docs.js';
import { NGINX_SITES, type NginxSite } from '../lab/configs.js';
import {
  answer,
  APACHE_ADVICE,
  APACHE_404_PAGE,
  APACHE_500_PAGE,
  APACHE_503_PAGE,
  apacheNotFound,
  BASE,
  classifiedAlone,
  classifiedFailures,
  classifiedObservations,
  fromApache,
  LAB,
  missingCredentials,
  MISSING_CREDENTIALS_BODY,
  NGINX_404_PAGE,
  nginxLab,
  served,
  STATUS_BODY,
  WRONG_TOKEN_BODY,
  wrongTokenRefused,
} from './recorded.js';

/** The rules, handed each answer classified from what it holds once a test is done changing it. */
const diagnoseStack = (observations: StackObservations): Diagnosis[] => stackRules(classifiedObservations(observations));
const headerLostOnSome = (valid: ObservedAnswer, lost: FailedAnswer[], noHeader?: ObservedAnswer): Diagnosis =>
  headerLost(classifiedAlone(valid), classifiedFailures(lost), noHeader && classifiedAlone(noHeader));
const only = (observations: StackObservations): Diagnosis => {
  const diagnoses = diagnoseStack(observations);
  expect(diagnoses).toHaveLength(1);
  return diagnoses[0] as Diagnosis;
};
const snippetText = (diagnosis: Diagnosis): string => (diagnosis.snippets ?? []).flatMap((snippet) => snippet.lines).join('\n');
const withoutServer = (observations: StackObservations): StackObservations =>
  Object.fromEntries(
    Object.entries(observations).map(([name, seen]) => [
      name,
      { ...seen, headers: { 'content-type': seen.headers['content-type'] ?? '' } },
    ]),
  );

describe('hosting-stack rules, on answers recorded from real servers', () => {
  test('a healthy deployment gets no diagnosis', () => {
    expect(diagnoseStack(LAB.conformant ?? {})).toEqual([]);
  });

  test('no answer to judge, no diagnosis', () => {
    expect(diagnoseStack({})).toEqual([]);
  });

  test('the token refused exactly like no header, on Apache: header stripped or token wrong, with the rewrite rule and CGI -> PHP-FPM', () => {
    const diagnosis = only(LAB.headerStripped ?? {});
    // Nothing served, a wrong token answered as no header: nothing tells a stripped header from a wrong token.
    expect(diagnosis).toMatchObject({
      id: 'authorization-header-stripped',
      party: 'environment',
      confidence: 'medium',
      inconclusive: true,
    });
    expect(diagnosis.summary).toContain('either the web server (or something in front of it) strips the Authorization header');
    expect(diagnosis.summary).toContain('or the token is wrong; nothing in this run tells the two apart');
    expect(diagnosis.advice.join(' ')).toContain('"RequestHeader unset Authorization" (mod_headers)');
    expect(diagnosis.advice[0]).toMatch(/^To tell the two apart/);
    expect(diagnosis.evidence).toContain('with the token, with a wrong token and with no Authorization header');
    expect(diagnosis.advice.join(' ')).toContain('Replace CGI by PHP-FPM (proxy_fcgi) or SuPHP');
    expect(diagnosis.advice.join(' ')).not.toContain('Other web servers');
    expect(snippetText(diagnosis)).toContain('RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]');
    expect(snippetText(diagnosis)).toContain('SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"');
  });

  test('header stripped behind an unnamed server: the Apache advice and a word for other servers', () => {
    const diagnosis = only(withoutServer(LAB.headerStripped ?? {}));
    expect(diagnosis.id).toBe('authorization-header-stripped');
    expect(diagnosis.advice.join(' ')).toContain('mod_rewrite');
    expect(diagnosis.advice.at(-2)).toMatch(/^Other web servers/);
    expect(diagnosis.advice.at(-1)).toMatch(/^If a proxy, load balancer, CDN or WAF stands in front of the web server/);
  });

  test('header stripped on nginx: the nginx advice, not the Apache one', () => {
    const nginx = answer(401, MISSING_CREDENTIALS_BODY, { server: 'nginx/1.22.1', 'content-type': 'application/json' });
    const diagnosis = only({ valid: nginx, noHeader: nginx, wrongToken: nginx });
    expect(diagnosis.id).toBe('authorization-header-stripped');
    expect(diagnosis.advice.join(' ')).toContain('fastcgi_pass_request_headers off');
    expect(diagnosis.advice.join(' ')).not.toContain('.htaccess');
    expect(snippetText(diagnosis)).toContain('fastcgi_param HTTP_AUTHORIZATION $http_authorization;');
  });

  test('Apache 404 on /api/ while /index.php/api/ reaches the application: rewrite not applied, high confidence', () => {
    const diagnosis = only(LAB.rewriteNotApplied ?? {});
    expect(diagnosis).toMatchObject({ id: 'rewrite-not-applied', party: 'environment', confidence: 'high' });
    expect(diagnosis.summary).toContain('mod_rewrite is not enabled or AllowOverride');
    expect(diagnosis.evidence).toContain('while GET /index.php/api/ticket/status/1 reached the application: HTTP 401');
    expect(diagnosis.evidence).toContain('there the token was refused like no header');
    expect(snippetText(diagnosis)).toContain('a2enmod rewrite');
    expect(snippetText(diagnosis)).toContain('    AllowOverride All');
  });

  test('Apache 404 on /api/ without the /index.php probe (the main run): the same diagnosis, medium confidence', () => {
    const diagnosis = only({ valid: apacheNotFound, noHeader: apacheNotFound, wrongToken: apacheNotFound });
    expect(diagnosis).toMatchObject({ id: 'rewrite-not-applied', confidence: 'medium' });
    expect(diagnosis.evidence).toContain('"ticketing-conformance doctor" confirms it');
  });

  test("Apache's 404 page is recognised without a Server header; an unknown HTML 404 gets low confidence", () => {
    const bare = answer(404, APACHE_404_PAGE, { 'content-type': 'text/html; charset=iso-8859-1' });
    expect(only({ valid: bare })).toMatchObject({ id: 'rewrite-not-applied', confidence: 'medium' });
    const unknown = answer(404, '<html><body>Nothing here</body></html>', { 'content-type': 'text/html' });
    expect(only({ valid: unknown })).toMatchObject({ id: 'rewrite-not-applied', confidence: 'low' });
  });

  test('nginx 404 on /api/ while /index.php/api/ reaches the application: try_files to the front controller', () => {
    const page = answer(404, NGINX_404_PAGE, { server: 'nginx/1.22.1', 'content-type': 'text/html' });
    const front = answer(
      401,
      MISSING_CREDENTIALS_BODY,
      { server: 'nginx/1.22.1', 'content-type': 'application/json' },
      '/index.php/api/ticket/status/1',
    );
    const diagnosis = only({ valid: page, noHeader: page, frontController: front, frontControllerNoHeader: front });
    expect(diagnosis).toMatchObject({ id: 'front-controller-not-routed', confidence: 'high' });
    expect(snippetText(diagnosis)).toContain('try_files $uri $uri/ /index.php?$query_string;');
  });

  test('neither /api/ nor /index.php/api/ reaches the application: the base URL is questioned', () => {
    const front = fromApache(404, APACHE_404_PAGE, 'text/html; charset=iso-8859-1', '/index.php/api/ticket/status/1');
    const diagnosis = only({ valid: apacheNotFound, noHeader: apacheNotFound, frontController: front });
    expect(diagnosis).toMatchObject({ id: 'api-not-found', confidence: 'medium' });
    expect(diagnosis.advice.join(' ')).toContain('--base-url');
  });

  test('Apache 500 page: a .htaccess line whose module is missing, mod_rewrite named', () => {
    const page = fromApache(500, APACHE_500_PAGE, 'text/html; charset=iso-8859-1');
    const diagnosis = only({ valid: page, noHeader: page });
    expect(diagnosis).toMatchObject({ id: 'web-server-error', confidence: 'medium' });
    expect(diagnosis.summary).toContain('Apache fails with its own error page (HTTP 500)');
    expect(diagnosis.advice.join(' ')).toContain("Invalid command 'RewriteEngine'");
    expect(snippetText(diagnosis)).toContain('a2enmod rewrite');
  });

  test('Apache 503 page: PHP-FPM cannot be reached', () => {
    const page = fromApache(503, APACHE_503_PAGE, 'text/html; charset=iso-8859-1');
    const diagnosis = only({ valid: page });
    expect(diagnosis.id).toBe('web-server-error');
    expect(diagnosis.summary).toContain('it cannot reach PHP (PHP-FPM is not running');
    expect(snippetText(diagnosis)).toContain('listen = /run/php/php8.2-fpm.sock');
  });

  test('an HTML page with 200 on the API path: the requests do not reach the API', () => {
    const page = answer(200, '<!DOCTYPE html><html><body><div id="app"></div></body></html>', {
      'content-type': 'text/html; charset=UTF-8',
    });
    expect(only({ valid: page, noHeader: page }).id).toBe('api-path-serves-html');
  });

  test('the token refused, but unlike no header: the token is wrong, not the web server, and nothing can be judged', () => {
    const diagnosis = only({ valid: wrongTokenRefused, noHeader: missingCredentials, wrongToken: wrongTokenRefused });
    expect(diagnosis).toMatchObject({ id: 'token-refused', party: 'environment', inconclusive: true, confidence: 'high' });
    // Both refusals are HTTP 401: the evidence says what differs, never "HTTP 401 differs from HTTP 401".
    expect(diagnosis.evidence).toContain('differs from the answer with no header (both HTTP 401, with different bodies)');
  });

  test('every credential refused alike but a malformed header answered otherwise: the header arrives, the token is wrong', () => {
    const malformed = fromApache(400, '{"message":"Malformed Authorization header."}');
    const diagnosis = only({
      valid: missingCredentials,
      noHeader: missingCredentials,
      wrongToken: missingCredentials,
      invalidHeader: malformed,
    });
    expect(diagnosis).toMatchObject({ id: 'token-refused', inconclusive: true });
    expect(diagnosis.evidence).toContain('a malformed Authorization header got another answer (HTTP 400 against HTTP 401)');
  });

  test('the token refused like no header while a wrong token is answered otherwise: the header carrying the token is lost', () => {
    const diagnosis = only({ valid: missingCredentials, noHeader: missingCredentials, wrongToken: wrongTokenRefused });
    expect(diagnosis).toMatchObject({ id: 'authorization-header-stripped', party: 'environment' });
    expect(diagnosis.inconclusive).toBeUndefined();
    expect(diagnosis.summary).toContain('the API tells a wrong token from a missing header');
    expect(diagnosis.evidence).toContain(`with a wrong token: HTTP 401 (application/json) ${WRONG_TOKEN_BODY}`);
    expect(diagnosis.advice.join(' ')).toContain('RequestHeader');
  });

  test('the token refused like no header and served through /index.php/api/: the header is lost on the API path, the token is right', () => {
    const front = fromApache(200, STATUS_BODY, undefined, '/index.php/api/ticket/status/1');
    const diagnosis = only({ ...LAB.headerStripped, frontController: front });
    expect(diagnosis).toMatchObject({ id: 'authorization-header-stripped', party: 'environment' });
    expect(diagnosis.inconclusive).toBeUndefined();
    expect(diagnosis.summary).toContain('while GET /index.php/api/ticket/status/1 was served with the same token: the token is right');
  });

  test('served without a token or with a wrong one: authentication is not enforced', () => {
    expect(only({ valid: served, noHeader: served, wrongToken: wrongTokenRefused })).toMatchObject({
      id: 'authentication-not-enforced',
      party: 'target',
    });
    expect(only({ valid: served, noHeader: missingCredentials, wrongToken: served }).evidence).toContain(
      'without a valid token answered HTTP 200',
    );
  });

  test('the application answering "not found" to every request is not mistaken for a stripped header', () => {
    const notFound = fromApache(404, '{"status":"error","message":"Route not found.","data":[]}');
    expect(diagnoseStack({ valid: notFound, noHeader: notFound, wrongToken: notFound })).toEqual([]);
  });

  test('the doctor names an answer no rule knows, with low confidence', () => {
    const odd = fromApache(418, "I'm a teapot", 'text/plain');
    expect(diagnoseStack({ valid: odd, noHeader: missingCredentials })).toEqual([]);
    expect(unrecognisedAnswer(odd)).toMatchObject({ id: 'unrecognised-answer', confidence: 'low' });
  });

  test("the application's own server error names the application, not the web server", () => {
    const failed = fromApache(500, '{"status":"error","message":"SQLSTATE[HY000] [2002] Connection refused","data":[]}');
    expect(diagnoseStack({ valid: failed, noHeader: missingCredentials })).toMatchObject([
      { id: 'application-failed', party: 'target', summary: expect.stringMatching(/it cannot reach its database/) as string },
    ]);
  });
});

/** Every recorded configuration by name: the Apache lab's, and each nginx site's as "nginx <site>". */
const RECORDED: Record<string, StackObservations> = {
  ...LAB,
  ...Object.fromEntries(NGINX_SITES.map((site) => [`nginx ${site}`, nginxLab(site)])),
};
const RECORDED_NAMES = Object.keys(RECORDED);

const wordsOf = (diagnosis: Diagnosis): string =>
  [diagnosis.summary, diagnosis.evidence, ...diagnosis.advice, snippetText(diagnosis)].join('\n');

describe('nginx rules, on answers recorded from the nginx lab (test/integration/nginx-lab.test.ts)', () => {
  const nginxOnly = (site: NginxSite): Diagnosis => only(nginxLab(site));

  test.each(['front-controller', 'auth-basic-api-exempt'] as const)('%s: no diagnosis', (site) => {
    expect(diagnoseStack(nginxLab(site))).toEqual([]);
  });

  test.each(NGINX_SITES)('%s: no Apache advice on an nginx stack', (site) => {
    for (const diagnosis of diagnoseStack(nginxLab(site))) expect(wordsOf(diagnosis)).not.toMatch(APACHE_ADVICE);
  });

  test.each(['authorization-param-emptied', 'proxy-drops-authorization'] as const)(
    '%s: header stripped, with the fastcgi_param and proxy_set_header lines and their documentation',
    (site) => {
      const diagnosis = nginxOnly(site);
      expect(diagnosis).toMatchObject({ id: 'authorization-header-stripped', confidence: 'medium' });
      const advice = diagnosis.advice.join(' ');
      expect(advice).toContain('look for a "fastcgi_param HTTP_AUTHORIZATION" line that sets it to ""');
      expect(advice).toContain('look there for "proxy_set_header Authorization" set to ""');
      for (const directive of ['fastcgi_param', 'fastcgi_pass_request_headers', 'proxy_set_header', 'proxy_pass_request_headers'] as const)
        expect(advice).toContain(nginxDocUrl(directive));
      expect(snippetText(diagnosis)).toContain('fastcgi_param HTTP_AUTHORIZATION $http_authorization;');
      expect(snippetText(diagnosis)).toContain('proxy_set_header Authorization $http_authorization;');
    },
  );

  test('root one folder above index.php: PHP-FPM\'s "File not found.", root and SCRIPT_FILENAME with their documentation', () => {
    const diagnosis = nginxOnly('root-above-application');
    expect(diagnosis).toMatchObject({ id: 'php-fpm-script-not-found', inconclusive: true, confidence: 'high' });
    expect(diagnosis.advice[0]).toMatch(/^Set root to the folder index\.php is in/);
    expect(diagnosis.advice[0]).toContain('fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;');
    expect(diagnosis.advice[0]).toContain(nginxDocUrl('root'));
    expect(diagnosis.advice[0]).toContain(nginxDocUrl('fastcgi_param'));
  });

  test("Debian's default try_files: nginx's 404 page while /index.php/api/ is served, try_files with its documentation", () => {
    const diagnosis = nginxOnly('no-front-controller');
    expect(diagnosis).toMatchObject({ id: 'front-controller-not-routed', confidence: 'high' });
    expect(diagnosis.evidence).toContain('while GET /index.php/api/ticket/status/1 reached the application: HTTP 200');
    expect(diagnosis.advice.join(' ')).toContain(nginxDocUrl('try_files'));
    expect(snippetText(diagnosis)).toContain('try_files $uri $uri/ /index.php?$query_string;');
  });

  test("fastcgi_pass to a socket that is not there: nginx's 502 page, fastcgi_pass with its documentation", () => {
    const diagnosis = nginxOnly('fpm-socket-missing');
    expect(diagnosis).toMatchObject({ id: 'web-server-error', inconclusive: true });
    expect(diagnosis.summary).toContain('nginx answers HTTP 502 with its own error page: it cannot reach PHP');
    expect(diagnosis.advice[1]).toContain('make the socket of nginx\'s fastcgi_pass the one in the pool\'s "listen =" line');
    expect(diagnosis.advice[1]).toContain(nginxDocUrl('fastcgi_pass'));
    expect(snippetText(diagnosis)).toContain('fastcgi_pass unix:/run/php/php8.2-fpm.sock;');
  });

  test("auth_basic on location /: nginx's own 401 page, told from the API's by who answered, auth_basic off for /api/", () => {
    const diagnosis = nginxOnly('auth-basic');
    expect(diagnosis).toMatchObject({ id: 'web-server-password', party: 'environment', inconclusive: true, confidence: 'high' });
    expect(diagnosis.evidence).toContain('with WWW-Authenticate: Basic realm="Staff only"');
    expect(diagnosis.evidence).toContain('while GET /index.php/api/ticket/status/1 reached the application: HTTP 200');
    expect(diagnosis.advice[0]).toContain(nginxDocUrl('auth_basic'));
    expect(snippetText(diagnosis)).toContain('    auth_basic off;');
    // Without the Server header, nginx's page still says who wrote it.
    expect(only(withoutServer(nginxLab('auth-basic')))).toMatchObject({ id: 'web-server-password', snippets: diagnosis.snippets });
  });

  test("the API's own 401, even with a WWW-Authenticate: Basic challenge, is the API's refusal, not nginx's password", () => {
    const refused = nginxLab('authorization-param-emptied').valid;
    if (!refused) throw new Error('the recording has no answer to the valid token');
    const challenging = { ...refused, headers: { ...refused.headers, 'www-authenticate': 'Basic realm="API"' } };
    expect(only({ valid: challenging, noHeader: challenging, wrongToken: challenging }).id).toBe('authorization-header-stripped');
  });
});

/** The exchange key and the words for the credentials of the request each requirement judged. */
const REQUESTS: Record<string, { key: string; credentials: string }> = {
  'AUTH-TOKEN-ACCEPTED': { key: 'valid /api/ticket/status/1?', credentials: 'valid token, configured password' },
  'AUTH-MISSING-HEADER-REFUSED': { key: 'no-header /api/ticket/status/1?', credentials: 'no Authorization header' },
  'AUTH-WRONG-TOKEN-REFUSED': { key: 'wrong-token /api/ticket/status/1?', credentials: 'a token that is not valid' },
};

/** A judged requirement whose failed check names the answer seen, and the run's exchanges holding that answer. */
function resultWith(
  id: string,
  seen: StackObservations['valid'],
): { result: RequirementResult; exchanges: Record<string, JudgedExchange> } {
  const base = { ...requirement(id), verdict: 'fail' as const };
  if (!seen)
    return { result: { ...base, checks: [{ requirement: id, scenario: 's', verdict: 'skip', description: 'not run' }] }, exchanges: {} };
  const { key, credentials } = REQUESTS[id] ?? { key: id, credentials: '' };
  return {
    result: { ...base, checks: [{ requirement: id, scenario: 's', verdict: 'fail', description: 'd', exchange: key }] },
    exchanges: {
      [key]: {
        request: { method: 'GET', url: seen.url, credentials, headers: {} },
        response: { status: seen.status, headers: seen.headers, body: seen.body, bodyTruncated: false },
        repro: '',
      },
    },
  };
}

/** diagnose() over several judged requirements, with their exchanges together as a report holds them. */
function diagnoseAll(...judged: ReturnType<typeof resultWith>[]): Diagnosis[] {
  return withoutCites(
    diagnose(
      judged.map(({ result }) => result),
      classifiedExchanges(Object.assign({}, ...judged.map(({ exchanges }) => exchanges)) as Record<string, JudgedExchange>),
    ),
  );
}

/** The stack rules' causes as the run names them, without the answers they cite, which the rules alone cannot know. */
const withoutCites = (diagnoses: Diagnosis[]): Diagnosis[] => diagnoses.map(({ cites: _cites, ...diagnosis }) => diagnosis);

describe('the main run reads its own answers with the same rules', () => {
  test.each(RECORDED_NAMES)('%s: same diagnoses as the doctor minus the /index.php probe', (name) => {
    const lab = RECORDED[name] ?? {};
    const judged = diagnoseAll(
      resultWith('AUTH-TOKEN-ACCEPTED', lab.valid),
      resultWith('AUTH-MISSING-HEADER-REFUSED', lab.noHeader),
      resultWith('AUTH-WRONG-TOKEN-REFUSED', lab.wrongToken),
    );
    expect(judged).toEqual(diagnoseStack({ valid: lab.valid, noHeader: lab.noHeader, wrongToken: lab.wrongToken }));
  });

  test('a served status gives the main run no diagnosis', () => {
    expect(diagnoseAll(resultWith('AUTH-TOKEN-ACCEPTED', fromApache(200, STATUS_BODY)))).toEqual([]);
  });
});

/** The doctor's answers as its exchanges, each under the key its request of the plan has. */
function doctorExchanges(observations: StackObservations): ClassifiedExchanges {
  return classifiedExchanges(unclassifiedExchanges(observations));
}

/** The doctor's answers as its recording holds them, before the classify step. */
function unclassifiedExchanges(observations: StackObservations): Record<string, JudgedExchange> {
  const byName = observations as Partial<Record<StackRequestName, ObservedAnswer>>;
  return Object.fromEntries(
    STACK_REQUESTS.flatMap((request) => {
      const seen = byName[request.name];
      if (!seen) return [];
      const exchange = {
        request: { method: 'GET', url: seen.url, credentials: variantLabel(request.credentials), headers: {} },
        response: { status: seen.status, headers: seen.headers, body: seen.body, bodyTruncated: false },
        repro: '',
      };
      return [[stackRequestKey(request, 1), exchange]];
    }),
  ) as Record<string, JudgedExchange>;
}

describe("the doctor's answers go through the run's diagnosis", () => {
  test.each(RECORDED_NAMES)('%s: the front-controller pair read as the stack rules read it', (name) => {
    const lab = RECORDED[name] ?? {};
    const diagnoses = diagnose([], doctorExchanges(lab), { statusId: 1 });
    expect(withoutCites(diagnoses)).toEqual(diagnoseStack(lab));
    for (const { cites } of diagnoses) expect(cites).toEqual(['valid /api/ticket/status/1?']);
  });

  test('/index.php/api/... reaching the application lifts the rewrite diagnosis to high confidence', () => {
    const [diagnosis] = diagnose([], doctorExchanges(LAB.rewriteNotApplied ?? {}), { statusId: 1 });
    expect(diagnosis).toMatchObject({ id: 'rewrite-not-applied', confidence: 'high' });
  });
});

/** The answers of a lab configuration on nginx, written out. */
const nginxAnswer = (status: number, body: string, type: string, path?: string) =>
  answer(status, body, { server: 'nginx/1.22.1', 'content-type': type }, path);
const FRONT_CONTROLLER = '/index.php/api/ticket/status/1';
const LISTING = '/api/selfservice/type';
const PAGE_TYPE = 'text/html; charset=iso-8859-1';
const REFUSAL_LINE = `HTTP 401 (application/json) ${MISSING_CREDENTIALS_BODY}`;

describe('each diagnosis read whole, as ops read it: the words, the advice and the lines to paste', () => {
  test('the application serves without a token: every answer is evidence, and the API settings and any cache are named', () => {
    const diagnosis = only({ valid: served, noHeader: served, wrongToken: served });
    expect(diagnosis).toMatchObject({
      id: 'authentication-not-enforced',
      party: 'target',
      confidence: 'medium',
      summary:
        'the API answered without valid credentials: the application does not enforce authentication, or a cache in front of it hands out answers meant for an authenticated client',
      advice: [
        "Check the application's API settings: every API call must require the token.",
        'If a cache or CDN sits in front of the application, it must not store answers to requests that carry an Authorization header.',
      ],
    });
    expect(diagnosis.evidence).toMatch(
      /^GET \/api\/ticket\/status\/1 without a valid token answered HTTP 200 \(application\/json\) \{"status":"success".*; GET \/api\/ticket\/status\/1 without a valid token answered HTTP 200 /,
    );
  });

  test('a cache hit shown on a later answer only (Age counts whole seconds, so a hit within the first one says Age: 0) names the cache', () => {
    const aged = (age: string) => ({ ...served, headers: { ...served.headers, age } });
    const diagnosis = only({ valid: served, noHeader: aged('0'), wrongToken: aged('1') });
    expect(diagnosis).toMatchObject({ id: 'authentication-not-enforced', party: 'environment', confidence: 'high' });
    expect(diagnosis.summary).toContain('the answer it stored for an authenticated one (Age: 1)');
    expect(diagnosis.evidence).toMatch(/^GET \/api\/ticket\/status\/1 without a valid token answered HTTP 200 .*; with Age: 1$/);
    expect(diagnosis.advice).toEqual([
      'The cache must not store answers to requests that carry an Authorization header, nor hand them to other requests: bypass it for /api/..., or have the API send Cache-Control: private, no-store; then purge it.',
    ]);
  });

  test("a catch-all route: the status path's page as evidence, the route order and the rewrite rules as advice", () => {
    const page = fromApache(
      200,
      '<!DOCTYPE html><html><head><title>Help desk</title></head><body><div id="app"></div></body></html>',
      'text/html',
    );
    const diagnosis = only({
      valid: page,
      selfservice: fromApache(200, '{"status":"success","message":null,"data":[]}', undefined, LISTING),
    });
    expect(diagnosis).toMatchObject({
      id: 'catch-all-route',
      evidence: 'GET /api/ticket/status/1 answered HTTP 200 (text/html) page "Help desk"',
      advice: [
        "Register the API routes before any catch-all route, and keep the front end's fallback (index.html, a SPA history fallback) away from /api/...",
        "Check the web server's rewrite rules: /api/... must reach the application's front controller.",
      ],
    });
  });

  test('an HTML page sent without a Content-Type: the evidence says so, and the base URL and the rewrite rules are questioned', () => {
    const page = answer(200, '<!DOCTYPE html><html><head><title>Help desk</title></head><body><div id="app"></div></body></html>', {});
    expect(only({ valid: page, noHeader: page })).toEqual({
      id: 'api-path-serves-html',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      summary: 'the API paths answer an HTML page: requests are not reaching the API application',
      evidence: 'GET /api/ticket/status/1 answered HTTP 200 (no Content-Type) page "Help desk"',
      advice: [
        'Check that --base-url points at the API (the folder holding the application, e.g. https://help.example.com or https://example.com/support).',
        "Check the web server's rewrite rules: a catch-all for a front end must not take /api/ paths.",
      ],
    });
  });

  test("nginx's 404 while /index.php/api/ refuses the token like no header: try_files with its documentation, and the header named too", () => {
    const page = nginxAnswer(404, NGINX_404_PAGE, 'text/html');
    const front = nginxAnswer(401, MISSING_CREDENTIALS_BODY, 'application/json', FRONT_CONTROLLER);
    expect(only({ valid: page, noHeader: page, frontController: front, frontControllerNoHeader: front })).toEqual({
      id: 'front-controller-not-routed',
      party: 'environment',
      confidence: 'high',
      summary:
        "requests for /api/... get nginx's own 404 page and never reach the application: nginx does not hand paths that are not files to the front controller (index.php)",
      evidence: `GET /api/ticket/status/1 answered HTTP 404 (text/html) page "404 Not Found", the web server's own page, not the application's, while GET /index.php/api/ticket/status/1 reached the application: ${REFUSAL_LINE}; there the token was refused like no header, so the Authorization header may not reach PHP either`,
      advice: [
        'Send every path that is not a file to index.php with try_files in "location /", then reload nginx: Debian\'s default site has "try_files $uri $uri/ =404;", which answers nginx\'s 404 page for every API path (nginx\'s documentation: https://nginx.org/en/docs/http/ngx_http_core_module.html#try_files).',
      ],
      snippets: [
        {
          label: 'in the nginx server block of the application',
          lines: ['location / {', '    try_files $uri $uri/ /index.php?$query_string;', '}'],
        },
      ],
    });
  });

  test("Apache's 404 while /index.php/api/ refuses the token like no header: both causes, the lines for each, the header fixed with them", () => {
    expect(only(LAB.rewriteNotApplied ?? {})).toEqual({
      id: 'rewrite-not-applied',
      party: 'environment',
      confidence: 'high',
      summary:
        "requests for /api/... get the web server's own 404 page and never reach the application: its .htaccess rewrite rules are not applied, because mod_rewrite is not enabled or AllowOverride keeps Apache from reading the .htaccess, both of which the document's hosting rule requires",
      evidence: `GET /api/ticket/status/1 answered HTTP 404 (${PAGE_TYPE}) page "404 Not Found", the web server's own page, not the application's, while GET /index.php/api/ticket/status/1 reached the application: ${REFUSAL_LINE}; there the token was refused like no header, which the same .htaccess fixes once it works`,
      advice: [
        'Enable mod_rewrite (apache2ctl -M lists rewrite_module once it is loaded).',
        "Set AllowOverride All for the application's folder: with AllowOverride None, Apache ignores the .htaccess.",
        'Which of the two it is cannot be seen over HTTP, as both leave the .htaccess without effect: check both. The same .htaccess also passes the Authorization header on, so fix this first.',
      ],
      snippets: [
        {
          label: 'enable mod_rewrite, then reload Apache',
          lines: [
            'a2enmod rewrite && apache2ctl graceful',
            '# or, without a2enmod, in httpd.conf:',
            'LoadModule rewrite_module modules/mod_rewrite.so',
          ],
        },
        {
          label: "in the <Directory> block of the application's folder (your path), then reload Apache",
          lines: ['<Directory /var/www/helpdesk>', '    AllowOverride All', '</Directory>'],
        },
      ],
    });
  });

  test.each([
    ['serves the token', fromApache(200, STATUS_BODY, undefined, FRONT_CONTROLLER), missingCredentials],
    ['refuses the token as wrong', fromApache(401, WRONG_TOKEN_BODY, undefined, FRONT_CONTROLLER), missingCredentials],
  ])('/index.php/api/ %s: the 404 is the only fault named, not the header', (_name, front, noHeader) => {
    const diagnosis = only({ valid: apacheNotFound, frontController: front, frontControllerNoHeader: { ...noHeader, url: front.url } });
    expect(diagnosis.id).toBe('rewrite-not-applied');
    expect(diagnosis.evidence).toMatch(
      /while GET \/index\.php\/api\/ticket\/status\/1 reached the application: HTTP (200|401) \(application\/json\) \{"status":"(success|error)",[^;]*(…|\})$/,
    );
  });

  test('Apache: neither /api/ nor /index.php/api/ reaches the application, where the application is installed is questioned', () => {
    expect(only({ valid: apacheNotFound, frontController: fromApache(404, APACHE_404_PAGE, PAGE_TYPE, FRONT_CONTROLLER) })).toEqual({
      id: 'api-not-found',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      summary: 'neither /api/... nor /index.php/api/... reaches the application: --base-url does not seem to point at it',
      evidence: `GET /api/ticket/status/1 answered HTTP 404 (${PAGE_TYPE}) page "404 Not Found"; GET /index.php/api/ticket/status/1 answered HTTP 404 (${PAGE_TYPE}) page "404 Not Found"`,
      advice: [
        'Pass the address of the folder the application is served from, e.g. --base-url https://help.example.com or https://example.com/support.',
        'Check that the application is installed where that address leads (the DocumentRoot or Alias of the site).',
      ],
    });
  });

  test("nginx: neither /api/ nor /index.php/api/ reaches the application: Debian's default site or the base URL, both named", () => {
    const valid = nginxAnswer(404, NGINX_404_PAGE, 'text/html');
    const front = nginxAnswer(404, NGINX_404_PAGE, 'text/html', FRONT_CONTROLLER);
    expect(only({ valid, frontController: front })).toEqual({
      id: 'front-controller-not-routed',
      party: 'environment',
      inconclusive: true,
      confidence: 'low',
      summary:
        "nginx answers its own 404 page for /api/... and for /index.php/api/... alike: either nginx hands neither to the application, as Debian's default site does (try_files $uri $uri/ =404, and PHP only for paths ending in .php), or --base-url does not point at the application",
      evidence:
        'GET /api/ticket/status/1 answered HTTP 404 (text/html) page "404 Not Found"; GET /index.php/api/ticket/status/1 answered HTTP 404 (text/html) page "404 Not Found"',
      advice: [
        'If the site is Debian\'s default one (or started from it): send every path that is not a file to index.php with try_files in "location /", then reload nginx (nginx\'s documentation: https://nginx.org/en/docs/http/ngx_http_core_module.html#try_files).',
        'Otherwise pass the address the application is served from, e.g. --base-url https://help.example.com or https://example.com/support, and check the root of its nginx server block.',
      ],
      snippets: [
        {
          label: 'in the nginx server block of the application',
          lines: ['location / {', '    try_files $uri $uri/ /index.php?$query_string;', '}'],
        },
      ],
    });
  });

  test("Apache's 503: the socket of Apache's SetHandler and the pool's listen line, not nginx's", () => {
    const diagnosis = only({ valid: fromApache(503, APACHE_503_PAGE, PAGE_TYPE) });
    expect(diagnosis.evidence).toBe(`GET /api/ticket/status/1 answered HTTP 503 (${PAGE_TYPE}) page "503 Service Unavailable"`);
    expect(diagnosis.advice).toEqual([
      "Read Apache's error log at the time of the request: it names the failing directive or back end.",
      'Start PHP-FPM and make the socket in the web server configuration the one in the pool\'s "listen =" line.',
    ]);
    expect(diagnosis.snippets).toEqual([
      {
        label: "the socket in Apache's SetHandler must be the one the PHP-FPM pool listens on",
        lines: [
          '# Apache:  SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"',
          '# PHP-FPM pool (/etc/php/8.2/fpm/pool.d/www.conf):  listen = /run/php/php8.2-fpm.sock',
          'service php8.2-fpm start',
        ],
      },
    ]);
  });

  test("nginx's 502: the socket of nginx's fastcgi_pass and the pool's listen line", () => {
    expect(only(nginxLab('fpm-socket-missing')).snippets).toEqual([
      {
        label: "the socket in nginx's fastcgi_pass must be the one the PHP-FPM pool listens on",
        lines: [
          '# nginx, in the location of .php files:  fastcgi_pass unix:/run/php/php8.2-fpm.sock;',
          '# PHP-FPM pool (/etc/php/8.2/fpm/pool.d/www.conf):  listen = /run/php/php8.2-fpm.sock',
          'service php8.2-fpm start',
        ],
      },
    ]);
  });

  test('header stripped on Apache, no wrong token asked: the rewrite rule, CGI replaced by PHP-FPM, and CGIPassAuth', () => {
    expect(only({ valid: missingCredentials, noHeader: missingCredentials })).toEqual({
      id: 'authorization-header-stripped',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      summary:
        'the valid token was refused exactly like no token at all, and so was a wrong token: either the web server (or something in front of it) strips the Authorization header before the application sees it, or the token is wrong; nothing in this run tells the two apart, so the API cannot be judged',
      evidence: `with the token and with no Authorization header, GET /api/ticket/status/1 got the same answer: ${REFUSAL_LINE}; no request of the run was served with any credentials, through /index.php/api/... included, and the API answered a wrong token as it answered no header`,
      advice: [
        "To tell the two apart: copy the token again from the help desk's API settings (or create a new one) and run again; if it is still refused, put a script that prints $_SERVER['HTTP_AUTHORIZATION'] next to the application, or read the application's log: if no Authorization header arrives, the web server strips it.",
        "If the header is stripped: Apache hands the Authorization header to PHP only when told to. The application's .htaccess does it with the rule below, which needs mod_rewrite enabled and AllowOverride All on the application's folder: check that the .htaccess is in place and holds the rule.",
        'If the rule is there, PHP most likely runs through the CGI handler (mod_cgi with an Action to /cgi-bin/php): under CGI Apache never gives PHP the header, and the rule only passes it on as REDIRECT_HTTP_AUTHORIZATION, which applications reading PHP_AUTH_USER or HTTP_AUTHORIZATION never see. Replace CGI by PHP-FPM (proxy_fcgi) or SuPHP, as below.',
        'Look also for a rule that removes the header: "RequestHeader unset Authorization" (mod_headers) in the site, a <Location> or <Directory> block or a .htaccess, often added to keep a password of the site from the back end; remove it, or limit it to the paths that are not the API.',
        'On Apache 2.4.13 or newer, "CGIPassAuth On" also passes the header: in the <Directory> block of the application under PHP-FPM, in the one of the php-cgi binary (/usr/lib/cgi-bin) under CGI.',
        'If a proxy, load balancer, CDN or WAF stands in front of the web server, check that it passes the Authorization header on: some drop it by default or by a rule.',
      ],
      snippets: [
        {
          label: "in the application's .htaccess (or in the <Directory> block of its folder)",
          lines: [
            'RewriteEngine On',
            'RewriteCond %{HTTP:Authorization} .',
            'RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]',
          ],
        },
        {
          label:
            'in the Apache configuration: remove the CGI handler (the "Action ... /cgi-bin/php" line and its AddHandler) and hand .php files to PHP-FPM',
          lines: [
            '# Debian/Ubuntu: apt-get install php8.2-fpm && a2enmod proxy_fcgi setenvif && a2enconf php8.2-fpm',
            '<FilesMatch "\\.php$">',
            '    SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"',
            '</FilesMatch>',
          ],
        },
      ],
      environmentAnswer: { status: 401, body: MISSING_CREDENTIALS_BODY },
    });
  });

  test("header stripped on nginx: each directive's documentation, and the fastcgi and proxy lines to paste", () => {
    const diagnosis = only(nginxLab('authorization-param-emptied'));
    expect(diagnosis.advice.slice(1, -1)).toEqual([
      'If the header is stripped: nginx hands every request header to PHP-FPM unless told otherwise. In the location that passes .php files to PHP-FPM, look for a "fastcgi_param HTTP_AUTHORIZATION" line that sets it to "" or another constant, and for "fastcgi_pass_request_headers off": remove them, or set the header as below (nginx\'s documentation: https://nginx.org/en/docs/http/ngx_http_fastcgi_module.html#fastcgi_param, https://nginx.org/en/docs/http/ngx_http_fastcgi_module.html#fastcgi_pass_request_headers).',
      'If an nginx proxy stands in front of it (proxy_pass), look there for "proxy_set_header Authorization" set to "" (often added to keep the proxy\'s own password from the back end) and for "proxy_pass_request_headers off": remove them, or pass the header on as below (nginx\'s documentation: https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_set_header, https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_pass_request_headers).',
    ]);
    expect(diagnosis.snippets).toEqual([
      {
        label: 'in the nginx location that passes .php files to PHP-FPM, in place of a line that empties the header',
        lines: ['fastcgi_pass_request_headers on;', 'fastcgi_param HTTP_AUTHORIZATION $http_authorization;'],
      },
      {
        label: 'in the location of an nginx proxy in front (the one with proxy_pass), in place of proxy_set_header Authorization ""',
        lines: ['proxy_pass_request_headers on;', 'proxy_set_header Authorization $http_authorization;'],
      },
    ]);
  });

  test("nginx's password on location /: auth_basic off for /api/, beside it", () => {
    expect(only(nginxLab('auth-basic')).snippets).toEqual([
      {
        label: 'in the nginx server block, beside the location that has auth_basic',
        lines: ['location /api/ {', '    auth_basic off;', '    try_files $uri $uri/ /index.php?$query_string;', '}'],
      },
    ]);
  });

  test('the token refused like no header on the status and served on the listing: the status path is the one to look at', () => {
    const listing = fromApache(200, '{"status":"success","message":null,"data":[]}', undefined, LISTING);
    const observations = { valid: missingCredentials, noHeader: missingCredentials, wrongToken: missingCredentials };
    expect(only({ ...observations, selfservice: listing, selfserviceNoHeader: { ...missingCredentials, url: listing.url } })).toEqual({
      id: 'authorization-header-stripped',
      party: 'environment',
      confidence: 'medium',
      summary:
        'the valid token was refused exactly like no token at all on /api/ticket/status/1, while GET /api/selfservice/type was served with the same token: the token is right, so the Authorization header is most likely stripped on the way to /api/ticket/status/1 only',
      evidence: `with the token and with no Authorization header, GET /api/ticket/status/1 got the same answer: ${REFUSAL_LINE}; GET /api/selfservice/type with the token answered HTTP 200`,
      advice: [
        'Look for what treats /api/ticket/status/1 apart from the other API paths: a proxy, CDN or gateway route, or a web server location or rewrite rule that matches it, and make it pass the Authorization header on as it does for them.',
        "If nothing strips it there, check in the help desk's API settings that the token may use /api/ticket/status/1.",
      ],
      environmentAnswer: { status: 401, body: MISSING_CREDENTIALS_BODY },
    });
  });

  test('the listing refused to the token otherwise than without one: nothing was served there, so the header is not said to reach it', () => {
    const forbidden = fromApache(403, '{"status":"error","message":"This action is unauthorized.","data":[]}', undefined, LISTING);
    const diagnosis = only({
      valid: missingCredentials,
      noHeader: missingCredentials,
      wrongToken: missingCredentials,
      selfservice: forbidden,
      selfserviceNoHeader: { ...missingCredentials, url: forbidden.url },
    });
    expect(diagnosis.id).toBe('authorization-header-stripped');
    expect(diagnosis.summary).toMatch(
      /^the valid token was refused exactly like no token at all, and so was a wrong token: either the web server/,
    );
    expect(diagnosis.inconclusive).toBe(true);
  });

  test('the token served on the status and lost on other requests: every requirement and request named, the path rules to look at', () => {
    const lost = (requirement: string, path: string) => ({
      requirement,
      credentials: 'valid token, configured password',
      withToken: true,
      answer: { ...missingCredentials, url: `${BASE}${path}` },
    });
    const diagnosis = headerLostOnSome(
      served,
      [
        lost('LANG-TRANSLATION-REPLACES', '/api/ticket/status/1?lang=fr'),
        lost('LANG-KEEPS-TRANSLATIONS', '/api/ticket/status/1?lang=fr'),
        lost('SELFSERVICE-ACCEPTED', LISTING),
      ],
      missingCredentials,
    );
    expect(diagnosis).toEqual({
      id: 'authorization-header-stripped',
      party: 'environment',
      confidence: 'medium',
      summary:
        'the token was served on GET /api/ticket/status/1, but other requests made with it got the answer of a request without an Authorization header: the token is right, so the header is most likely lost on the way for those requests (LANG-TRANSLATION-REPLACES, LANG-KEEPS-TRANSLATIONS, SELFSERVICE-ACCEPTED failed on them)',
      evidence: `GET /api/ticket/status/1?lang=fr (valid token, configured password); GET /api/selfservice/type (valid token, configured password): answered ${REFUSAL_LINE}, like no Authorization header`,
      advice: [
        'Look for what treats those requests apart from the others: a proxy, CDN or gateway route, or a web server location or rewrite rule that matches their path or query string, or a limit on the length of request headers; make it pass the Authorization header on as it does for the others.',
        "If nothing strips it there, check in the help desk's API settings that the token may make those requests.",
      ],
      environmentAnswer: { status: 401, body: MISSING_CREDENTIALS_BODY },
    });
  });

  test('the token refused as a wrong token is: high confidence, and a new token as the advice', () => {
    expect(only({ valid: wrongTokenRefused, noHeader: missingCredentials, wrongToken: wrongTokenRefused })).toEqual({
      id: 'token-refused',
      party: 'environment',
      inconclusive: true,
      confidence: 'high',
      summary:
        'the token reached the application and was refused as wrong: check that --token is right, active and allowed to use the API; the API cannot be judged with it',
      evidence:
        'the answer with the token is the one a wrong token gets, and it differs from the answer with no header (both HTTP 401, with different bodies), so the header does reach the application',
      advice: ["Create or copy the API token again in the help desk's settings and pass it with --token or CONFORMANCE_TOKEN."],
    });
  });

  test.each([
    [
      'refused otherwise than no header, no wrong token asked',
      { valid: wrongTokenRefused, noHeader: missingCredentials },
      'the answer with the token differs from the answer with no header (both HTTP 401, with different bodies), so the header does reach the application',
    ],
    [
      'refused like no header, a malformed header otherwise, no wrong token asked',
      {
        valid: missingCredentials,
        noHeader: missingCredentials,
        invalidHeader: fromApache(400, '{"message":"Malformed Authorization header."}'),
      },
      'the token was refused like no header (HTTP 401), but a malformed Authorization header got another answer (HTTP 400 against HTTP 401), so the header does reach the application',
    ],
  ])('the token %s: refused as wrong, at medium confidence, with what shows the header arrives', (_name, observations, evidence) => {
    expect(only(observations)).toMatchObject({ id: 'token-refused', confidence: 'medium', evidence });
  });

  test('a body cut short for the token, while no header is refused: the answer says nothing of the credentials', () => {
    const cutShort = fromApache(200, '{"status":"success","message":null,"data":{"id":1,"name":"Op');
    expect(diagnoseStack({ valid: cutShort, noHeader: missingCredentials })).toEqual([]);
  });

  test('an answer no rule knows: the full suite is the next step', () => {
    expect(unrecognisedAnswer(fromApache(418, "I'm a teapot", 'text/plain'))).toEqual({
      id: 'unrecognised-answer',
      party: 'target',
      confidence: 'low',
      summary: 'the valid token did not get a successful answer, and no known hosting problem matches what was seen',
      evidence: "GET /api/ticket/status/1 answered HTTP 418 (text/plain) I'm a teapot",
      advice: [
        'Run the full conformance suite (ticketing-conformance --base-url URL --token TOKEN): every check shows the request, the answer and a curl repro.',
      ],
    });
  });
});

describe("the web server's own password before the API, named after the server that asks it", () => {
  const APACHE_401_PAGE =
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>401 Unauthorized</title>\n</head><body>\n<h1>Unauthorized</h1>\n<p>This server could not verify that you are authorized to access the document\nrequested.</p>\n</body></html>\n';

  test("nginx's auth_basic: nginx named, the challenge and the front controller the application answered as evidence", () => {
    const diagnosis = only(nginxLab('auth-basic'));
    expect(diagnosis.summary).toMatch(/^nginx asks for a password of its own \(HTTP 401 with its own page\)/);
    expect(diagnosis.evidence).toBe(
      `GET /api/ticket/status/1 answered HTTP 401 (text/html) page "401 Authorization Required" with WWW-Authenticate: Basic realm="Staff only", while GET /index.php/api/ticket/status/1 reached the application: HTTP 200 (application/json) ${STATUS_BODY.slice(0, 160)}…`,
    );
    expect(diagnosis.advice[1]).toBe(
      'The API authenticates its clients with its own token: no password of the web server may stand in front of it.',
    );
  });

  test('a password page without a Server header or a challenge, in front of the front controller too: the web server, and only what it answered', () => {
    const page = answer(401, APACHE_401_PAGE, { 'content-type': 'text/html; charset=iso-8859-1' });
    const frontController = { ...page, url: page.url.replace('/api/', '/index.php/api/') };
    const diagnosis = only({ valid: page, noHeader: page, wrongToken: page, frontController, frontControllerNoHeader: frontController });
    expect(diagnosis).toMatchObject({ id: 'web-server-password', inconclusive: true });
    expect(diagnosis.summary).toMatch(/^the web server asks for a password of its own/);
    expect(diagnosis.evidence).toBe('GET /api/ticket/status/1 answered HTTP 401 (text/html; charset=iso-8859-1) page "401 Unauthorized"');
  });
});

describe('the web server known by its own error page alone, among answers that do not show it', () => {
  const reached = answer(200, STATUS_BODY, { 'content-type': 'application/json' }, '/index.php/api/ticket/status/1');

  test("Apache's 500 page: read as Apache's, as if its Server header said so", () => {
    const page = answer(500, APACHE_500_PAGE, { 'content-type': 'text/html' });
    const diagnosis = only({ valid: page, noHeader: page, frontController: reached });
    expect(diagnosis).toEqual(only({ valid: fromApache(500, APACHE_500_PAGE, 'text/html'), noHeader: page, frontController: reached }));
  });

  test("nginx's page: its try_files is named, and nothing of Apache's", () => {
    const page = answer(404, NGINX_404_PAGE, { 'content-type': 'text/html' });
    const diagnosis = only({ valid: page, noHeader: page, frontController: reached });
    expect(diagnosis.advice.join(' ')).toContain('try_files');
    expect(diagnosis.advice.join(' ')).not.toMatch(APACHE_ADVICE);
  });
});
