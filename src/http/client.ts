import { isAscii } from 'node:buffer';
import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import { SETTINGS, type Config } from '../config/settings.js';
import { ConfigError, HarnessError } from '../errors.js';
import { bodyText, parseJson, withoutPhpSource } from '../exchange/body-text.js';
import { headersBeyondBounds } from '../exchange/header-bounds.js';
import { BodyBudget, JsonValueBudget } from './body-budget.js';
import { ACCEPTED_ENCODINGS, decodeBody } from './decode-body.js';
import { connectionHost, createDispatcher, type TransportOptions } from './dispatcher.js';
import type { SharedConnections, SharedHost } from './shared-connections.js';
import {
  REPORTED_BODY_CHARS,
  urlAt,
  type Exchange,
  type ParsedBody,
  type RecordedRequest,
  type TrafficCounts,
} from '../exchange/exchange.js';
import type { CredentialVariant } from '../exchange/credentials.js';
import type { Pacer } from './rate-limit.js';
import { authorizationHeader, clientHeaders, curlUpToUrl, shellQuote } from '../exchange/credentials.js';
import { Limiter } from './limiter.js';
import { askedWaitMs, RetryAfterPause, WAIT_CAP_WITHOUT_DEADLINE_MS, waitBeyondCap, waitCapName } from './rate-limit.js';
import { fetchAnswer, type Answer } from './answer.js';
import { isCredentialName, redactedCredential, redactedScheme } from '../exchange/credential-fields.js';
import { clientKeySecrets, createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { newRunId, traceparent } from '../exchange/trace-context.js';
import { classifyTransportError, failsEveryRequest, isSocketClosed } from './transport-errors.js';

/** What the client takes: the target, its credentials and every bound; the fields that are settings are typed by the table. */
export interface HttpClientOptions
  extends
    Required<Pick<Config, 'baseUrl' | 'token'>>,
    Pick<Config, 'password' | 'maxRequests'>,
    Omit<TransportOptions, 'concurrency' | 'onTlsCertificate' | 'onTlsError' | 'onConnected' | 'keepIdleMs'>,
    Partial<Pick<TransportOptions, 'concurrency'>> {
  maxBodyBytes: number;
  userAgent: string;
  /** Epoch milliseconds; past it nothing is sent and what is in flight is abandoned. */
  deadlineAt?: number;
  /** Trace id of the run, sent in every request's traceparent header; a client given none makes its own. */
  runId?: string;
  /** The pace --rate-limit sets for the target, shared by every pass over it. */
  pacer?: Pacer;
  /** The token's scanner, when the caller already built one (the same serves every artifact of the target). */
  scanner?: SecretScanner;
  /** Aborted on Ctrl-C or SIGTERM, with the signal's name: the run stops sending as at the deadline. */
  interruption?: AbortSignal;
  /** Connections shared with the other targets of the command (a matrix's), left open for them when this client closes. */
  connections?: SharedConnections;
}

export interface GetOptions {
  path: string;
  query?: Record<string, string>;
  credentials: CredentialVariant;
  /** How the recording names the exchange (see exchangeKey), set on it. */
  key?: string;
}

/** A path and query of the API at the target: its URL, the path and query undici sends, the URL quoted for a shell. */
interface RequestUrl {
  href: string;
  path: string;
  quoted: string;
}

/** What every request with one credential variant sends and records, but its traceparent. */
interface VariantRequest {
  /** The headers in the order they go, the traceparent's value left to fill in. */
  headers: Record<string, string>;
  /** The same as recorded: the Authorization by its scheme alone. */
  recordedHeaders: Record<string, string>;
  /** The curl command up to the URL. */
  curl: string;
}

/** One request on its way, as every attempt at it sends and records it. */
interface Sending {
  path: string;
  headers: Record<string, string>;
  recorded: RecordedRequest;
  key: string | undefined;
}

/** Connections a pool may hold idle that a server closed all at once: each resend may meet one more of them. */
const RESENDS_ON_CLOSED_CONNECTION = 2;

/**
 * The start of a body, as a string of its own. V8 makes a slice of a long string point into it, so the excerpt kept
 * for the reports would hold the whole body alive (a matrix holds every answer of its targets until their reports).
 */
function excerpt(text: string): string {
  return text.length <= REPORTED_BODY_CHARS ? text : Buffer.from(text.slice(0, REPORTED_BODY_CHARS), 'utf16le').toString('utf16le');
}

// Every check reads a body, so GET is the only method the suite has any use for.
const ALLOWED_METHODS = new Set(['GET']);

/** The only way the suite talks to a target: GET, bounded in time, size, count and concurrency, secrets kept out of records. */
export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private readonly scanner: SecretScanner;
  /**
   * The certificates the target presented and the TLS alert a connection ended with: its own, or those of its host's
   * connections when they are shared.
   */
  private readonly host: SharedHost;
  private readonly reachedHost = (): void => this.originReached();
  private readonly limiter: Limiter;
  private readonly pause: RetryAfterPause;
  /** Epoch milliseconds no wait of the client may reach: the deadline, or a cap of its own without one. */
  private readonly waitUntil: number;
  private readonly bodyBudget: BodyBudget;
  private readonly jsonValues = new JsonValueBudget();
  private readonly deadline?: AbortSignal;
  /** What the deadline signal follows: the deadline's timer and the interruption, held here, since AbortSignal.any holds them weakly. */
  private readonly stops: AbortSignal[];
  private readonly runId: string;
  /** The base URL, parsed once: every request's URL is made from it. */
  private readonly base: URL;
  /** Its origin, every request's (see urlFor). */
  private readonly origin: string;
  private readonly urls = new Map<string, RequestUrl>();
  private readonly variants = new Map<CredentialVariant, VariantRequest>();
  /** The requests in flight's failures, told the deadline's reason as it passes (see sendCounted). */
  private readonly inFlight = new Set<(reason: unknown) => void>();
  private readonly onDeadline = (): void => {
    if (this.inFlight.size > 0) this.abandoned = true;
    for (const reject of this.inFlight) reject(this.deadline?.reason);
  };
  private sent = 0;
  /** Set when a request was left pending at the deadline, so closing does not wait for it. */
  private abandoned = false;
  /** Set once the origin itself failed (name, port, certificate), so later requests are not sent to meet the same fate. */
  private originFailure?: HarnessError;
  /** Set once a connection to the origin was made or it answered: from then on a failure is one request's fate. */
  private reached = false;
  /** Set once the origin sent the headers of an answer. */
  private answered = false;
  private readonly concurrency: number;

  constructor(private readonly options: HttpClientOptions) {
    this.concurrency = options.concurrency ?? SETTINGS.concurrency.default;
    // The first request goes alone until a connection to the origin is made (or, through a proxy, until it settles):
    // where nothing listens, one request finds it out, and the rest are not sent to meet the same fate.
    this.limiter = new Limiter(1);
    const { connections } = options;
    if (connections) {
      const base = new URL(options.baseUrl);
      this.host = connections.host(connectionHost(base.protocol, base.hostname, base.port));
      this.dispatcher = connections.dispatcher({ ...options, concurrency: this.concurrency });
      // A host an earlier target reached is reached: its connections may all be open already, and none is made anew.
      if (this.host.reached) this.originReached();
      else this.host.onReached.add(this.reachedHost);
    } else {
      const host: SharedHost = { certificates: new Set(), reached: false, onReached: new Set() };
      this.host = host;
      this.dispatcher = createDispatcher({
        ...options,
        concurrency: this.concurrency,
        onTlsCertificate: (fingerprint) => host.certificates.add(fingerprint),
        // The first alert: undici reports it as the other side closing.
        onTlsError: (error) => (host.error ??= error),
        onConnected: () => this.originReached(),
      });
    }
    this.bodyBudget = new BodyBudget(options.maxBodyBytes);
    this.scanner = options.scanner ?? createSecretScanner([options.token], [options.password], clientKeySecrets(options));
    this.runId = options.runId ?? newRunId();
    this.waitUntil = options.deadlineAt ?? Date.now() + WAIT_CAP_WITHOUT_DEADLINE_MS;
    this.pause = new RetryAfterPause(this.waitUntil);
    this.stops = [
      ...(options.deadlineAt === undefined ? [] : [AbortSignal.timeout(Math.max(0, options.deadlineAt - Date.now()))]),
      ...(options.interruption ? [options.interruption] : []),
    ];
    const [only, ...more] = this.stops;
    this.deadline = only && more.length === 0 ? only : only ? AbortSignal.any(this.stops) : undefined;
    // Every request of the plan listens to it while it waits and queues, whatever the budget lets through, and lets
    // go when done: many listeners are expected, not a leak, and Node's warning about them would alarm a user.
    if (this.deadline) {
      setMaxListeners(0, this.deadline);
      this.deadline.addEventListener('abort', this.onDeadline, { once: true });
    }
    this.base = new URL(options.baseUrl);
    this.origin = this.base.origin;
  }

  get traffic(): TrafficCounts {
    return { sent: this.sent, rateLimited: this.pause.rateLimitedAnswers, waitedMs: this.pause.waitedMs };
  }

  /** SHA-256 fingerprints of the TLS certificates the target presented on the connections already made. */
  get tlsCertificates(): string[] {
    return [...this.host.certificates];
  }

  urlFor(path: string, query: Record<string, string> = {}): URL {
    const { base } = this;
    const url = urlAt(base, path);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    if (url.origin !== base.origin) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `GET ${path} would leave the origin ${base.origin}, so it was not sent`,
        'Pass a base URL whose path does not start with // (scheme, host and an optional path prefix)',
      );
    }
    return url;
  }

  get(options: GetOptions): Promise<Exchange> {
    return this.send('GET', options);
  }

  async send(method: string, options: GetOptions): Promise<Exchange> {
    if (!ALLOWED_METHODS.has(method)) {
      throw new HarnessError(
        'HARNESS_METHOD_REFUSED',
        `${method} ${options.path} was refused before sending: the suite is read-only`,
        'Only GET requests may be made; change the scenario',
      );
    }
    const at = this.requestUrl(options.path, options.query);
    const variant = this.variantRequest(options.credentials);
    // Copies of objects of the same keys, a value replaced: far cheaper than a copy given a key more.
    const span = traceparent(this.runId);
    const headers = { ...variant.headers };
    headers.traceparent = span;
    const recordedHeaders = { ...variant.recordedHeaders };
    recordedHeaders.traceparent = span;
    const recorded: RecordedRequest = {
      method: 'GET',
      url: at.href,
      path: at.path,
      credentials: options.credentials,
      headers: recordedHeaders,
      curl: `${variant.curl} ${at.quoted}`,
    };
    const sending: Sending = { path: at.path, headers, recorded, key: options.key };

    for (let retries = 0; ; retries += 1) {
      const exchange = await this.attemptReconnecting(sending);
      const { status, headers: answered } = exchange.response;
      const retryAfter = answered['retry-after'];
      const askedMs = askedWaitMs(status, retryAfter);
      if (askedMs === undefined || (status === 503 && this.pause.keepsUnavailable(retries))) return exchange;
      const decision = this.pause.onAskedToWait(askedMs, retries, this.sent < this.options.maxRequests);
      // A 503 kept is a maintenance window or an overload the classification names; a 429 past the cap is the cap's.
      if (decision === 'keep-answer' || (decision === 'beyond-cap' && status !== 429)) return exchange;
      if (decision === 'beyond-cap') throw waitBeyondCap(recorded.path, status, retryAfter, this.waitCap, this.waitUntil - Date.now());
    }
  }

  /** Where a path and query of the API are at the target, made once per client: a target is asked each path several times. */
  private requestUrl(path: string, query: Record<string, string> = {}): RequestUrl {
    const key = Object.keys(query).length > 0 ? `${path}?${new URLSearchParams(query).toString()}` : path;
    let found = this.urls.get(key);
    if (!found) {
      const url = this.urlFor(path, query);
      const href = url.toString();
      found = { href, path: `${url.pathname}${url.search}`, quoted: shellQuote(href) };
      this.urls.set(key, found);
    }
    return found;
  }

  /** What every request with these credentials sends and records, but its traceparent: made once per client. */
  private variantRequest(credentials: CredentialVariant): VariantRequest {
    let found = this.variants.get(credentials);
    if (!found) {
      const { token, password, userAgent } = this.options;
      const authorization = authorizationHeader(credentials, token, password);
      const headers = {
        // A named client's request goes as that client sends it; the traceparent still joins it to the run.
        ...(clientHeaders(credentials) ?? { accept: 'application/json', 'accept-encoding': ACCEPTED_ENCODINGS, 'user-agent': userAgent }),
        traceparent: '',
      };
      found = {
        headers: authorization === undefined ? headers : { ...headers, authorization },
        recordedHeaders: authorization === undefined ? headers : { ...headers, authorization: redactedScheme(authorization) },
        curl: curlUpToUrl(credentials, password),
      };
      this.variants.set(credentials, found);
    }
    return found;
  }

  private get waitCap(): string {
    return waitCapName(this.options.deadlineAt !== undefined);
  }

  /**
   * One attempt, sent again on a new connection when the one it went out on was closed under it: a server closes a
   * kept-alive connection it finds idle (Apache after KeepAliveTimeout, 5 s by default) while a request is on its way,
   * and browsers and curl send a GET again then. Each sending counts against the budget; a target that closes every
   * connection still fails with HARNESS_CONNECTION_RESET.
   */
  private async attemptReconnecting(sending: Sending): Promise<Exchange> {
    let closedUnder: HarnessError | undefined;
    for (let resent = 0; ; resent += 1) {
      try {
        return await this.attempt(sending);
      } catch (error) {
        // A resend the budget has no room for leaves the closed connection as the cause, not the budget.
        if (closedUnder && error instanceof HarnessError && error.code === 'HARNESS_REQUEST_BUDGET') throw closedUnder;
        const closed = error instanceof HarnessError && error.code === 'HARNESS_CONNECTION_RESET';
        if (!closed || this.originFailure || resent >= RESENDS_ON_CLOSED_CONNECTION || this.deadline?.aborted) throw error;
        closedUnder = error;
      }
    }
  }

  /** One sending after any pause an answer asked for, within the concurrency and the pace; awaits only what makes it wait. */
  private async attempt(sending: Sending): Promise<Exchange> {
    try {
      const pausing = this.pause.wait(this.deadline);
      if (pausing) await pausing;
      const queued = this.limiter.acquire(this.deadline);
      if (queued) await queued;
      try {
        const { pacer } = this.options;
        return await (pacer
          ? pacer.inTurn(sending.path, this.waitUntil, this.waitCap, () => this.sendCounted(sending), this.deadline)
          : this.sendCounted(sending));
      } finally {
        this.limiter.release();
      }
    } catch (error) {
      throw this.explain(error, sending.path);
    }
  }

  /**
   * Counts the request against the budget and sends it. Whatever the transport does, nothing outlives the deadline: a
   * request still pending then (a proxy that never answers CONNECT ignores the abort signal) is abandoned here, and its
   * connection destroyed on close; the client's one listener on the deadline fails every request in flight (see
   * onDeadline). A failure is explained before the slot is freed, so a failed origin stops the next request from being sent.
   */
  private sendCounted(sending: Sending): Promise<Exchange> {
    const first = this.sent === 0;
    this.spend(sending.path);
    const { deadline } = this;
    if (!deadline) {
      return this.exchange(sending).catch((error: unknown) => {
        throw this.explain(error, sending.path, first);
      });
    }
    return new Promise<Exchange>((resolve, reject) => {
      const fail = (error: unknown): void => {
        this.inFlight.delete(fail);
        reject(this.explain(error, sending.path, first));
      };
      const running = this.exchange(sending);
      if (deadline.aborted) {
        running.catch(() => undefined);
        this.abandoned = true;
        fail(deadline.reason);
        return;
      }
      this.inFlight.add(fail);
      running.then((exchange) => {
        this.inFlight.delete(fail);
        resolve(exchange);
      }, fail);
    });
  }

  /** `first`: the run's first request, sent alone until the origin is reached. */
  private explain(error: unknown, path: string, first = false): HarnessError {
    if (this.options.interruption?.aborted) return interrupted(path, this.options.interruption.reason);
    if (this.deadline?.aborted) return this.deadlinePassed(path);
    if (error instanceof HarnessError) return error;
    const failure = this.host.error && isSocketClosed(error) ? this.host.error : error;
    const clientCertificate = this.options.cert !== undefined;
    const { code, message, hint, party } = classifyTransportError(failure, path, this.options.timeoutMs, clientCertificate);
    // A transport error may quote what the target sent (a certificate's names, a malformed header).
    const classified = new HarnessError(code, this.scanner.redact(message), hint, party);
    // Before any connection was made, a refused port, a name that does not resolve or a certificate refused is the
    // origin's; so is the first request's connection closed before any answer, which is no kept-alive connection
    // closed while idle but a port that accepts and hangs up. Once the origin was reached, a failure is one request's.
    const refused = !this.reached && failsEveryRequest(failure);
    const hungUp = first && !this.answered && isSocketClosed(failure);
    if (refused || hungUp) this.originFailure ??= classified;
    else this.originReached();
    return classified;
  }

  /** The origin listens (or, through a proxy, its first request settled without showing it does not): the rest may go. */
  private originReached(): void {
    this.reached = true;
    this.limiter.widen(this.concurrency);
  }

  /** Counts one request against the budget, or refuses it when the budget, the deadline or the origin says no. */
  private spend(path: string): void {
    if (this.originFailure) {
      const { code, message, hint, party } = this.originFailure;
      throw new HarnessError(code, `GET ${path} was not sent, since an earlier request failed: ${message}`, hint, party);
    }
    if (this.sent >= this.options.maxRequests) {
      throw new HarnessError(
        'HARNESS_REQUEST_BUDGET',
        `the request budget of ${this.options.maxRequests} was spent before GET ${path}`,
        this.pause.rateLimitedAnswers > 0
          ? 'Retries of answers that asked the suite to wait (HTTP 429, or 503 with Retry-After) used it up: slow the suite down with --rate-limit (e.g. 2/s), or raise --max-requests'
          : 'Raise --max-requests',
      );
    }
    this.sent += 1;
  }

  private async exchange({ path, headers, recorded, key }: Sending): Promise<Exchange> {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    // The origin and path undici would make of a URL, made once per path (see requestUrl), on an origin checked once.
    let responseHeaders: Record<string, string> = {};
    const response = await fetchAnswer(
      this.dispatcher,
      {
        origin: this.origin,
        path,
        headers,
        ...(this.deadline ? { signal: this.deadline } : {}),
        onHeaders: (answered) => {
          this.answered = true;
          this.originReached();
          responseHeaders = flattenHeaders(answered);
          const beyond = headersBeyondBounds(responseHeaders);
          if (beyond !== undefined) {
            throw new HarnessError(
              'HARNESS_HEADERS_TOO_LARGE',
              `the response headers for GET ${recorded.path} ${beyond}`,
              'The target sent far more header data than an API response needs',
              'target',
            );
          }
        },
      },
      { budget: this.bodyBudget, timeoutMs: this.options.timeoutMs },
    );
    const raw = response.body;
    const { body: decoded, undecodable } = decodeBody(raw, responseHeaders['content-encoding'], this.bodyBudget, recorded.path);
    const { text, unreadable } = bodyText(decoded);
    const bytesRedacted = this.redactBytes(decoded);
    const redacted = withoutPhpSource(this.scanner.redact(bytesRedacted === decoded ? text : bodyText(bytesRedacted).text));
    // Judged as sent (a token that is an ordinary word may be a field name or a status name); every text kept is redacted.
    const json: ParsedBody = undecodable
      ? { ok: false, error: undecodable, why: 'encoding' }
      : // Bytes that are not UTF-8 are read only for the envelope they may hold, and only as redacted: the token can
        // hide in them in another encoding, which the redacted text no longer holds.
        parseJson(unreadable ? { text: redacted, unreadable } : { text, unreadable }, this.jsonValues);
    const exchange: Exchange = {
      request: recorded,
      response: {
        status: response.statusCode,
        headers: this.recordedHeaders(response.headers, responseHeaders),
        bodyText: excerpt(redacted),
        bodyTruncated: redacted.length > REPORTED_BODY_CHARS,
        bytes: raw.byteLength,
        json: json.ok ? json : { ...json, error: this.scanner.redact(json.error) },
        startedAt,
        durationMs: Math.round(performance.now() - started),
      },
    };
    if (key !== undefined) exchange.key = key;
    return exchange;
  }

  /**
   * A body with the token removed where its bytes spell it in another encoding than UTF-8 (Latin-1, UTF-16), whatever
   * the body declares: read a byte a character, as the scanner's forms for those encodings are. An ASCII body reads
   * the same either way, and its UTF-8 text is redacted next.
   */
  private redactBytes(body: Buffer): Buffer {
    if (isAscii(body)) return body;
    const read = body.toString('latin1');
    const redacted = this.scanner.redact(read);
    return redacted === read ? body : Buffer.from(redacted, 'latin1');
  }

  /**
   * Whether the headers hold no secret and no credential's name, as most answers' do: each name and each value read on
   * its own, not the joined values (a value that ends in a backslash reads as one escape with the comma after it).
   */
  private holdNothing(headers: Record<string, string | string[] | undefined>): boolean {
    const { scanner } = this;
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      if (!scanner.holdsNothing(name)) return false;
      if (typeof value === 'string') {
        if (!scanner.holdsNothing(value)) return false;
      } else if (!value.every((item) => scanner.holdsNothing(item))) return false;
    }
    return true;
  }

  /**
   * Response headers as recorded, names in lower case: the secrets removed from names and values, and the value of a
   * header named as a credential (Set-Cookie, X-Api-Key, any *-Authorization) redacted by its name, each of a
   * repeated header on its own before they are joined (a cookie's Expires holds a comma). `flat` is the headers as
   * flattenHeaders joins them, kept as they are when nothing needs redacting.
   */
  private recordedHeaders(headers: Record<string, string | string[] | undefined>, flat: Record<string, string>): Record<string, string> {
    if (this.holdNothing(headers)) return flat;
    const recorded: Record<string, string> = {};
    for (const [rawName, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      const name = rawName.toLowerCase();
      const values = typeof value === 'string' ? [value] : value;
      const asItCame = this.scanner.holdsNothing(`${name}\n${values.join('\n')}`);
      const shownName = asItCame ? name : this.scanner.redact(name);
      const shownValues = asItCame
        ? values
        : values.map((item) => this.scanner.redact(isCredentialName(name) ? redactedCredential(name, item) : item));
      joinHeader(recorded, shownName, shownValues.join(', '));
    }
    return recorded;
  }

  private deadlinePassed(path: string): HarnessError {
    return new HarnessError(
      'HARNESS_DEADLINE',
      `the run deadline passed before GET ${path} was answered`,
      'The target answers too slowly for the whole run to fit: raise --deadline-ms, or find out why it is slow',
      'environment',
    );
  }

  async close(): Promise<void> {
    this.deadline?.removeEventListener('abort', this.onDeadline);
    // Shared connections stay open for the next target; their owner ends them.
    if (this.options.connections) {
      this.host.onReached.delete(this.reachedHost);
      return;
    }
    // close() would wait for an abandoned request; destroy() ends it and its sockets.
    if (this.abandoned) await this.dispatcher.destroy();
    else await this.dispatcher.close();
  }
}

/** A request the run's interruption stopped: the user's own doing, told with the signal that came. */
function interrupted(path: string, signal: unknown): HarnessError {
  return new HarnessError(
    'HARNESS_INTERRUPTED',
    `the run was interrupted (${String(signal)}) before GET ${path} was answered`,
    'Run it again and let it finish for a verdict',
    'environment',
  );
}

/** An answer's headers (names already in lower case, undici's parser's), the values of a repeated header joined by commas. */
function flattenHeaders(headers: Answer['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name] as string | string[];
    joinHeader(flat, name, Array.isArray(value) ? value.join(', ') : value);
  }
  return flat;
}

/**
 * Adds a header's value to a record of headers, after any value it already has there: as its own property, whatever its
 * name. A header named constructor or toString is not joined to what every object inherits, and one named __proto__ is
 * a header, not the record's prototype.
 */
function joinHeader(headers: Record<string, string>, name: string, value: string): void {
  const earlier = Object.hasOwn(headers, name) ? headers[name] : undefined;
  const joined = earlier === undefined ? value : `${earlier}, ${value}`;
  if (name === '__proto__') Object.defineProperty(headers, name, { value: joined, enumerable: true, configurable: true, writable: true });
  else headers[name] = joined;
}
