import type { Diagnosis } from './types.js';
import {
  briefly,
  citing,
  fromApplication,
  isHtmlPage,
  pathOf,
  requestsOf,
  requirementsOf,
  sameAnswer,
  differenceOf,
  servedJson,
  serverKind,
  statusHandedOut,
  succeeded,
  type FailedAnswer,
  type ObservedAnswer,
  type ServerKind,
  type StackObservations,
  type StackSetup,
} from './answers.js';
import { cacheMark, vendorOf } from '../classify/signatures.js';
import type { ApplicationFailure, Meaning } from '../classify/types.js';
import { frontAnswered } from './fronts.js';
import { nginxDocs } from './nginx-docs.js';
import { SNIPPETS } from './snippets.js';

const OTHER_SERVERS =
  'Other web servers: their own documentation says how to pass the Authorization header to the application (nginx passes it to PHP-FPM unless fastcgi_pass_request_headers is off).';

function authenticationNotEnforced(served: ObservedAnswer[]): Diagnosis {
  const evidence = served.map((answer) => `GET ${pathOf(answer)} without a valid token answered ${briefly(answer)}`).join('; ');
  const cached = served.map(cacheMark).find((mark) => mark !== undefined);
  if (cached) {
    // Still the deployment's failure: anyone without the token gets the resource, whichever part of it hands it out.
    return {
      id: 'authentication-not-enforced',
      party: 'environment',
      confidence: 'high',
      summary: `a cache in front of the API hands out, to requests without a valid token, the answer it stored for an authenticated one (${cached}): the deployment serves the resource without authentication`,
      evidence: `${evidence}; with ${cached}`,
      ...citing(...served),
      advice: [
        'The cache must not store answers to requests that carry an Authorization header, nor hand them to other requests: bypass it for /api/..., or have the API send Cache-Control: private, no-store; then purge it.',
      ],
    };
  }
  return {
    id: 'authentication-not-enforced',
    party: 'target',
    confidence: 'medium',
    summary:
      'the API answered without valid credentials: the application does not enforce authentication, or a cache in front of it hands out answers meant for an authenticated client',
    evidence,
    ...citing(...served),
    advice: [
      "Check the application's API settings: every API call must require the token.",
      'If a cache or CDN sits in front of the application, it must not store answers to requests that carry an Authorization header.',
    ],
  };
}

/** The application answered, and failed: an uncaught exception, a fatal error, its database down. */
function applicationFailed(valid: ObservedAnswer, failure: Extract<Meaning, { kind: 'application-error' }>): Diagnosis {
  const words: Record<ApplicationFailure, string> = {
    'database-down': 'it cannot reach its database',
    'fatal-error': 'PHP stopped it with a fatal error',
    'uncaught-exception': 'an exception went uncaught',
    'server-error': 'it answered with a server error',
  };
  return {
    id: 'application-failed',
    party: 'target',
    confidence: 'high',
    summary: `the request reached the application, and the application failed: ${words[failure.what]} (${failure.evidence})`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice:
      failure.what === 'database-down'
        ? [
            "Check that the database server is running and reachable from the application's host, and that the database settings of the application (host, port, user, password) are right.",
          ]
        : ["Read the application's log (and PHP's error log) at the time of this run: the error names the file and the line that failed."],
  };
}

/** The API answers its envelope on one documented path and a page or nothing on another: a catch-all route takes it. */
function catchAllRoute(valid: ObservedAnswer, what: string): Diagnosis {
  return {
    id: 'catch-all-route',
    party: 'target',
    confidence: 'medium',
    summary: `the API answers the selfservice listing with its JSON, but ${pathOf(valid)} with ${what}: a catch-all route (a front end's, or the web server's fallback) takes /api/... paths the API should answer`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      "Register the API routes before any catch-all route, and keep the front end's fallback (index.html, a SPA history fallback) away from /api/...",
      "Check the web server's rewrite rules: /api/... must reach the application's front controller.",
    ],
  };
}

function apiPathAnswersEmpty(valid: ObservedAnswer): Diagnosis {
  return {
    id: 'api-path-answers-empty',
    party: 'environment',
    inconclusive: true,
    confidence: 'medium',
    summary: `the API paths answer HTTP ${valid.status} with an empty body, and no answer of this run came from the API: the requests do not reach the API application`,
    evidence: `GET ${pathOf(valid)} answered HTTP ${valid.status} with an empty body`,
    advice: [
      'Check that --base-url points at the service (the folder holding the application, e.g. https://help.example.com or https://example.com/support).',
      "Read the web server's and PHP's error logs at the time of the run: an empty answer is often PHP failing with display_errors off.",
    ],
  };
}

function apiPathServesHtml(valid: ObservedAnswer): Diagnosis {
  return {
    id: 'api-path-serves-html',
    party: 'environment',
    inconclusive: true,
    confidence: 'medium',
    summary: 'the API paths answer an HTML page: requests are not reaching the API application',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      'Check that --base-url points at the API (the folder holding the application, e.g. https://help.example.com or https://example.com/support).',
      "Check the web server's rewrite rules: a catch-all for a front end must not take /api/ paths.",
    ],
  };
}

function notRoutedEvidence(
  valid: ObservedAnswer,
  front: ObservedAnswer | undefined,
  frontNoHeader: ObservedAnswer | undefined,
  server: ServerKind,
): string {
  const missed = `GET ${pathOf(valid)} answered ${briefly(valid)}, the web server's own page, not the application's`;
  if (!front) return `${missed}; "ticketing-conformance doctor" confirms it by trying /index.php/api/... as well`;
  const refusedLikeNoHeader = !succeeded(front) && sameAnswer(front, frontNoHeader);
  const stripped = !refusedLikeNoHeader
    ? ''
    : server === 'nginx'
      ? '; there the token was refused like no header, so the Authorization header may not reach PHP either'
      : '; there the token was refused like no header, which the same .htaccess fixes once it works';
  return `${missed}, while GET ${pathOf(front)} reached the application: ${briefly(front)}${stripped}`;
}

function notRouted(observations: StackObservations, valid: ObservedAnswer, server: ServerKind): Diagnosis {
  const front = observations.frontController;
  if (front && !fromApplication(front) && server === 'nginx') return nginxNotRouted(valid, front);
  if (front && !fromApplication(front)) {
    return {
      id: 'api-not-found',
      party: 'environment',
      inconclusive: true,
      confidence: 'medium',
      summary: 'neither /api/... nor /index.php/api/... reaches the application: --base-url does not seem to point at it',
      evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}; GET ${pathOf(front)} answered ${briefly(front)}`,
      advice: [
        'Pass the address of the folder the application is served from, e.g. --base-url https://help.example.com or https://example.com/support.',
        `Check that the application is installed where that address leads (${server === 'nginx' ? 'the root or alias of its nginx server block' : 'the DocumentRoot or Alias of the site'}).`,
      ],
    };
  }
  // The application answered through its front controller: the base URL is right, and the web server of the
  // deployment does not route the API's own paths to it.
  const reached = front !== undefined;
  const confidence = reached ? 'high' : server === 'unknown' ? 'low' : 'medium';
  const evidence = notRoutedEvidence(valid, front, observations.frontControllerNoHeader, server);
  const unjudged = reached ? {} : { inconclusive: true };
  if (server === 'nginx') {
    return {
      id: 'front-controller-not-routed',
      party: 'environment',
      ...unjudged,
      confidence,
      summary:
        "requests for /api/... get nginx's own 404 page and never reach the application: nginx does not hand paths that are not files to the front controller (index.php)",
      evidence,
      advice: [
        `Send every path that is not a file to index.php with try_files in "location /", then reload nginx: Debian's default site has "try_files $uri $uri/ =404;", which answers nginx's 404 page for every API path (${nginxDocs('try_files')}).`,
      ],
      snippets: [SNIPPETS.nginxTryFiles],
    };
  }
  return {
    id: 'rewrite-not-applied',
    party: 'environment',
    ...unjudged,
    confidence,
    summary: `requests for /api/... get the web server's own 404 page and never reach the application: its .htaccess rewrite rules are not applied, because mod_rewrite is not enabled or AllowOverride keeps Apache from reading the .htaccess${reached ? ", both of which the document's hosting rule requires" : ''}`,
    evidence,
    advice: [
      'Enable mod_rewrite (apache2ctl -M lists rewrite_module once it is loaded).',
      "Set AllowOverride All for the application's folder: with AllowOverride None, Apache ignores the .htaccess.",
      'Which of the two it is cannot be seen over HTTP, as both leave the .htaccess without effect: check both. The same .htaccess also passes the Authorization header on, so fix this first.',
      ...(reached
        ? []
        : [
            'If the application lives under a path (https://example.com/support), --base-url must include it: a missing prefix gets the same 404 page.',
          ]),
    ],
    snippets: [SNIPPETS.modRewrite, SNIPPETS.allowOverride],
  };
}

/**
 * nginx's own 404 page on /api/... and on /index.php/api/... alike: a base URL that leads elsewhere, or Debian's
 * default site, whose try_files sends no path to index.php and whose PHP location takes only paths ending in .php.
 * Over HTTP the two look the same.
 */
function nginxNotRouted(valid: ObservedAnswer, front: ObservedAnswer): Diagnosis {
  return {
    id: 'front-controller-not-routed',
    party: 'environment',
    inconclusive: true,
    confidence: 'low',
    summary:
      "nginx answers its own 404 page for /api/... and for /index.php/api/... alike: either nginx hands neither to the application, as Debian's default site does (try_files $uri $uri/ =404, and PHP only for paths ending in .php), or --base-url does not point at the application",
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}; GET ${pathOf(front)} answered ${briefly(front)}`,
    advice: [
      `If the site is Debian's default one (or started from it): send every path that is not a file to index.php with try_files in "location /", then reload nginx (${nginxDocs('try_files')}).`,
      'Otherwise pass the address the application is served from, e.g. --base-url https://help.example.com or https://example.com/support, and check the root of its nginx server block.',
    ],
    snippets: [SNIPPETS.nginxTryFiles],
  };
}

function webServerError(valid: ObservedAnswer, server: ServerKind): Diagnosis {
  const unavailable = valid.status === 502 || valid.status === 503 || valid.status === 504;
  const name = server === 'unknown' ? 'the web server' : server === 'apache' ? 'Apache' : 'nginx';
  const failing =
    server === 'nginx'
      ? `nginx fails with its own error page (HTTP ${valid.status}) before the application answers`
      : `${name} fails with its own error page (HTTP ${valid.status}) before the application answers: often a .htaccess line whose module is not loaded, such as RewriteEngine without mod_rewrite`;
  const unavailableAdvice =
    server === 'nginx'
      ? `Start PHP-FPM, and make the socket of nginx's fastcgi_pass the one in the pool's "listen =" line: Debian's default site names /run/php/php7.4-fpm.sock, which a newer PHP does not create (${nginxDocs('fastcgi_pass')}).`
      : 'Start PHP-FPM and make the socket in the web server configuration the one in the pool\'s "listen =" line.';
  const failingAdvice =
    server === 'nginx'
      ? 'Most often it is a rewrite or internal redirection cycle, or a file nginx may not read.'
      : 'If the log says "Invalid command \'RewriteEngine\'", enable mod_rewrite.';
  const snippet = unavailable
    ? server === 'nginx'
      ? SNIPPETS.nginxFpmSocket
      : SNIPPETS.fpmSocket
    : server === 'nginx'
      ? undefined
      : SNIPPETS.modRewrite;
  return {
    id: 'web-server-error',
    party: 'environment',
    inconclusive: true,
    confidence: 'medium',
    summary: unavailable
      ? `${name} answers HTTP ${valid.status} with its own error page: it cannot reach PHP (PHP-FPM is not running, or the socket ${name} uses is not the one PHP-FPM listens on)`
      : failing,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      `Read ${name}'s error log at the time of the request: it names the failing directive or back end.`,
      unavailable ? unavailableAdvice : failingAdvice,
    ],
    ...(snippet ? { snippets: [snippet] } : {}),
  };
}

const CLOUDFRONT = 'AWS CloudFront / WAF';
/** CloudFront, whose headers the refusals carry, drops Authorization on the way to the origin unless a policy names it. */
const CLOUDFRONT_AUTHORIZATION =
  "The answers came through CloudFront (its Via or X-Amz-Cf-Id header), which sends the Authorization header on to the origin only when the behavior's cache policy or origin request policy includes it: for the behavior serving /api/*, use the managed AllViewer origin request policy (or add Authorization to the cache policy's headers, which also keys the cache by it), then invalidate /api/*.";

/**
 * The token, a wrong token and malformed headers all answered exactly as no header, and nothing in the run served: a
 * header stripped on the way and a wrong token look the same to an API that answers every refusal alike, so the run
 * cannot be judged; the words say how to tell the two apart.
 */
function headerStripped(valid: ObservedAnswer, wrongToken: ObservedAnswer | undefined, server: ServerKind, page: boolean): Diagnosis {
  const alike = wrongToken
    ? 'with the token, with a wrong token and with no Authorization header'
    : 'with the token and with no Authorization header';
  const tellApart =
    "To tell the two apart: copy the token again from the help desk's API settings (or create a new one) and run again; if it is still refused, put a script that prints $_SERVER['HTTP_AUTHORIZATION'] next to the application, or read the application's log: if no Authorization header arrives, the web server strips it.";
  const apache = [
    "If the header is stripped: Apache hands the Authorization header to PHP only when told to. The application's .htaccess does it with the rule below, which needs mod_rewrite enabled and AllowOverride All on the application's folder: check that the .htaccess is in place and holds the rule.",
    'If the rule is there, PHP most likely runs through the CGI handler (mod_cgi with an Action to /cgi-bin/php): under CGI Apache never gives PHP the header, and the rule only passes it on as REDIRECT_HTTP_AUTHORIZATION, which applications reading PHP_AUTH_USER or HTTP_AUTHORIZATION never see. Replace CGI by PHP-FPM (proxy_fcgi) or SuPHP, as below.',
    'Look also for a rule that removes the header: "RequestHeader unset Authorization" (mod_headers) in the site, a <Location> or <Directory> block or a .htaccess, often added to keep a password of the site from the back end; remove it, or limit it to the paths that are not the API.',
    'On Apache 2.4.13 or newer, "CGIPassAuth On" also passes the header: in the <Directory> block of the application under PHP-FPM, in the one of the php-cgi binary (/usr/lib/cgi-bin) under CGI.',
  ];
  const nginx = [
    `If the header is stripped: nginx hands every request header to PHP-FPM unless told otherwise. In the location that passes .php files to PHP-FPM, look for a "fastcgi_param HTTP_AUTHORIZATION" line that sets it to "" or another constant, and for "fastcgi_pass_request_headers off": remove them, or set the header as below (${nginxDocs('fastcgi_param', 'fastcgi_pass_request_headers')}).`,
    `If an nginx proxy stands in front of it (proxy_pass), look there for "proxy_set_header Authorization" set to "" (often added to keep the proxy's own password from the back end) and for "proxy_pass_request_headers off": remove them, or pass the header on as below (${nginxDocs('proxy_set_header', 'proxy_pass_request_headers')}).`,
  ];
  const front = page
    ? 'The refusal is an HTML page that no known front signs: if a proxy, load balancer, single sign-on or WAF in front of the web server answers it, let the API paths through, with their Authorization header.'
    : vendorOf(valid)?.name === CLOUDFRONT
      ? CLOUDFRONT_AUTHORIZATION
      : 'If a proxy, load balancer, CDN or WAF stands in front of the web server, check that it passes the Authorization header on: some drop it by default or by a rule.';
  return {
    id: 'authorization-header-stripped',
    party: 'environment',
    inconclusive: true,
    confidence: 'medium',
    summary:
      'the valid token was refused exactly like no token at all, and so was a wrong token: either the web server (or something in front of it) strips the Authorization header before the application sees it, or the token is wrong; nothing in this run tells the two apart, so the API cannot be judged',
    evidence: `${alike}, GET ${pathOf(valid)} got the same answer: ${briefly(valid)}; no request of the run was served with any credentials, through /index.php/api/... included, and the API answered a wrong token as it answered no header`,
    advice: [tellApart, ...(server === 'nginx' ? nginx : server === 'apache' ? apache : [...apache, OTHER_SERVERS]), front],
    snippets:
      server === 'nginx'
        ? [SNIPPETS.nginxAuthorization, SNIPPETS.nginxProxyAuthorization]
        : [SNIPPETS.authorizationRule, SNIPPETS.cgiToFpm],
    environmentAnswer: { status: valid.status, body: valid.body },
  };
}

/**
 * The token answered as no header, while a wrong token got another answer: the API tells a wrong token from a missing
 * header, so a wrong token would have got that other answer. The token's header did not arrive as it was sent.
 */
function headerLostForToken(valid: ObservedAnswer, wrongToken: ObservedAnswer, server: ServerKind): Diagnosis {
  const where =
    server === 'nginx'
      ? `a "fastcgi_param HTTP_AUTHORIZATION" or "proxy_set_header Authorization" that rewrites the header (${nginxDocs('fastcgi_param', 'proxy_set_header')})`
      : server === 'apache'
        ? 'a RequestHeader or RewriteRule that rewrites the Authorization header, or a limit on the length of request headers (LimitRequestFieldSize)'
        : 'a rule of the web server or of a proxy in front that rewrites the Authorization header, or a limit on the length of request headers';
  return {
    id: 'authorization-header-stripped',
    party: 'environment',
    confidence: 'medium',
    summary: `the valid token was answered exactly like no Authorization header, while a wrong token got another answer: the API tells a wrong token from a missing header, so the header carrying the token does not reach the application as it was sent`,
    evidence: `GET ${pathOf(valid)} with the token and with no Authorization header got the same answer: ${briefly(valid)}; with a wrong token: ${briefly(wrongToken)}`,
    advice: [
      `Look for what treats the token's header apart from others: ${where}.`,
      "If nothing rewrites it, read the application's log for the request with the token: it shows what arrived in place of the header.",
    ],
    environmentAnswer: { status: valid.status, body: valid.body },
  };
}

/**
 * The token refused like no header on one API path and served on another: the token is right, and the header is lost
 * on the way to that path alone, by a rule that treats it apart.
 */
function headerStrippedOnOnePath(refused: ObservedAnswer, served: ObservedAnswer): Diagnosis {
  return {
    id: 'authorization-header-stripped',
    party: 'environment',
    confidence: 'medium',
    summary: `the valid token was refused exactly like no token at all on ${pathOf(refused)}, while GET ${pathOf(served)} was served with the same token: the token is right, so the Authorization header is most likely stripped on the way to ${pathOf(refused)} only`,
    evidence: `with the token and with no Authorization header, GET ${pathOf(refused)} got the same answer: ${briefly(refused)}; GET ${pathOf(served)} with the token answered HTTP ${served.status}`,
    advice: [
      `Look for what treats ${pathOf(refused)} apart from the other API paths: a proxy, CDN or gateway route, or a web server location or rewrite rule that matches it, and make it pass the Authorization header on as it does for them.`,
      `If nothing strips it there, check in the help desk's API settings that the token may use ${pathOf(refused)}.`,
    ],
    environmentAnswer: { status: refused.status, body: refused.body },
  };
}

/**
 * The token refused like no header on /api/... and served through /index.php/api/...: the header reaches PHP, but not
 * on the way the web server rewrites /api/... to the front controller. On Apache that is the .htaccess rule that copies
 * the header missing or placed after the rewrite (the application then sees REDIRECT_HTTP_AUTHORIZATION at most), or a
 * RequestHeader unset in a <Location> matching /api; on nginx, the location serving /api/ rewriting the header.
 */
function headerStrippedOnRewrite(refused: ObservedAnswer, served: ObservedAnswer, server: ServerKind): Diagnosis {
  const onOnePath = headerStrippedOnOnePath(refused, served);
  const apache = [
    `On Apache: the .htaccess that rewrites /api/... to index.php must copy the header first, with the rule below before the rewrite to index.php (mod_rewrite enabled, AllowOverride All on the application's folder); without it the rewritten request reaches PHP with REDIRECT_HTTP_AUTHORIZATION at most. Look also for "RequestHeader unset Authorization" in a <Location> or <Directory> block that matches /api.`,
  ];
  const nginx = [
    `On nginx: the location that serves /api/ (its try_files or rewrite to index.php) must hand the header to PHP-FPM as the .php location does: look there for a "fastcgi_param HTTP_AUTHORIZATION" or "proxy_set_header Authorization" set to "" (${nginxDocs('fastcgi_param', 'proxy_set_header')}).`,
  ];
  return {
    ...onOnePath,
    advice: [...(server === 'nginx' ? nginx : server === 'apache' ? apache : [...apache, ...nginx]), ...onOnePath.advice],
    snippets:
      server === 'nginx'
        ? [SNIPPETS.nginxAuthorization]
        : server === 'apache'
          ? [SNIPPETS.authorizationRule]
          : [SNIPPETS.authorizationRule, SNIPPETS.nginxAuthorization],
  };
}

/**
 * The token served on the configured status, and other requests made with it answered as if they carried no header:
 * the token is right, and the header is lost on the way for those requests alone (their path, their query string, the
 * length of the header).
 */
export function headerLostOnSome(valid: ObservedAnswer, lost: FailedAnswer[], noHeader: ObservedAnswer | undefined): Diagnosis {
  const requests = requestsOf(lost, (failed) => `GET ${pathOf(failed.answer)} (${failed.credentials})`);
  return {
    id: 'authorization-header-stripped',
    party: 'environment',
    confidence: 'medium',
    summary: `the token was served on GET ${pathOf(valid)}, but other requests made with it got the answer of a request without an Authorization header: the token is right, so the header is most likely lost on the way for those requests (${requirementsOf(lost).join(', ')} failed on them)`,
    // Stryker disable next-line OptionalChaining: the run names this cause only when at least one request lost its header
    evidence: `${requests}: answered ${briefly(lost[0]?.answer ?? valid)}, like no Authorization header`,
    advice: [
      'Look for what treats those requests apart from the others: a proxy, CDN or gateway route, or a web server location or rewrite rule that matches their path or query string, or a limit on the length of request headers; make it pass the Authorization header on as it does for the others.',
      "If nothing strips it there, check in the help desk's API settings that the token may make those requests.",
    ],
    ...(noHeader ? { environmentAnswer: { status: noHeader.status, body: noHeader.body } } : {}),
  };
}

function tokenRefused(
  valid: ObservedAnswer,
  noHeader: ObservedAnswer,
  wrongToken: ObservedAnswer | undefined,
  invalidHeader: ObservedAnswer | undefined,
): Diagnosis {
  const likeWrongToken = sameAnswer(valid, wrongToken);
  // Stryker disable next-line StringLiteral: the malformed header is named only when it was answered unlike no header
  const malformedDifference = invalidHeader ? differenceOf(invalidHeader, noHeader) : 'not recorded';
  const evidence = !sameAnswer(valid, noHeader)
    ? `the answer with the token ${likeWrongToken ? 'is the one a wrong token gets, and it ' : ''}differs from the answer with no header (${differenceOf(valid, noHeader)}), so the header does reach the application`
    : `the token was refused like no header${wrongToken ? ' and like a wrong token' : ''} (HTTP ${valid.status}), but a malformed Authorization header got another answer (${malformedDifference}), so the header does reach the application`;
  return {
    id: 'token-refused',
    party: 'environment',
    inconclusive: true,
    confidence: likeWrongToken ? 'high' : 'medium',
    summary:
      'the token reached the application and was refused as wrong: check that --token is right, active and allowed to use the API; the API cannot be judged with it',
    evidence,
    advice: ["Create or copy the API token again in the help desk's settings and pass it with --token or CONFORMANCE_TOKEN."],
  };
}

/** What a near miss served says of the token given, by the near miss's label. */
const OFF_BY: Record<string, string> = {
  'the token without its last character': 'it has one character too many at its end',
  'the token with one character appended': 'it lacks its last character',
  'the token with the case of one letter flipped': 'one of its letters is in the other case',
};

/**
 * The token given refused, and a near miss of it served: the near miss is the token the help desk issued, so the one
 * given is a character off. Named so, not as an API that compares tokens loosely, which would accept the token given too.
 */
function tokenOneOff(valid: ObservedAnswer, served: { form: string; answer: ObservedAnswer }[]): Diagnosis {
  const forms = served.map(({ form }) => form);
  const off = served.map(({ form }) => OFF_BY[form]).filter((words): words is string => words !== undefined);
  return {
    id: 'token-refused',
    party: 'environment',
    inconclusive: true,
    confidence: 'high',
    summary: `the token given was refused, but ${forms.join(' and ')} was served: the token given is a character off the one the help desk issued${off.length > 0 ? ` (${off.join('; ')})` : ''}, so the API cannot be judged with it`,
    evidence: `GET ${pathOf(valid)} with the token answered ${briefly(valid)}; ${served.map(({ form, answer }) => `with ${form}: HTTP ${answer.status}`).join('; ')}`,
    advice: ["Copy the token again, whole, from the help desk's API settings, and pass it with --token or CONFORMANCE_TOKEN."],
  };
}

/**
 * The token refused as the Basic user name and served in another form: the header arrives and the token is valid, so
 * the application reads it from the wrong place. Not a stripped header, not a wrong token.
 */
function tokenReadElsewhere(valid: ObservedAnswer, served: { form: string; answer: ObservedAnswer }[]): Diagnosis {
  const forms = served.map(({ form }) => form);
  return {
    id: 'token-read-from-wrong-place',
    party: 'target',
    confidence: 'high',
    summary: `the token as the Basic user name is refused, but the status is handed out to ${forms.join(' and to ')}: the Authorization header arrives and the token is valid, so the application reads the token from the wrong place (the password, or a Bearer header only), as some frameworks' default guards do`,
    evidence: `GET ${pathOf(valid)} with the token as the user name answered ${briefly(valid)}; ${served.map(({ form, answer }) => `with ${form}: HTTP ${answer.status}`).join('; ')}`,
    advice: [
      'Take the token from the user name of the Basic credentials (PHP: $_SERVER[\'PHP_AUTH_USER\'], or the part before the first ":" of the decoded Authorization value) and ignore the password, as the document says.',
      'Refuse the token in any other place: as the password, as a Bearer token, or without the ":".',
    ],
  };
}

/** An HTTP 401 page that no known front signs: a refusal of credentials, whoever wrote it. */
const isRefusalPage = (answer: ObservedAnswer): boolean => answer.status === 401 && answer.classified.origin.kind === 'unknown';

/**
 * Known problems of the hosting stack, named from HTTP answers alone; the doctor and the main run both read them here.
 * Returns nothing when no known pattern matches.
 */
export function diagnoseStack(observations: StackObservations, setup: StackSetup = {}): Diagnosis[] {
  const { valid, noHeader, wrongToken, invalidHeader } = observations;
  if (!valid) return [];
  if (observations.validServed ?? succeeded(valid)) {
    const served = [noHeader, wrongToken].filter((answer): answer is ObservedAnswer => answer !== undefined && statusHandedOut(answer));
    return served.length > 0 ? [authenticationNotEnforced(served)] : [];
  }
  const server = serverKind(
    Object.values(observations).filter((seen): seen is ObservedAnswer => typeof seen === 'object' && !Array.isArray(seen)),
  );
  const { classified } = valid;
  if (classified.meaning.kind === 'application-error') return [applicationFailed(valid, classified.meaning)];
  const elsewhere = fromApplication(valid) ? (observations.tokenElsewhere ?? []).filter(({ answer }) => succeeded(answer)) : [];
  if (elsewhere.length > 0) return [tokenReadElsewhere(valid, elsewhere)];
  // A page of no known front, refusing the token exactly as no header: the API's refusal as a page, or something in front
  // refusing everything. The credential rules weigh it with the rest.
  const refusalPage = isRefusalPage(valid) && noHeader !== undefined && sameAnswer(valid, noHeader);
  const front = refusalPage ? undefined : frontAnswered(observations, setup);
  if (front) return [front];
  // The API answers its envelope on the listing: a page or nothing on the status path is the API's own failure.
  const apiElsewhere = servedJson(observations.selfservice) && fromApplication(observations.selfservice);
  // A final answer never has a code below 200.
  const success = valid.status < 300;
  if (classified.meaning.kind === 'empty' && success)
    return [apiElsewhere ? catchAllRoute(valid, 'an empty body') : apiPathAnswersEmpty(valid)];
  if (isHtmlPage(valid) && success) return [apiElsewhere ? catchAllRoute(valid, 'an HTML page') : apiPathServesHtml(valid)];
  if (!fromApplication(valid) && !refusalPage) {
    if (valid.status === 404) return [notRouted(observations, valid, server)];
    if (valid.status >= 500) return [webServerError(valid, server)];
    return [];
  }
  // The credential rules read refusals in the application's own words only.
  // A 404 refuses a path and a 405 a method: neither says anything of the credentials.
  if ((classified.meaning.kind !== 'refused' && !refusalPage) || valid.status === 404 || valid.status === 405 || !noHeader) return [];
  const { selfservice, selfserviceNoHeader, frontController, otherStatusServed, nearMissesServed } = observations;
  if (nearMissesServed && nearMissesServed.length > 0) return [tokenOneOff(valid, nearMissesServed)];
  // The token served another status is right: the API refused it this one, which the checks of this status name.
  if (!sameAnswer(valid, noHeader)) return otherStatusServed ? [] : [tokenRefused(valid, noHeader, wrongToken, invalidHeader)];
  const headerArrives = (wrongToken && !sameAnswer(wrongToken, noHeader)) || (invalidHeader && !sameAnswer(invalidHeader, noHeader));
  if (otherStatusServed) return headerArrives ? [] : [headerStrippedOnOnePath(valid, otherStatusServed)];
  // The token answered as no header. Only evidence that the header is lost tells it from a wrong token: the token served
  // on another path, or a wrong token answered otherwise.
  // The listing served with the token and answered otherwise without it: the token is right, and reaches that path.
  if (servedJson(selfservice) && fromApplication(selfservice) && selfserviceNoHeader && !sameAnswer(selfservice, selfserviceNoHeader)) {
    return [headerStrippedOnOnePath(valid, selfservice)];
  }
  if (frontController && succeeded(frontController)) return [headerStrippedOnRewrite(valid, frontController, server)];
  const wrongTokenRefused = wrongToken !== undefined && (fromApplication(wrongToken) || isRefusalPage(wrongToken));
  if (wrongToken && wrongTokenRefused && !sameAnswer(wrongToken, noHeader)) return [headerLostForToken(valid, wrongToken, server)];
  // A malformed header answered otherwise shows the header arrives: the token is refused as a wrong one is.
  if (invalidHeader && !sameAnswer(invalidHeader, noHeader)) return [tokenRefused(valid, noHeader, wrongToken, invalidHeader)];
  return [headerStripped(valid, wrongToken, server, refusalPage)];
}

/** The doctor's word when the valid token is not served and no known pattern explains why. */
export function unrecognisedAnswer(valid: ObservedAnswer): Diagnosis {
  return {
    id: 'unrecognised-answer',
    party: 'target',
    confidence: 'low',
    summary: 'the valid token did not get a successful answer, and no known hosting problem matches what was seen',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      'Run the full conformance suite (ticketing-conformance --base-url URL --token TOKEN): every check shows the request, the answer and a curl repro.',
    ],
  };
}
