import { describe, expect, test } from 'vitest';
import type { StackObservations } from '../../src/diagnosis/answers.js';
import { diagnoseStack, unrecognisedAnswer } from '../../src/diagnosis/rules.js';
import { diagnose } from '../../src/diagnosis/diagnose.js';
import { requirement } from '../../src/requirements/catalog.js';
import type { RequirementResult } from '../../src/report/model/types.js';
import type { Diagnosis, JudgedExchanges } from '../../src/diagnosis/types.js';
import { variantLabel } from '../../src/exchange/credentials.js';
import { STACK_REQUESTS } from '../../src/record/plan.js';
import { statusKey } from '../../src/record/target.js';
import { nginxDocUrl } from '../../src/diagnosis/nginx-docs.js';
import { NGINX_SITES, type NginxSite } from '../lab/configs.js';
import {
  answer,
  APACHE_ADVICE,
  APACHE_404_PAGE,
  APACHE_500_PAGE,
  APACHE_503_PAGE,
  apacheNotFound,
  fromApache,
  LAB,
  missingCredentials,
  MISSING_CREDENTIALS_BODY,
  NGINX_404_PAGE,
  nginxLab,
  served,
  STATUS_BODY,
  wrongTokenRefused,
} from './recorded.js';

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
    expect(diagnosis).toMatchObject({ id: 'authorization-header-stripped', party: 'environment', confidence: 'medium' });
    expect(diagnosis.inconclusive).toBeUndefined();
    expect(diagnosis.summary).toContain('either the web server strips the Authorization header');
    expect(diagnosis.summary).toContain('or the token is wrong');
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
    expect(diagnosis.advice.at(-1)).toMatch(/^Other web servers/);
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

  test('the token refused like no header while a wrong token is answered otherwise: the header does arrive', () => {
    const diagnosis = only({ valid: missingCredentials, noHeader: missingCredentials, wrongToken: wrongTokenRefused });
    expect(diagnosis.id).toBe('token-refused');
    expect(diagnosis.evidence).toContain('so the header does reach the application');
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

describe('nginx rules, on answers recorded from the nginx lab (test/lab/nginx-lab.test.ts)', () => {
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
function resultWith(id: string, seen: StackObservations['valid']): { result: RequirementResult; exchanges: JudgedExchanges } {
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
  return diagnose(
    judged.map(({ result }) => result),
    Object.assign({}, ...judged.map(({ exchanges }) => exchanges)) as JudgedExchanges,
  );
}

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

/** The doctor's five answers as its exchanges, each under the key its request of the plan has. */
function doctorExchanges(observations: StackObservations): JudgedExchanges {
  return Object.fromEntries(
    STACK_REQUESTS.flatMap((request) => {
      const seen = observations[request.name];
      if (!seen) return [];
      const exchange = {
        request: { method: 'GET', url: seen.url, credentials: variantLabel(request.credentials ?? 'valid'), headers: {} },
        response: { status: seen.status, headers: seen.headers, body: seen.body, bodyTruncated: false },
        repro: '',
      };
      return [[statusKey(request, 1), exchange]];
    }),
  ) as JudgedExchanges;
}

describe("the doctor's answers go through the run's diagnosis", () => {
  test.each(RECORDED_NAMES)('%s: the front-controller pair read as the stack rules read it', (name) => {
    const lab = RECORDED[name] ?? {};
    expect(diagnose([], doctorExchanges(lab), { statusId: 1 })).toEqual(diagnoseStack(lab));
  });

  test('/index.php/api/... reaching the application lifts the rewrite diagnosis to high confidence', () => {
    const [diagnosis] = diagnose([], doctorExchanges(LAB.rewriteNotApplied ?? {}), { statusId: 1 });
    expect(diagnosis).toMatchObject({ id: 'rewrite-not-applied', confidence: 'high' });
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
