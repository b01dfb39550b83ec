import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { statuses } from '../../src/reference-server/data.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference-server/server.js';
import { forward, serveHttp, serveSockets, type HttpHandler, type LoopbackServer, type TlsIdentity } from './loopback-server.js';

/** A misbehaving target: the address to test, and every server behind it. */
export interface HostileTarget {
  url: string;
  /** The server the suite talks to. */
  front: LoopbackServer;
  /** Every loopback server started, for the leftover-socket check. */
  servers: LoopbackServer[];
  /** Another origin that redirects point at; it must never be reached. */
  elsewhere?: LoopbackServer;
  close(): Promise<void>;
}

const MB = 1024 * 1024;
/** A credential that is not the suite's token, for targets that echo what they hold. */
export const FOREIGN_CREDENTIAL = 'foreign-credential-7Hq2xZ';
const ENVELOPE = JSON.stringify({ status: 'success', message: null, data: statuses[0] });

function answer(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
  response.end(body);
}

/** Writes size bytes in chunks, as fast as the client reads, until done or the client leaves. */
function stream(response: ServerResponse, size: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  const more = (): void => {
    while (written < size && !response.destroyed) {
      written += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    response.end();
  };
  response.writeHead(200, { 'content-type': 'application/json' });
  more();
}

let bomb: Buffer | undefined;
/** 100 MB of spaces, about 100 kB on the wire. */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(100 * MB, 0x20), { level: 9 });
  return bomb;
}

function invalidUtf8Envelope(): Buffer {
  const [before, after] = ENVELOPE.split('Open');
  return Buffer.concat([Buffer.from(before ?? ''), Buffer.from([0x4f, 0xc3, 0x28, 0xff, 0xfe]), Buffer.from(after ?? '')]);
}

function nestedEnvelope(depth: number): string {
  return `{"status":"success","message":null,"data":{"id":1,"name":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

/** Passes every request on to a reference server, unless intercept answered it first. */
function forwarding(
  reference: RunningReferenceServer,
  intercept?: (request: IncomingMessage, response: ServerResponse) => boolean,
): HttpHandler {
  const upstream = new URL(reference.url);
  return (request, response) => {
    if (intercept?.(request, response)) return;
    forward(request, response, upstream);
  };
}

async function single(front: LoopbackServer, extra: { close(): Promise<void> }[] = []): Promise<HostileTarget> {
  return {
    url: front.url,
    front,
    servers: [front],
    close: async () => {
      await Promise.all([front.close(), ...extra.map((server) => server.close())]);
    },
  };
}

async function inFrontOfReference(token: string, intercept?: Parameters<typeof forwarding>[1], latencyMs?: number): Promise<HostileTarget> {
  const reference = await startReferenceServer({ token, latencyMs });
  return single(await serveHttp(forwarding(reference, intercept)), [reference]);
}

type Factory = (token: string) => Promise<HostileTarget>;

const catalog = {
  'accepts-never-answers': async () => single(await serveHttp(() => undefined)),
  'tls-never-handshakes': async () => single(await serveSockets((socket) => socket.resume(), { scheme: 'https' })),
  'headers-then-stall': async () =>
    single(
      await serveHttp((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.flushHeaders();
      }),
    ),
  'slow-drip': async () =>
    single(
      await serveHttp((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ENVELOPE.length) });
        // The first byte at once, so that some of the body has certainly arrived when the time-out comes.
        response.write(ENVELOPE[0]);
        let sent = 1;
        const drip = setInterval(() => {
          if (response.destroyed || sent >= ENVELOPE.length) return void clearInterval(drip);
          response.write(ENVELOPE[sent]);
          sent += 1;
        }, 1000);
        response.on('close', () => clearInterval(drip));
      }),
    ),
  'body-50mb': async () => single(await serveHttp((_request, response) => stream(response, 50 * MB))),
  'gzip-bomb': async () =>
    single(await serveHttp((_request, response) => answer(response, 200, gzipBomb(), { 'content-encoding': 'gzip' }))),
  'not-json': async () => single(await serveHttp((_request, response) => answer(response, 200, 'Service is up. All good.'))),
  'invalid-utf8': async () => single(await serveHttp((_request, response) => answer(response, 200, invalidUtf8Envelope()))),
  'nested-100000': async () => single(await serveHttp((_request, response) => answer(response, 200, nestedEnvelope(100_000)))),
  'headers-10000': async () =>
    single(
      await serveHttp((_request, response) => {
        for (let index = 0; index < 10_000; index += 1) response.setHeader(`x-flood-${index}`, 'hostile');
        answer(response, 200, ENVELOPE);
      }),
    ),
  // Within the parser's bytes, past the count and the name length the suite reads of an answer.
  'headers-300': async () =>
    single(
      await serveHttp((_request, response) => {
        for (let index = 0; index < 300; index += 1) response.setHeader(`x-${index}`, 'h');
        answer(response, 200, ENVELOPE);
      }),
    ),
  'header-name-1000': async () =>
    single(await serveHttp((_request, response) => answer(response, 200, ENVELOPE, { [`x-${'n'.repeat(1000)}`]: 'h' }))),
  'header-1mb': async () => single(await serveHttp((_request, response) => answer(response, 200, ENVELOPE, { 'x-huge': 'h'.repeat(MB) }))),
  'redirect-elsewhere': async () => {
    const elsewhere = await serveHttp((_request, response) => answer(response, 200, ENVELOPE));
    const front = await serveHttp((request, response) => {
      response.writeHead(302, { location: `${elsewhere.url}${request.url ?? '/'}` });
      response.end();
    });
    return { ...(await single(front, [elsewhere])), servers: [front, elsewhere], elsewhere };
  },
  'redirect-loop': async () =>
    single(
      await serveHttp((request, response) => {
        response.writeHead(302, { location: request.url ?? '/' });
        response.end();
      }),
    ),
  /** Every answer framed twice over: Content-Length and Transfer-Encoding: chunked, which HTTP clients must refuse. */
  'length-and-chunked': async () =>
    single(
      await serveSockets((socket) =>
        socket.on('data', () =>
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${ENVELOPE.length}\r\nTransfer-Encoding: chunked\r\n\r\n` +
              `${ENVELOPE.length.toString(16)}\r\n${ENVELOPE}\r\n0\r\n\r\n`,
          ),
        ),
      ),
    ),
  /** A chunked answer whose chunk size is not hexadecimal. */
  'broken-chunk': async () =>
    single(
      await serveSockets((socket) =>
        socket.on('data', () =>
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n${ENVELOPE}\r\n0\r\n\r\n`,
          ),
        ),
      ),
    ),
  'error-500': async () =>
    single(await serveHttp((_request, response) => answer(response, 500, '{"status":"error","message":"Internal Server Error"}'))),
  'closes-mid-body': async () =>
    single(
      await serveHttp((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ENVELOPE.length) });
        response.write(ENVELOPE.slice(0, 40), () => response.socket?.destroy());
      }),
    ),
  /** Answers like the reference server, except that any request with lang never gets an answer. */
  'lang-stalls': (token) => inFrontOfReference(token, (request) => new URL(request.url ?? '/', 'http://x').searchParams.has('lang')),
  /** HTTP 429 with Retry-After: 1 on the first request for each path, then the reference server's answer. */
  'rate-limited-once': (token) => {
    const refused = new Set<string>();
    return inFrontOfReference(token, (request, response) => {
      if (refused.has(request.url ?? '')) return false;
      refused.add(request.url ?? '');
      answer(response, 429, '{"status":"error","message":"Too many requests"}', { 'retry-after': '1' });
      return true;
    });
  },
  'rate-limited-always': async () =>
    single(await serveHttp((_request, response) => answer(response, 429, '{"status":"error"}', { 'retry-after': '1' }))),
  /** Conformant, but echoes credentials back: the token it was sent, and someone else's, in headers and a body. */
  'echoes-credentials': (token) =>
    inFrontOfReference(token, (request, response) => {
      response.setHeader('x-seen-authorization', request.headers.authorization ?? '');
      response.setHeader('x-upstream-authorization', `Bearer ${FOREIGN_CREDENTIAL}`);
      const credentials = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      if (!request.url?.endsWith('/api/selfservice/type') || !credentials.startsWith(`${token}:`)) return false;
      const debug = {
        received: `Authorization: ${request.headers.authorization}`,
        upstream: `Authorization: Bearer ${FOREIGN_CREDENTIAL}`,
      };
      answer(response, 200, JSON.stringify({ status: 'success', message: null, data: [], debug }));
      return true;
    }),
  /** The reference server, each answer 150 ms late, so concurrent requests overlap. */
  'slow-reference': (token) => inFrontOfReference(token, undefined, 150),
} satisfies Record<string, Factory>;

export type HostileTargetName = keyof typeof catalog;
/** Every kind of bad target the suite must survive, by name; each takes the token its reference server accepts. */
export const hostileTargets: Record<HostileTargetName, Factory> = catalog;

/** The reference server behind a TLS front with the given certificate. */
export async function selfSignedReference(token: string, identity: TlsIdentity): Promise<HostileTarget> {
  const reference = await startReferenceServer({ token });
  const upstream = new URL(reference.url);
  const front = await serveSockets(
    (socket) => {
      const inner = connect(Number(upstream.port), upstream.hostname);
      inner.on('error', () => socket.destroy());
      socket.on('error', () => inner.destroy());
      socket.pipe(inner).pipe(socket);
    },
    { tls: identity },
  );
  return single(front, [reference]);
}
