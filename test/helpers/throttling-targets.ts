import { startReferenceServer } from '../../src/reference-server/server.js';
import { forward, serveHttp, type LoopbackServer } from './loopback-server.js';

/**
 * The reference server behind a rate limit, which refuses in the shape of a real one (nginx's limit_req, an API
 * gateway, a CDN, an application's own throttle).
 *
 * The limit counts requests, not time, so no machine is too slow or too fast for it: a request that arrives while
 * another is still being answered, or less than SPACING_MS after the last one let through, is refused, and each answer
 * takes HOLD_MS. A client that bursts (the suite's first round, and its retries after a pause, all go out together)
 * meets the limit whatever the machine's speed, since a burst would have to arrive spread over many spacings to pass;
 * one that keeps to --rate-limit, which sends one request at a time, never does, since it sends the next only once the
 * last is answered, a whole hold (longer than the spacing) after that one arrived.
 */
const HOLD_MS = 250;
const SPACING_MS = 150;
export const RATE_WITHIN_THE_LIMIT = '5/s';

export interface ThrottledTarget {
  url: string;
  servers: LoopbackServer[];
  /** Requests the rate limit refused. */
  refused(): number;
  close(): Promise<void>;
}

/** A rate limit's answer: its code, body and headers (made when sent, for a date that must lie ahead). */
export interface Refusal {
  status: number;
  body: string;
  headers(): Record<string, string>;
}

const NGINX_503_PAGE =
  '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

const CLOUDFLARE_1015_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Access denied | help.example.com used Cloudflare to restrict access</title></head>\n<body><div id="cf-wrapper"><div id="cf-error-details"><h1>Error 1015</h1><h2>You are being rate limited</h2><p>The owner of this website (help.example.com) has banned you temporarily from accessing this website.</p><span>Cloudflare Ray ID: 8f1c2a3b4d5e6f70</span></div></div></body></html>';

const HAPROXY_429_PAGE =
  '<html><body><h1>429 Too Many Requests</h1>\nYou have sent too many requests in a given amount of time.\n</body></html>\n';

/** The shapes a rate limit answers in, each refusing as its vendor does. */
export const REFUSALS = {
  /** nginx's limit_req with its default status: its own 503 page, no Retry-After. */
  'nginx limit_req (503 page)': {
    status: 503,
    body: NGINX_503_PAGE,
    headers: () => ({ 'content-type': 'text/html', server: 'nginx/1.22.1' }),
  },
  /** An application's own throttle (Laravel's): HTTP 429 with Retry-After in seconds. */
  'an application throttle (429, Retry-After in seconds)': {
    status: 429,
    body: JSON.stringify({ message: 'Too Many Attempts.' }),
    headers: () => ({ 'content-type': 'application/json', 'retry-after': '1', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' }),
  },
  /** HAProxy's deny_status 429 page, with Retry-After as an HTTP date a second ahead. */
  'HAProxy (429, Retry-After as an HTTP date)': {
    status: 429,
    body: HAPROXY_429_PAGE,
    headers: () => ({ 'content-type': 'text/html', 'retry-after': new Date(Date.now() + 1000).toUTCString() }),
  },
  /** Kong's rate-limiting plugin: its JSON, its headers, no Retry-After. */
  'Kong (429 JSON, no Retry-After)': {
    status: 429,
    body: JSON.stringify({ message: 'API rate limit exceeded' }),
    headers: () => ({
      'content-type': 'application/json; charset=utf-8',
      'x-kong-response-latency': '0',
      'x-ratelimit-limit-second': '3',
      'x-ratelimit-remaining-second': '0',
      server: 'kong/3.4.2',
    }),
  },
  /** AWS API Gateway's throttling: its JSON and error type, no Retry-After. */
  'AWS API Gateway (429 JSON, no Retry-After)': {
    status: 429,
    body: JSON.stringify({ message: 'Too Many Requests' }),
    headers: () => ({
      'content-type': 'application/json',
      'x-amzn-errortype': 'TooManyRequestsException',
      'x-amzn-requestid': '5f1a6b7c-0d2e-4f3a-9b8c-7d6e5f4a3b2c',
    }),
  },
  /** Cloudflare's rate limiting rule: its error 1015 page. */
  'Cloudflare (429, error 1015)': {
    status: 429,
    body: CLOUDFLARE_1015_PAGE,
    headers: () => ({ 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '8f1c2a3b4d5e6f70-FRA' }),
  },
  /** A throttle that asks for an hour's pause, past any run's deadline. */
  'a throttle asking for an hour (429, Retry-After: 3600)': {
    status: 429,
    body: JSON.stringify({ message: 'Too Many Requests' }),
    headers: () => ({ 'content-type': 'application/json', 'retry-after': '3600' }),
  },
} satisfies Record<string, Refusal>;

export type RefusalName = keyof typeof REFUSALS;

/** The reference server (with these faults, if any) behind a rate limit that refuses as `refusal` does. */
export async function throttledReference(token: string, refusal: RefusalName, variants: string[] = []): Promise<ThrottledTarget> {
  const reference = await startReferenceServer({ token, variants });
  const upstream = new URL(reference.url);
  let answering = 0;
  let refused = 0;
  let lastLetThrough = Number.NEGATIVE_INFINITY;
  const front = await serveHttp((request, response) => {
    const now = performance.now();
    if (answering === 0 && now - lastLetThrough >= SPACING_MS) {
      answering += 1;
      lastLetThrough = now;
      let done = false;
      const answered = (): void => {
        if (!done) answering -= 1;
        done = true;
      };
      response.once('finish', answered).once('close', answered);
      setTimeout(() => forward(request, response, upstream), HOLD_MS);
      return;
    }
    refused += 1;
    const { status, body, headers } = REFUSALS[refusal];
    response.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers() });
    response.end(body);
  });
  return {
    url: front.url,
    servers: [front],
    refused: () => refused,
    close: async () => {
      await Promise.all([front.close(), reference.close()]);
    },
  };
}
