import { Agent, request } from 'undici';
import { HarnessError } from '../errors.js';
import { decodeBody } from './decode-body.js';
import type { Exchange, ParsedBody } from './exchange.js';
import type { CredentialVariant } from './credentials.js';
import { authorizationHeader, curlCredentials, shellQuoted } from './credentials.js';
import { createRedactor, REDACTED } from './redact.js';
import { classifyTransportError } from './transport-errors.js';

export interface HttpClientOptions {
  baseUrl: string;
  token: string;
  password: string;
  timeoutMs: number;
  maxBodyBytes: number;
  maxRequests: number;
  userAgent: string;
}

export interface GetOptions {
  path: string;
  query?: Record<string, string>;
  credentials: CredentialVariant;
}

const REPORTED_BODY_CHARS = 4000;
/** Enough connections for the whole prefetch at once, so a far-away target costs three round trips, not a queue. */
const CONNECTIONS = 16;
const ALLOWED_METHODS = new Set(['GET', 'HEAD']);

/** The only way the suite talks to a target: GET, bounded in time, size and count, secrets kept out of records. */
export class HttpClient {
  private readonly agent: Agent;
  private readonly redact: (text: string) => string;
  private sent = 0;

  constructor(private readonly options: HttpClientOptions) {
    this.agent = new Agent({
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: CONNECTIONS,
    });
    this.redact = createRedactor(options.token);
  }

  get requestsSent(): number {
    return this.sent;
  }

  urlFor(path: string, query: Record<string, string> = {}): URL {
    const base = new URL(this.options.baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    const url = new URL(`${prefix}${path}`, base.origin);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  async get(options: GetOptions): Promise<Exchange> {
    return this.send('GET', options);
  }

  async send(method: string, options: GetOptions): Promise<Exchange> {
    if (!ALLOWED_METHODS.has(method)) {
      throw new HarnessError(
        'HARNESS_METHOD_REFUSED',
        `${method} ${options.path} was refused before sending: the suite is read-only`,
        'Only GET and HEAD requests may be made; change the scenario',
      );
    }
    if (this.sent >= this.options.maxRequests) {
      throw new HarnessError(
        'HARNESS_REQUEST_BUDGET',
        `the request budget of ${this.options.maxRequests} was spent before ${options.path}`,
        'Raise the request budget or make fewer requests',
      );
    }
    this.sent += 1;
    const url = this.urlFor(options.path, options.query);
    const authorization = authorizationHeader(options.credentials, this.options.token, this.options.password);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': this.options.userAgent,
    };
    if (authorization !== undefined) headers.authorization = authorization;

    const recordedRequest = {
      method: 'GET' as const,
      url: url.toString(),
      path: `${url.pathname}${url.search}`,
      credentials: options.credentials,
      headers: { ...headers, ...(authorization === undefined ? {} : { authorization: redactedScheme(authorization) }) },
      curl: ['curl', '-sS', curlCredentials(options.credentials, this.options.password), shellQuoted(url.toString())]
        .filter(Boolean)
        .join(' '),
    };

    const started = performance.now();
    try {
      const response = await request(url, {
        method: 'GET',
        headers,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const raw = await readCapped(response.body, this.options.maxBodyBytes, recordedRequest.path);
      const responseHeaders = flattenHeaders(response.headers);
      const text = decodeBody(raw, responseHeaders['content-encoding'], this.options.maxBodyBytes, recordedRequest.path);
      const bodyText = this.redact(text);
      return {
        request: recordedRequest,
        response: {
          status: response.statusCode,
          headers: mapValues(responseHeaders, this.redact),
          bodyText: bodyText.slice(0, REPORTED_BODY_CHARS),
          bodyTruncated: bodyText.length > REPORTED_BODY_CHARS,
          bytes: raw.byteLength,
          json: parseJson(bodyText),
          durationMs: Math.round(performance.now() - started),
        },
      };
    } catch (error) {
      if (error instanceof HarnessError) throw error;
      throw classifyTransportError(error, recordedRequest.path, this.options.timeoutMs);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function redactedScheme(authorization: string): string {
  const scheme = authorization.split(' ')[0] ?? '';
  return `${scheme} ${REDACTED}`;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function mapValues(record: Record<string, string>, map: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

function parseJson(text: string): ParsedBody {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number, path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      throw new HarnessError(
        'HARNESS_BODY_TOO_LARGE',
        `the response to ${path} is larger than ${maxBytes} bytes`,
        'The target sent more than a ticket status can need; check what it serves at that path',
        'target',
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
