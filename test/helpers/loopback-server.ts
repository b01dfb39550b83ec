import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { SAFETY_NET_MS } from './safety-net.js';

export interface TlsIdentity {
  key: string;
  cert: string;
}

interface SeenRequest {
  method: string;
  url: string;
  authorization?: string;
}

/** A server on 127.0.0.1 that remembers what reached it and closes every connection when told to. */
export interface LoopbackServer {
  url: string;
  port: number;
  /** HTTP requests received (empty for raw TCP servers). */
  requests: SeenRequest[];
  /** Connections accepted so far. */
  connections: number;
  /** Most HTTP requests being answered at the same moment. */
  maxInFlight: number;
  openSockets(): number;
  close(): Promise<void>;
}

export type HttpHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** Passes one request on to an http origin, as a plain reverse proxy would, and its answer back. */
export function forward(request: IncomingMessage, response: ServerResponse, upstream: URL): void {
  const onward = httpRequest(
    { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  onward.on('error', () => response.destroy());
  request.pipe(onward);
}

async function listen(server: Server, scheme: 'http' | 'https', seen: Omit<LoopbackServer, 'url' | 'port' | 'openSockets' | 'close'>) {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    seen.connections += 1;
    sockets.add(socket);
    // A client that gives up mid-answer is expected here; the server carries on.
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP (or, given an identity, HTTPS) server answering with the handler. */
export async function serveHttp(handler: HttpHandler, tls?: TlsIdentity): Promise<LoopbackServer> {
  const state = { requests: [] as SeenRequest[], connections: 0, maxInFlight: 0 };
  let inFlight = 0;
  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    state.requests.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization });
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    response.on('close', () => (inFlight -= 1));
    handler(request, response);
  };
  const server: HttpServer = tls ? createHttpsServer(tls, onRequest) : createHttpServer(onRequest);
  const listening = await listen(server, tls ? 'https' : 'http', state);
  return Object.assign(state, listening);
}

/** A server that takes connections and hands each raw socket (TLS-wrapped, given an identity) to onSocket. */
export async function serveSockets(
  onSocket: (socket: Socket) => void,
  { tls, scheme = tls ? 'https' : 'http' }: { tls?: TlsIdentity; scheme?: 'http' | 'https' } = {},
): Promise<LoopbackServer> {
  const state = { requests: [] as SeenRequest[], connections: 0, maxInFlight: 0 };
  const server = tls ? createTlsServer(tls, onSocket) : createTcpServer(onSocket);
  const listening = await listen(server, scheme, state);
  return Object.assign(state, listening);
}

/** Waits, within a bound, until every connection to the servers is closed; returns how many stay open. */
export async function openSocketsAfter(servers: LoopbackServer[], withinMs = SAFETY_NET_MS): Promise<number> {
  const until = Date.now() + withinMs;
  const open = (): number => servers.reduce((sum, server) => sum + server.openSockets(), 0);
  while (open() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return open();
}
