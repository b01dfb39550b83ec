import { parseJson, PHP_SOURCE } from '../exchange/body-text.js';
import { SELFSERVICE_PATH, type Exchange, type ParsedBody } from '../exchange/exchange.js';
import { isObject } from '../exchange/json-body.js';
import { canonicalJson } from '../hash.js';
import { memberText } from './json-text.js';
import {
  APACHE_PAGE,
  APPLICATION_FAILURES,
  CAPTIVE_PORTAL,
  CDN_ORIGIN_CODES,
  CGI_NO_INPUT_FILE,
  cdnJsonError,
  CHALLENGE,
  FPM_ACCESS_DENIED,
  FPM_SCRIPT_UNKNOWN,
  GATEWAY_ERRORS,
  isMaintenance,
  looksLikeHtml,
  NGINX_PAGE,
  PLAIN_HTTP_TO_TLS_PORT,
  SSO_PAGE,
  vendorOf,
  vendorPage,
  type AnswerText,
  type Vendor,
} from './signatures.js';
import { throttleOf } from './throttle.js';
import { isSuccessCode, type Classified, type FrontName, type Meaning, type Origin } from './types.js';

/** A listing's data when the answer's envelope holds something in it; an empty list or none is no listing. */
export function listingData({ response }: Exchange): unknown {
  const value = response.json.ok ? response.json.value : undefined;
  return isObject(value) && !isEmpty(value.data) ? value.data : undefined;
}

/** What identifies a listing: its data when it holds something, whatever the order of its entries; else nothing. */
export function listingContent(exchange: Exchange): string | undefined {
  const data = listingData(exchange);
  return data === undefined ? undefined : canonicalJson(data, { unordered: true });
}

/** One answer as the classification reads it: the request's path and what came back. */
export interface ClassifiedInput {
  /** The API path asked for (/api/ticket/status/1), without the base URL's own path or a query. */
  apiPath: string;
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body as text (redacted), as the report shows it. */
  bodyText: string;
  /** The body as parsed when it was received; parsed from the text when absent (an answer known only from a report). */
  json?: ParsedBody;
}

/** The documented fields of a ticket status. */
const STATUS_FIELDS = ['id', 'name', 'colour', 'auto_close', 'order', 'created_at', 'updated_at', 'translations'] as const;
/** Half the documented fields: enough to tell a status from any refusal, few enough that a status with faults still counts. */
const FIELDS_OF_A_STATUS = STATUS_FIELDS.length / 2;
const SHOWN_NOISE = 160;

const front = (name: FrontName, evidence: string, vendor?: string): Origin => ({
  kind: 'front',
  front: name,
  evidence,
  // Stryker disable next-line ConditionalExpression: an undefined vendor reads and serialises as an absent one
  ...(vendor === undefined ? {} : { vendor }),
});

/** The ticket status an envelope carries: data (or its first entry, when data is wrongly an array) with most documented fields. */
function carriedStatus(envelope: Record<string, unknown>): Record<string, unknown> | undefined {
  const data: unknown = Array.isArray(envelope.data) ? envelope.data[0] : envelope.data;
  if (!isObject(data)) return undefined;
  let fields = 0;
  for (const field of STATUS_FIELDS) if (field in data) fields += 1;
  return fields >= FIELDS_OF_A_STATUS ? data : undefined;
}

/**
 * A redirect's origin: a captive portal or a single sign-on front where its target says so; else nothing that can be
 * told (the application's own redirect to its login page refuses a request as well as any answer does).
 */
function redirectOrigin(location: string, answer: AnswerText): Origin {
  const signIn = vendorOf(answer);
  if (signIn?.kind === 'sso') return front('sso', `a redirect by ${signIn.name} to ${location}, with its cookies`, signIn.name);
  if (CAPTIVE_PORTAL.test(location) || /captive|hotspot/i.test(location)) return front('captive-portal', `a redirect to ${location}`);
  if (/^https?:\/\//i.test(location) && SSO_PAGE.test(location)) return front('sso', `a redirect to a single sign-on page (${location})`);
  return { kind: 'unknown', evidence: location.trim() === '' ? 'a redirect with an empty Location header' : `a redirect to ${location}` };
}

/** What a vendor's own answer is, in words, from its code: the evidence of its origin. */
function ownAnswer({ name, kind }: Vendor, { status, headers }: AnswerText): string {
  if (status >= 300 && status < 400 && headers.location !== undefined)
    return `HTTP ${status}: a redirect by ${name} to ${kind === 'sso' ? 'its sign-in page ' : ''}${headers.location}`;
  if (status >= 500) return `HTTP ${status}: ${name}'s own error page`;
  if (status === 404) return `HTTP 404: ${name}'s own answer, no route for this path`;
  return `HTTP ${status}: ${name}'s ${kind === 'gateway' ? 'own refusal' : kind === 'sso' ? 'sign-in page' : 'block page'}`;
}

/**
 * Something in front of the API known by its own signature, or undefined. A JSON object in the API's own words is the
 * API's, except where a gateway or proxy speaks JSON of its own.
 */
function frontOf(answer: AnswerText, json: boolean): Origin | undefined {
  const { status, body } = answer;
  // Whoever answers it, a throttled request says only that the suite asked too fast.
  const throttle = throttleOf(answer);
  if (throttle && !isMaintenance(answer)) return front('rate-limiter', throttle.evidence, throttle.vendor);
  if (status === 407) return front('proxy', 'HTTP 407: a proxy asks for its own credentials', 'a proxy between this machine and the API');
  // No application sends a CDN's own codes, nor its JSON errors: the API's words they are not, JSON or not.
  if (CDN_ORIGIN_CODES.test(String(status))) {
    const evidence = `HTTP ${status}, a code only a CDN sends when the web server behind it fails it`;
    return front('cdn', evidence, vendorOf(answer)?.name ?? 'the CDN in front of the API');
  }
  if (cdnJsonError(answer)) return front('cdn', `HTTP ${status}: Cloudflare's own error in JSON`, 'Cloudflare');
  if (!json && (status === 511 || CAPTIVE_PORTAL.test(body)))
    return front('captive-portal', `HTTP ${status}: a captive portal's sign-in page`);
  if (!json && CHALLENGE.test(body)) {
    const vendor = vendorOf(answer);
    return front(vendor?.kind ?? 'waf', `HTTP ${status}: a browser challenge page`, vendor?.name);
  }
  // A vendor's own answer before a maintenance window: Varnish's backend failure sends Retry-After too.
  const own = vendorPage(answer);
  if (own) return front(own.kind, ownAnswer(own, answer), own.name);
  // An application in maintenance mode answers for itself, in JSON too (Laravel's "down"): the API is not serving.
  if (isMaintenance(answer) && (!json || answer.headers['retry-after'] !== undefined)) {
    const evidence = `HTTP 503: a maintenance answer${answer.headers['retry-after'] ? ' with Retry-After' : ''}`;
    return front('maintenance', evidence, vendorOf(answer)?.name);
  }
  // Its JSON 503 says the same by its code, whatever its words (Laravel's "down" sends Retry-After only when asked to):
  // the service is unable to serve for now (RFC 9110, 15.6.4), which is no answer to judge it on.
  if (json && status === 503) return front('maintenance', 'HTTP 503 in JSON: the application says it cannot serve for now');
  if (json) return undefined;
  if (PHP_SOURCE.test(body)) return front('php-runtime', `HTTP ${status}: the application's PHP source, sent as a file: no PHP runs it`);
  if (status === 403 && FPM_ACCESS_DENIED.test(body))
    return front('php-fpm', 'HTTP 403 "Access denied.": PHP-FPM refuses a script whose name does not end in .php', 'PHP-FPM');
  if (FPM_SCRIPT_UNKNOWN.test(body)) return front('php-fpm', `HTTP ${status} "${body.trim()}": PHP-FPM found no script to run`, 'PHP-FPM');
  if (CGI_NO_INPUT_FILE.test(body))
    return front('php-runtime', `HTTP ${status} "${body.trim()}": php-cgi found no script to run`, 'php-cgi');
  if (status === 400 && PLAIN_HTTP_TO_TLS_PORT.test(body))
    return front('web-server', 'HTTP 400: plain HTTP reached a port that speaks HTTPS');
  if (APACHE_PAGE.test(body)) return front('web-server', `HTTP ${status}: Apache's own error page`, 'Apache');
  if (NGINX_PAGE.test(body)) return front('web-server', `HTTP ${status}: nginx's own error page`, 'nginx');
  if (GATEWAY_ERRORS.has(status))
    return front('web-server', `HTTP ${status}: a gateway error page, the application did not take the request`);
  // A refusal, or a page in place of the resource, under a vendor's headers; its headers ride on the web server's 404 too.
  if ((status >= 400 && status < 500 && status !== 404) || (status < 300 && looksLikeHtml(answer))) {
    const vendor = vendorOf(answer);
    if (vendor) return front(vendor.kind, `HTTP ${status}: ${vendor.name}'s block page`, vendor.name);
  }
  if (looksLikeHtml(answer) && SSO_PAGE.test(body) && status !== 404) return front('sso', `HTTP ${status}: a single sign-on login page`);
  return undefined;
}

/** The id of a served status as the JSON text holds it (1, 1.0, 9007199254740993, "1"): compared as sent, never rounded. */
function idText(id: unknown, envelopeText: string): string {
  const raw = memberText(envelopeText, ['data', 'id']) ?? memberText(envelopeText, ['data', 0, 'id']);
  return raw ?? JSON.stringify(id) ?? 'absent';
}

const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined || (Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0);

/** What the API's own JSON means for the path it answered. */
function apiMeaning(envelope: Record<string, unknown>, input: ClassifiedInput, envelopeText: string): Meaning {
  const status = carriedStatus(envelope);
  if (status) return { kind: 'served-status', id: idText(status.id, envelopeText) };
  const success = envelope.status === 'success';
  // A message sent as a list of texts (NestJS sends one) is read as its texts joined; none (null) holds no failure's words.
  const { message } = envelope;
  const failure =
    // Stryker disable next-line ConditionalExpression,LogicalOperator: "null" and "undefined" hold no failure's words, read or not
    message === null || message === undefined ? undefined : APPLICATION_FAILURES.find(({ pattern }) => pattern.test(String(message)));
  // A failure in the application's words is one under any code: frameworks send their errors with HTTP 200 too.
  if ((input.status >= 500 || failure !== undefined) && !success) {
    return { kind: 'application-error', what: failure?.what ?? 'server-error', evidence: `HTTP ${input.status} in the API's own envelope` };
  }
  if (input.apiPath === SELFSERVICE_PATH) {
    // The listing's shape is not stated: a success, or content without a word of refusal, hands it out whatever the
    // HTTP code; with an error code and no word either way, nothing was handed out.
    const saysNo = 'status' in envelope && !success;
    const handedOut = !isEmpty(envelope.data);
    if (success || (!saysNo && (isSuccessCode(input.status) || handedOut)) || (saysNo && handedOut && isSuccessCode(input.status))) {
      return { kind: 'served-listing' };
    }
  }
  // A success envelope is never a refusal, whatever its data holds.
  return success ? { kind: 'served-without-resource' } : { kind: 'refused' };
}

function noiseOf(text: string, before: number, after: number): string {
  const around = `${text.slice(0, before)}${after > 0 ? ` … ${text.slice(text.length - after)}` : ''}`.replace(/\s+/g, ' ').trim();
  return around.length > SHOWN_NOISE ? `${around.slice(0, SHOWN_NOISE)}…` : around;
}

/** Who answered one request and what the answer means: decided here once, and read by every check and diagnosis. */
export function classifyAnswer(input: ClassifiedInput): Classified {
  const { status, headers, bodyText } = input;
  const json = input.json ?? parseJson({ text: bodyText });
  const envelope = json.ok ? json.value : json.embedded?.value;
  const answer: AnswerText = { status, headers, body: bodyText };
  const fromFront = frontOf(answer, isObject(envelope));
  const location = headers.location;
  const redirect = status >= 300 && status < 400 && location !== undefined;
  if (fromFront) return { origin: fromFront, meaning: redirect ? { kind: 'redirect', to: location } : { kind: 'error-page' } };
  if (redirect) return { origin: redirectOrigin(location, answer), meaning: { kind: 'redirect', to: location } };
  if (isObject(envelope)) {
    const embedded = !json.ok ? json.embedded : undefined;
    // The text from the envelope on: what follows it is never read.
    const envelopeText = embedded ? bodyText.slice(embedded.before) : bodyText;
    const noise = embedded ? noiseOf(bodyText, embedded.before, embedded.after) : undefined;
    return { origin: { kind: 'api' }, meaning: apiMeaning(envelope, input, envelopeText), ...(noise ? { noise } : {}) };
  }
  for (const { what, pattern } of APPLICATION_FAILURES) {
    const line = pattern.exec(bodyText)?.[0];
    if (line !== undefined) {
      return { origin: { kind: 'api' }, meaning: { kind: 'application-error', what, evidence: `HTTP ${status} with "${line.trim()}"` } };
    }
  }
  if (!json.ok && json.why) {
    return { origin: { kind: 'unknown', evidence: json.error }, meaning: { kind: 'undecodable', why: json.why, detail: json.error } };
  }
  if (bodyText.trim() === '')
    return { origin: { kind: 'unknown', evidence: `HTTP ${status} with an empty body` }, meaning: { kind: 'empty' } };
  if (looksLikeHtml(answer)) {
    const title = (/<title>([^<]*)<\/title>/i.exec(bodyText)?.[1] ?? '').trim();
    return {
      origin: { kind: 'unknown', evidence: `HTTP ${status}: an HTML page${title ? ` "${title}"` : ''}` },
      meaning: { kind: 'error-page' },
    };
  }
  if (json.ok) {
    // JSON is the application's words; the listing's shape is not stated, so any JSON may be it.
    const listing = input.apiPath === SELFSERVICE_PATH && isSuccessCode(status);
    return {
      origin: { kind: 'api' },
      meaning: listing ? { kind: 'served-listing' } : { kind: 'undecodable', why: 'not-json', detail: 'JSON that is not an object' },
    };
  }
  // Labelled JSON by what wrote it: the application claims it, even where the body does not parse.
  // Stryker disable next-line StringLiteral: no label is no JSON label, whatever text stands in for it
  if (/\bjson\b/i.test(headers['content-type'] ?? '')) {
    return { origin: { kind: 'api' }, meaning: { kind: 'undecodable', why: 'not-json', detail: json.error } };
  }
  const detail = json.error;
  return {
    origin: { kind: 'unknown', evidence: `HTTP ${status}: not a JSON object` },
    meaning: { kind: 'undecodable', why: 'not-json', detail },
  };
}

/** The API path a recorded request asked for: its path from /api/ on, without the base URL's path or the query. */
export function apiPathOf(path: string): string {
  const query = path.indexOf('?');
  const withoutQuery = query < 0 ? path : path.slice(0, query);
  const at = withoutQuery.lastIndexOf('/api/');
  // Stryker disable next-line EqualityOperator: a path that starts with /api/ is the same sliced from 0
  return at < 0 ? withoutQuery : withoutQuery.slice(at);
}

export function classifyExchange({ request, response }: Exchange): Classified {
  return classifyAnswer({
    apiPath: apiPathOf(request.path),
    status: response.status,
    headers: response.headers,
    bodyText: response.bodyText,
    json: response.json,
  });
}
