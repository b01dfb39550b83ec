import type { Diagnosis } from './types.js';
import {
  cacheMark,
  CDN_ORIGIN_CODES,
  CHALLENGE,
  FPM_ACCESS_DENIED,
  GATEWAY_ERRORS,
  PLAIN_HTTP_TO_TLS_PORT,
} from '../classify/signatures.js';
import type { Classified, FrontOrigin } from '../classify/types.js';
import { whoAnswered } from '../classify/words.js';
import { PHP_SOURCE } from '../exchange/body-text.js';
import {
  briefly,
  citing,
  fromApplication,
  isHtmlPage,
  pathOf,
  sameAnswer,
  servedJson,
  serverKind,
  type ServerKind,
  requestsOf,
  requirementsOf,
  type FailedAnswer,
  type ObservedAnswer,
  type StackObservations,
  type StackSetup,
} from './answers.js';
import { nginxDocs } from './nginx-docs.js';
import { rateLimitedAll, rateLimitedSome } from './rate-limit.js';
import { SNIPPETS } from './snippets.js';
import { frontFailure, vendorFix } from './vendor-fixes.js';

/**
 * Answers that did not come from the API: something in front of it (a WAF or CDN, a proxy, a gateway, a maintenance
 * page) answered, or the set-up points at something that is not there (a base URL ending in /api, a status that does not
 * exist). Nothing that failed can then be laid at the API's door, so each of these makes the run inconclusive.
 */

function couldNotJudge(diagnosis: Omit<Diagnosis, 'inconclusive' | 'party'>): Diagnosis {
  return { ...diagnosis, party: 'environment', inconclusive: true };
}

function blockPage(valid: ObservedAnswer, origin: FrontOrigin | undefined): Diagnosis {
  const challenge = CHALLENGE.test(valid.body);
  const vendor = origin?.vendor;
  const who = vendor ?? 'a firewall or CDN in front of the API';
  const ownFix = origin && !challenge ? vendorFix(origin, 'refused') : undefined;
  return couldNotJudge({
    id: 'front-blocked',
    confidence: vendor ? 'high' : 'medium',
    summary: `${who} answered instead of the API (${challenge ? 'a browser challenge page' : 'a block page'}): no request reached the API, so it cannot be judged`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: ownFix ?? [
      `Let the suite's requests through ${vendor ?? 'the firewall or CDN'}: allow the address this runs from, or its User-Agent "ticketing-conformance", for the API paths (/api/...), or run from inside the network, past the front.`,
      'API paths must not get browser challenges: API clients cannot answer them.',
    ],
  });
}

function proxyAuthentication(valid: ObservedAnswer): Diagnosis {
  const scheme = valid.headers['proxy-authenticate'];
  return couldNotJudge({
    id: 'proxy-authentication',
    confidence: 'high',
    summary: 'a proxy between this machine and the API asks for its own credentials (HTTP 407): no request reached the API',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}${scheme ? ` with Proxy-Authenticate: ${scheme}` : ''}`,
    advice: [
      'Give the proxy its credentials in the proxy address (HTTPS_PROXY=http://user:password@proxy:port), or add the API host to NO_PROXY if it can be reached directly.',
    ],
  });
}

/** When to try again, from Retry-After: seconds, or an HTTP date. */
function retryWhen(retryAfter: string | undefined, now: Date): string | undefined {
  // Stryker disable next-line ConditionalExpression: without the header, no date can be read either
  if (retryAfter === undefined) return undefined;
  const seconds = /^\s*(\d+)\s*$/.exec(retryAfter)?.[1];
  // Seconds, or an HTTP date, whose every form opens with the day's name: anything else a parser may still turn into
  // a date ("120.5", "-1") says no time.
  if (seconds === undefined && !/^\s*(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i.test(retryAfter)) return undefined;
  const at = seconds === undefined ? new Date(retryAfter) : new Date(now.getTime() + Number(seconds) * 1000);
  if (Number.isNaN(at.getTime())) return undefined;
  const wait = seconds === undefined ? '' : `in ${seconds} s, `;
  // Stryker disable next-line Regex: an ISO date always ends in its milliseconds and Z
  return `${wait}at ${at.toISOString().replace(/\.\d{3}Z$/, 'Z')} or later`;
}

function maintenance(valid: ObservedAnswer, origin: FrontOrigin, now: Date): Diagnosis {
  const retryAfter = valid.headers['retry-after'];
  const when = retryWhen(retryAfter, now);
  const ownFix = vendorFix(origin, 'maintenance');
  return couldNotJudge({
    id: 'maintenance',
    confidence: 'high',
    summary: `the API is unavailable, down for maintenance or overloaded (HTTP 503${origin.vendor ? `, ${origin.vendor}'s maintenance page` : ''}): it cannot be judged until it serves again`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}${retryAfter === undefined ? '' : ` with Retry-After: ${retryAfter}`}`,
    advice: [
      ...(ownFix ?? []),
      when ? `Run the suite again ${when}, as Retry-After asks.` : 'Run the suite again once the maintenance is over.',
    ],
  });
}

function gateway(valid: ObservedAnswer, origin: FrontOrigin): Diagnosis {
  return couldNotJudge({
    id: 'gateway-refused',
    confidence: origin.vendor ? 'high' : 'medium',
    summary: `${origin.vendor ?? 'an API gateway in front of the API'} refused the request with its own answer: the request never reached the API`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: vendorFix(origin, 'refused') ?? [
      "Check the gateway's route and authorizer for /api/...: it must pass the request, Authorization header included, on to the API without asking for credentials of its own.",
    ],
  });
}

/** A proxy or gateway in front of the API has no route for the API paths: it answered for itself, with its own not-found. */
function frontNoRoute(valid: ObservedAnswer, origin: FrontOrigin): Diagnosis {
  const who = whoAnswered(origin);
  return couldNotJudge({
    id: 'front-no-route',
    confidence: origin.vendor ? 'high' : 'medium',
    summary: `${who} answered with its own "no route" answer (HTTP ${valid.status}): it has no route to the API for these paths, so no request reached the API`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      ...(vendorFix(origin, 'no-route') ?? [`Give ${who} a route for the API paths (/api/...) to the web server of the service.`]),
      'If the service lives under a path (https://example.com/support), --base-url must include it: a missing prefix matches no route either.',
    ],
  });
}

/**
 * The API's own path ending a base URL, a version after it or not, or one of its documented paths (an endpoint's address
 * pasted whole): the paths /api/... are added to it again.
 */
const API_SUFFIX = /\/api(?:\/v\d+)?(?:\/ticket(?:\/status(?:\/[^/]*)?)?|\/selfservice(?:\/type)?)?\/*$/i;

function baseUrlEndsInApi(valid: ObservedAnswer, baseUrl: string): Diagnosis {
  const suffix = (API_SUFFIX.exec(new URL(baseUrl).pathname)?.[0] ?? '/api').replace(/\/+$/, '');
  return couldNotJudge({
    id: 'base-url-ends-in-api',
    confidence: 'high',
    summary: `--base-url ends in ${suffix}, so every request asks for ${suffix}/api/...: the paths are relative to the address of the service, not of its API`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [`Pass --base-url ${baseUrl.replace(API_SUFFIX, '')}`],
  });
}

/**
 * The base URL with a segment its path repeats (/index.php/index.php, /support/support) written once, if it repeats
 * one, and how many times it was written.
 */
function withoutRepeatedSegment(baseUrl: string): { segment: string; times: number; once: string } | undefined {
  const url = new URL(baseUrl);
  const repeated = /(\/[^/]+)\1+(?=\/|$)/.exec(url.pathname);
  if (!repeated?.[1]) return undefined;
  url.pathname = url.pathname.replace(repeated[0], repeated[1]);
  return { segment: repeated[1], times: repeated[0].length / repeated[1].length, once: url.href.replace(/\/+$/, '') };
}

/** How many times a segment repeats, at least twice, in words. */
const timesInWords = (times: number): string => (times === 2 ? 'twice' : times === 3 ? 'three times' : `${times} times`);

function pathsNotFound(valid: ObservedAnswer, selfservice: ObservedAnswer, baseUrl: string | undefined): Diagnosis {
  const repeat = baseUrl === undefined ? undefined : withoutRepeatedSegment(baseUrl);
  return couldNotJudge({
    id: 'api-paths-not-found',
    confidence: 'medium',
    summary:
      'every API path answers 404, the status and the selfservice listing alike: --base-url does not point at the service (a path prefix is missing, or it is another site)',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}; GET ${pathOf(selfservice)} answered HTTP ${selfservice.status}`,
    advice: repeat
      ? [`--base-url has ${repeat.segment} ${timesInWords(repeat.times)}: pass --base-url ${repeat.once}`]
      : [
          `If the service lives under a path (https://example.com/support), include it: --base-url ${baseUrl ? `${baseUrl.replace(/\/+$/, '')}/<path>` : 'https://example.com/support'}. The paths /api/... are added to it.`,
          'Open the address in a browser: it should show the help desk, not another site.',
        ],
  });
}

/** A status of --status-id answered like one that does not exist; `others` when it is not the only one listed. */
export function statusMissing(
  observations: StackObservations,
  valid: ObservedAnswer,
  statusId: number,
  others = false,
): Diagnosis | undefined {
  const { selfservice, firstStatus, unknownStatus } = observations;
  // Only the API's own refusal says whether a status exists: its failure (a 500 in its envelope) says nothing of the id,
  // and a refusal of the credentials (401, 403) nothing either.
  const refused = valid.classified.meaning.kind === 'refused' && fromApplication(valid);
  if (!servedJson(selfservice) || !refused || valid.status === 401 || valid.status === 403) return undefined;
  const firstServed = statusId !== 1 && servedJson(firstStatus);
  const compared = firstServed ? firstStatus : sameAnswer(valid, unknownStatus) ? unknownStatus : undefined;
  if (!compared) return undefined;
  return couldNotJudge({
    id: 'status-not-found',
    // The status said to be missing; the one compared with it was served, and says nothing of this one.
    ...citing(valid),
    confidence: firstServed ? 'high' : 'medium',
    summary: `status ${statusId} does not seem to exist: the token is accepted (the selfservice listing is served), but status ${statusId} is answered like a status that does not exist`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}${firstServed ? `, while GET ${pathOf(compared)} was served` : `, the same as GET ${pathOf(compared)}`}`,
    advice: [
      others
        ? `Leave ${statusId} out of --status-id, or put the id of a status that exists in its place (the help desk lists them in its ticket status settings).`
        : firstServed
          ? 'Pass --status-id 1, or the id of another status that exists (the help desk lists them in its ticket status settings).'
          : 'Pass --status-id with the id of a status that exists (the help desk lists them in its ticket status settings); if none is missing, the status endpoint itself is not routed.',
    ],
  });
}

function originUnreachable(valid: ObservedAnswer, origin: FrontOrigin): Diagnosis {
  // Stryker disable next-line StringLiteral: the classification names the vendor of every CDN or firewall error page
  const front = origin.vendor ?? 'the CDN in front of the API';
  return couldNotJudge({
    id: 'front-origin-unreachable',
    confidence: CDN_ORIGIN_CODES.test(String(valid.status)) ? 'high' : 'medium',
    summary: `${front} answered with its own error page (HTTP ${valid.status}): it could not get an answer from the web server behind it, so no request reached the API`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: vendorFix(origin, 'unreachable') ?? [
      `Check that the web server behind ${front} is running and accepts its connections (its firewall must let ${front} in), and that the origin address, port and TLS settings configured in ${front} are the web server's.`,
      "The code names the cause in the CDN's documentation (at Cloudflare: 521 refused, 522 and 524 timed out, 525 and 526 TLS to the origin).",
    ],
  });
}

function plainHttpToTlsPort(valid: ObservedAnswer, baseUrl: string | undefined): Diagnosis {
  // Stryker disable next-line Regex: a base URL that spoke plain HTTP starts with http:, its first http:
  const secure = baseUrl?.replace(/^http:/i, 'https:');
  const https = secure?.replace(/\/+$/, '');
  return couldNotJudge({
    id: 'plain-http-to-tls-port',
    confidence: 'high',
    summary:
      'the port of --base-url speaks HTTPS, and the suite spoke plain HTTP to it: the web server refused every request before the API saw it',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [`Use https:// instead of http:// in --base-url${https ? `: --base-url ${https}` : ''}`],
  });
}

function cachedRefusal(valid: ObservedAnswer, mark: string): Diagnosis {
  return couldNotJudge({
    id: 'cache-answered',
    confidence: 'medium',
    summary: `a cache in front of the API answered the valid token with an answer it had stored (${mark}), not served to this request: the request never reached the API, so it cannot be judged`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)} with ${mark}`,
    advice: [
      'The cache must not store answers to the API paths (/api/...), or must keep them apart by Authorization header: bypass it for /api/..., or have the API send Cache-Control: private, no-store; then purge it and run again.',
    ],
  });
}

/** The fix a front's answer to some requests calls for: its own, or the general one for what kind of front it is. */
function someBlockedAdvice(origin: FrontOrigin, classified: Classified, answer: ObservedAnswer): string[] {
  const failure = frontFailure({ ...classified, origin }, answer.status, answer.body);
  const ownFix = vendorFix(origin, failure);
  if (ownFix) return ownFix;
  if (origin.front === 'web-server' && GATEWAY_ERRORS.has(answer.status))
    return [
      "The application did not take these requests while it took the others: read the web server's error log at the time of the run. A PHP-FPM pool smaller than the suite's concurrent requests (pm.max_children) or a proxy time-out does this: lower --concurrency, or enlarge the pool.",
    ];
  return [
    `Let these requests through ${origin.vendor ?? 'the firewall or CDN'}: its log names the rule that stopped them (a query string, a long or unusual Authorization header, the path), which must not apply to the API paths (/api/...).`,
  ];
}

/**
 * Some requests were answered HTTP 503 for maintenance or load (by the application in JSON, or by a maintenance page)
 * while the others were served: what they check is not judged. Once is the service's moment; every run alike is a
 * failure of those requests, which their log names.
 */
function unavailableForSome(blocked: FailedAnswer[], origin: FrontOrigin, apiFailedToo: boolean): Diagnosis {
  return {
    id: 'front-blocked-some-requests',
    party: 'environment',
    confidence: 'medium',
    summary: `some requests were answered that the service cannot serve them for now (${origin.evidence}), while the plain request was served: ${requirementsOf(blocked).join(', ')} could not be judged on those answers${apiFailedToo ? '; the API failed other requirements on its own answers' : ''}`,
    evidence: requestsOf(blocked, (failed) => `GET ${pathOf(failed.answer)} (${failed.credentials}) answered ${briefly(failed.answer)}`),
    advice: [
      "Run the suite again. If the same requests get HTTP 503 again, it is no passing maintenance: read the log of the application (or of the front that answered) for them; a PHP-FPM pool smaller than the suite's concurrent requests (pm.max_children) answers so under load: lower --concurrency, or enlarge the pool.",
    ],
    ...citing(...blocked.map((failed) => failed.answer)),
  };
}

/**
 * Some requests were answered by a front, or redirected by something nobody can name, while the valid one reached the
 * API: what they check is not judged, and the run keeps the verdict the API's own answers give it, or has none when
 * nothing of the API's failed. A redirect is never the API's refusal: the API refuses in its own words.
 */
export function frontAnsweredSome(blocked: FailedAnswer[], apiFailedToo: boolean): Diagnosis | undefined {
  const first = blocked[0];
  const classified = first?.answer.classified;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,OptionalChaining: the caller passes front answers and redirects only; this narrows the type
  if (!first || !classified || (classified.origin.kind !== 'front' && classified.meaning.kind !== 'redirect')) return undefined;
  const { origin } = classified;
  if (origin.kind === 'front' && origin.front === 'rate-limiter') return rateLimitedSome(blocked, origin, apiFailedToo);
  if (origin.kind === 'front' && origin.front === 'maintenance') return unavailableForSome(blocked, origin, apiFailedToo);
  const named = origin.kind === 'front';
  const who = named ? whoAnswered(origin) : 'a redirect nobody can place';
  const what =
    origin.kind === 'front'
      ? origin.evidence
      : origin.kind === 'unknown'
        ? origin.evidence.replace(/^a redirect/, `HTTP ${first.answer.status}, a redirect`)
        : '';
  return {
    id: 'front-blocked-some-requests',
    party: 'environment',
    confidence: named && origin.vendor ? 'high' : 'medium',
    summary: `${who} answered some requests instead of the API (${what}), while the plain request reached it: ${requirementsOf(blocked).join(', ')} could not be judged on its answers${apiFailedToo ? '; the API failed other requirements on its own answers' : ''}`,
    evidence: requestsOf(blocked, (failed) => `GET ${pathOf(failed.answer)} (${failed.credentials}) answered ${briefly(failed.answer)}`),
    advice: named
      ? someBlockedAdvice(origin, classified, first.answer)
      : [
          `These requests were sent elsewhere (Location: ${first.answer.headers.location ?? 'none'}) instead of answered: the API refuses in its own words, never by a redirect, so they say nothing of its authentication. Find what redirects them (a sign-in front, a load balancer's authentication, a rewrite rule) and exempt the API paths (/api/...).`,
        ],
    ...citing(...blocked.map((failed) => failed.answer)),
  };
}

function loginInTheWay(valid: ObservedAnswer, origin: FrontOrigin): Diagnosis {
  const portal = origin.front === 'captive-portal';
  const ownFix = vendorFix(origin, 'sign-in');
  return couldNotJudge({
    id: portal ? 'captive-portal' : 'single-sign-on-in-the-way',
    confidence: 'medium',
    summary: portal
      ? 'a captive portal of the network this runs on answered instead of the API, asking to sign in to the network: no request reached the API'
      : `${origin.vendor ?? 'a single sign-on front'} answered instead of the API with its login page: no request reached the API, which API clients cannot get past`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: portal
      ? ['Run from a network without a captive portal (a CI runner, a server), or sign this machine in to the network first.']
      : (ownFix ?? [
          'Exempt the API paths (/api/...) from the single sign-on: the API authenticates its clients with its own token, and API clients cannot log in through a browser page.',
        ]),
  });
}

/** The advice for the web server that answered, or for each when which one cannot be told. */
const forServer = (server: ServerKind, advice: { apache: string; nginx: string }): string[] =>
  server === 'nginx' ? [advice.nginx] : server === 'apache' ? [advice.apache] : [advice.apache, advice.nginx];

/**
 * PHP-FPM refused to run the script it was handed, whose name does not end in .php (security.limit_extensions): the web
 * server passes the request's own path (/api/...) to PHP-FPM instead of the front controller's.
 */
function fpmAccessDenied(valid: ObservedAnswer): Diagnosis {
  const server = serverKind([valid]);
  const nginx = `On nginx, pass only .php scripts to PHP-FPM (fastcgi_pass in "location ~ \\.php$" alone, not in "location /" or "location /api"), and send every other path to the front controller with try_files $uri $uri/ /index.php?$query_string; in "location /" (${nginxDocs('try_files', 'fastcgi_pass')}).`;
  const apache =
    'On Apache, hand only .php files to PHP-FPM (SetHandler inside <FilesMatch "\\.php$">, not for a whole <Location> or ProxyPass of /api), and let the application\'s .htaccess rewrite /api/... to index.php.';
  return couldNotJudge({
    id: 'php-fpm-access-denied',
    confidence: 'high',
    summary:
      'PHP-FPM answered "Access denied.": the web server hands it the request\'s own path (/api/...) as the script to run, which PHP-FPM refuses because it does not end in .php (security.limit_extensions), so no request reached the application',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      ...forServer(server, { apache, nginx }),
      'Do not widen security.limit_extensions to make it run: the API paths must reach PHP through index.php.',
    ],
    ...(server === 'apache' ? {} : { snippets: [SNIPPETS.nginxTryFiles] }),
  });
}

function fpmScriptNotFound(valid: ObservedAnswer): Diagnosis {
  const server = serverKind([valid]);
  const scriptPath = {
    nginx: `Set root to the folder index.php is in (the application's public folder, not the one above it), and SCRIPT_FILENAME to the script's path in it: fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name; (Debian's snippets/fastcgi-php.conf sets it through fastcgi.conf) (${nginxDocs('root', 'fastcgi_param')}).`,
    apache:
      'Set the DocumentRoot (or the path in the proxy:fcgi:// handler) to the folder index.php is in, as PHP-FPM sees it: Apache hands PHP-FPM the script path it built from them.',
    unknown:
      "Set SCRIPT_FILENAME to the front controller's real path: on nginx, fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name; with root pointing at the application's public folder; on Apache, the DocumentRoot (or the path in the proxy:fcgi:// handler) must be the folder PHP-FPM sees.",
  }[server];
  return couldNotJudge({
    id: 'php-fpm-script-not-found',
    confidence: 'high',
    summary:
      'PHP-FPM answered "File not found." (it logs "Primary script unknown"): the web server hands it a script path that does not exist, so no request reached the application',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      scriptPath,
      'If PHP-FPM runs in a container or chroot, the path must be the one inside it.',
      ...(server === 'apache'
        ? []
        : ['This is not a missing try_files: without one, nginx answers its own 404 page, not PHP-FPM\'s "File not found.".']),
    ],
  });
}

/**
 * The web server sends the application's PHP source as a file: no PHP handler runs .php files for the site, so no
 * request reaches the application, and its source (its secrets with it) is public until one does.
 */
function phpNotRunning(valid: ObservedAnswer): Diagnosis {
  const server = serverKind([valid]);
  const apache =
    'On Apache, hand .php files to PHP-FPM as below (Debian: a2enmod proxy_fcgi setenvif && a2enconf php8.2-fpm, with the version installed), or enable mod_php (a2enmod php8.2), then reload Apache.';
  const nginx = `On nginx, add the location that passes .php files to PHP-FPM, in the site's server block: location ~ \\.php$ { include snippets/fastcgi-php.conf; fastcgi_pass unix:/run/php/php8.2-fpm.sock; } (the socket the pool listens on), then reload nginx (${nginxDocs('fastcgi_pass')}).`;
  return couldNotJudge({
    id: 'php-not-running',
    confidence: 'high',
    summary:
      "the web server sends the application's PHP source as a file instead of running it: no PHP handler runs .php files for this site, so no request reached the application, and anyone can read its code",
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      ...forServer(server, { apache, nginx }),
      'Until PHP runs it, the source is public: once it does, change the secrets it holds (the database password, the application key).',
    ],
    ...(server === 'nginx' ? {} : { snippets: [SNIPPETS.fpmHandler] }),
  });
}

/**
 * php-cgi found no script to run: PHP runs through the CGI handler, which the document rules out (Authentication 5),
 * and the web server hands it a path that does not exist.
 */
function cgiNoInputFile(valid: ObservedAnswer): Diagnosis {
  return couldNotJudge({
    id: 'php-cgi-no-input-file',
    confidence: 'high',
    summary:
      'php-cgi answered "No input file specified.": PHP runs through the CGI handler, and the web server hands it a script path that does not exist, so no request reached the application. The document rules the CGI handler out (Authentication 5: "the cgi handler must be replaced by SuPHP or FPM"): under it, PHP never sees the Authorization header',
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}`,
    advice: [
      'Replace the CGI handler by PHP-FPM or SuPHP, as the document asks (Authentication 5) and as below: remove the Action and AddHandler lines that send .php files to /cgi-bin/php.',
      "Then check the DocumentRoot (or Alias) of the site: it must be the folder the application's index.php is in, the path PHP is handed the script by.",
    ],
    snippets: [SNIPPETS.cgiToFpm],
  });
}

/** What a named front, or a CDN, firewall, proxy, cache or gateway, did with the valid request, from its own answer. */
function frontInTheWay(valid: ObservedAnswer, classified: Classified & { origin: FrontOrigin }): Diagnosis {
  const { origin } = classified;
  if (CHALLENGE.test(valid.body)) return blockPage(valid, origin);
  switch (frontFailure(classified, valid.status, valid.body)) {
    case 'unreachable':
      return originUnreachable(valid, origin);
    case 'no-route':
      return frontNoRoute(valid, origin);
    case 'sign-in':
      return loginInTheWay(valid, origin);
    case 'refused':
      return origin.front === 'gateway' ? gateway(valid, origin) : blockPage(valid, origin);
  }
}

/** The web server as its own pages name it, for the words of a diagnosis. */
const webServerName = (server: ServerKind): string => (server === 'nginx' ? 'nginx' : server === 'apache' ? 'Apache' : 'the web server');

/**
 * The web server refused the request with its own 403 page before the application saw it: an access rule (nginx's
 * deny, Apache's Require, a module such as ModSecurity) stands in front of the API's paths, so nothing reached the API.
 */
function webServerForbidden(observations: StackObservations, valid: ObservedAnswer): Diagnosis {
  const server = serverKind([valid]);
  const { frontController } = observations;
  const reached = frontController && fromApplication(frontController) ? frontController : undefined;
  const name = webServerName(server);
  const rule =
    server === 'nginx'
      ? `a "deny" or "allow" line, a "return 403" or a module of its own in the location or server block that covers /api/ (${nginxDocs('deny')})`
      : server === 'apache'
        ? 'a "Require" line (Require all denied, Require ip), a <Files> or <Location> block, or a module such as ModSecurity, in the site, the <Directory> block of the application or an access file in its folder'
        : 'an access rule of the web server (by address, by path) or a module such as ModSecurity';
  return couldNotJudge({
    id: 'web-server-forbidden',
    confidence: 'high',
    summary: `${name} refuses the request with its own HTTP 403 page before the application sees it: an access rule stands in front of the API's paths, so ${reached ? 'no request on them' : 'no request'} reached the API`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}${reached ? `, while GET ${pathOf(reached)} reached the application: ${briefly(reached)}` : ''}`,
    advice: [
      `Its error log names the rule that refused the request: look for ${rule}, and let the API's paths (/api/... and the front controller they are rewritten to) through to the application, from the addresses the suite runs on.`,
      'The API authenticates its clients with its own token: no access rule of the web server may refuse them first.',
    ],
  });
}

/**
 * The web server asked for a password of its own (nginx's auth_basic, Apache's AuthType Basic) before the application
 * saw the request: the API's token rides in the same Authorization header, and the web server checked it as its own.
 */
function webServerPassword(observations: StackObservations, valid: ObservedAnswer): Diagnosis {
  const server = serverKind([valid]);
  const challenge = valid.headers['www-authenticate'];
  const { frontController } = observations;
  const reached = frontController && fromApplication(frontController) ? frontController : undefined;
  const name = webServerName(server);
  const advice =
    server === 'nginx'
      ? [
          `Take the API paths out of nginx's password: "auth_basic off;" in a location for /api/, as below, or auth_basic out of the location or server block that covers /api/..., then reload nginx (${nginxDocs('auth_basic')}).`,
        ]
      : ["Take the API paths (/api/... and the front controller they are rewritten to) out of the web server's own password."];
  return couldNotJudge({
    id: 'web-server-password',
    confidence: 'high',
    summary: `${name} asks for a password of its own (HTTP 401 with its own page) before the application sees the request: the API's token, sent in the same Authorization header, is checked against the web server's password file and refused, so no request reached the API`,
    evidence: `GET ${pathOf(valid)} answered ${briefly(valid)}${challenge === undefined ? '' : ` with WWW-Authenticate: ${challenge}`}${reached ? `, while GET ${pathOf(reached)} reached the application: ${briefly(reached)}` : ''}`,
    advice: [...advice, 'The API authenticates its clients with its own token: no password of the web server may stand in front of it.'],
    ...(server === 'nginx' ? { snippets: [SNIPPETS.nginxApiWithoutPassword] } : {}),
  });
}

/**
 * The diagnosis when the valid request never reached the API, or undefined, from the classification of its answer.
 * Answers from the application itself are left to the credential rules, except for maintenance, a missing status and
 * every path answering 404.
 */
export function frontAnswered(observations: StackObservations, setup: StackSetup, now = new Date()): Diagnosis | undefined {
  const { valid } = observations;
  // Stryker disable next-line ConditionalExpression: the stack rules ask only when the valid request was answered
  if (!valid) return undefined;
  const { classified } = valid;
  const { origin } = classified;
  if (classified.meaning.kind === 'redirect') {
    // Stryker disable next-line ConditionalExpression: only a front has a name to compare
    return origin.kind === 'front' && (origin.front === 'sso' || origin.front === 'captive-portal')
      ? loginInTheWay(valid, origin)
      : undefined;
  }
  // Stryker disable next-line ConditionalExpression: only a front has a name to switch on
  if (origin.kind === 'front') {
    const fromFront = { ...classified, origin };
    switch (origin.front) {
      case 'proxy':
        return valid.status === 407 ? proxyAuthentication(valid) : frontInTheWay(valid, fromFront);
      case 'maintenance':
        return maintenance(valid, origin, now);
      case 'rate-limiter':
        return rateLimitedAll(valid, origin);
      case 'sso':
      case 'captive-portal':
        return loginInTheWay(valid, origin);
      case 'php-fpm':
        return FPM_ACCESS_DENIED.test(valid.body) ? fpmAccessDenied(valid) : fpmScriptNotFound(valid);
      case 'php-runtime':
        return PHP_SOURCE.test(valid.body) ? phpNotRunning(valid) : cgiNoInputFile(valid);
      case 'cdn':
      case 'waf':
      case 'cache':
      case 'gateway':
        return frontInTheWay(valid, fromFront);
      case 'web-server':
        if (PLAIN_HTTP_TO_TLS_PORT.test(valid.body)) return plainHttpToTlsPort(valid, setup.baseUrl);
        if (valid.status === 401) return webServerPassword(observations, valid);
        if (valid.status === 403) return webServerForbidden(observations, valid);
    }
  }
  const application = origin.kind === 'api';
  // The application's own refusal, replayed by a cache to a request it never saw; its 404s are left to the set-up rules.
  const cached = application && valid.status !== 404 ? cacheMark(valid) : undefined;
  if (cached) return cachedRefusal(valid, cached);
  if (valid.status === 404 && setup.baseUrl && API_SUFFIX.test(new URL(setup.baseUrl).pathname))
    return baseUrlEndsInApi(valid, setup.baseUrl);
  const missing = setup.statusId === undefined ? undefined : statusMissing(observations, valid, setup.statusId);
  if (missing) return missing;
  const { selfservice } = observations;
  if (application && valid.status === 404 && selfservice?.status === 404) return pathsNotFound(valid, selfservice, setup.baseUrl);
  // A web page refusing the request, other than the web server's own 404 and 5xx pages, which the stack rules name.
  if (origin.kind === 'unknown' && isHtmlPage(valid) && valid.status >= 400 && valid.status < 500 && valid.status !== 404)
    return blockPage(valid, undefined);
  return undefined;
}
