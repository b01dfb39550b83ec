import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on loopback that makes a target look one round trip away: every chunk waits half the round-trip time
 * in each direction, and a connection carries nothing before its handshake's round trip is over. As over a real
 * network, what the client does between opening a connection and writing to it happens while the handshake is under way.
 */
export interface DelayProxy {
  url: string;
  /** Requests seen, and the network span of the traffic since the last reset, in round trips. */
  stats(): { connections: number; requests: number; spanMs: number; roundTrips: number };
  reset(): void;
  close(): Promise<void>;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** Delivers writes in order, none before its time. */
function delayedWriter(rttMs: number, deliver: (chunk: Buffer | null) => void): (chunk: Buffer | null, extraMs: number) => void {
  let notBefore = 0;
  return (chunk, extraMs) => {
    const at = Math.max(performance.now() + rttMs / 2 + extraMs, notBefore);
    notBefore = at;
    if (rttMs === 0) deliver(chunk);
    else setTimeout(() => deliver(chunk), at - performance.now());
  };
}

export async function startDelayProxy(upstream: URL, rttMs: number): Promise<DelayProxy> {
  let connections = 0;
  let requests = 0;
  let firstAt: number | undefined;
  let lastAt = 0;
  const sockets = new Set<Socket>();

  const server: Server = createServer((client) => {
    connections += 1;
    firstAt ??= performance.now();
    const target = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(target);
    const toTarget = delayedWriter(rttMs, (chunk) => (chunk ? target.write(chunk) : target.end()));
    const toClient = delayedWriter(rttMs, (chunk) => {
      // Only answers count: closing a kept-alive connection after the run is not on its path.
      if (chunk) {
        lastAt = performance.now();
        client.write(chunk);
      } else client.end();
    });
    // On loopback the client connects at once; over a network, its first bytes could leave only once the handshake's
    // round trip is over.
    const handshakeOverAt = performance.now() + rttMs;
    let tail = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      // A GET has no body: each end of a header block is one request.
      const scan = Buffer.concat([tail, chunk]);
      for (let at = scan.indexOf(HEADER_END); at !== -1; at = scan.indexOf(HEADER_END, at + HEADER_END.length)) requests += 1;
      tail = scan.subarray(Math.max(0, scan.length - (HEADER_END.length - 1)));
      toTarget(chunk, Math.max(0, handshakeOverAt - performance.now()));
    });
    client.on('end', () => toTarget(null, 0));
    target.on('data', (chunk: Buffer) => toClient(chunk, 0));
    target.on('end', () => toClient(null, 0));
    const drop = (): void => {
      client.destroy();
      target.destroy();
      sockets.delete(client);
      sockets.delete(target);
    };
    client.on('error', drop).on('close', () => setTimeout(drop, rttMs).unref());
    target.on('error', drop).on('close', () => setTimeout(drop, rttMs).unref());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    stats: () => {
      const spanMs = firstAt === undefined ? 0 : lastAt - firstAt;
      return { connections, requests, spanMs, roundTrips: rttMs > 0 ? spanMs / rttMs : 0 };
    },
    reset: () => {
      connections = 0;
      requests = 0;
      firstAt = undefined;
      lastAt = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
