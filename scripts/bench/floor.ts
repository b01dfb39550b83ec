import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { forward } from '../../test/helpers/loopback-server.js';
import { root } from './compile.js';

/** A request as the suite sent it: its path and query, and its headers (the token's forms among them). */
export interface SentRequest {
  path: string;
  headers: Record<string, string>;
}

const plainHeaders = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      // What undici sets itself for each request and connection.
      value === undefined || ['host', 'connection', 'content-length'].includes(name)
        ? []
        : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );

/**
 * The requests one target's run sends, seen on their way to the upstream server: `run` is given the address of a
 * forwarding server in front of it and runs the suite against that once.
 */
export async function captureRequests(upstream: string, run: (url: string) => Promise<void>): Promise<SentRequest[]> {
  const base = new URL(upstream);
  const sent: SentRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    sent.push({ path: incoming.url ?? '/', headers: plainHeaders(incoming.headers) });
    forward(incoming, outgoing, base);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return sent;
}

/**
 * The floor of a fleet: the same GETs for every target, sent by plain undici at the same number of targets at once,
 * every body read and parsed, nothing judged, nothing written. A target's requests that name a language go once its
 * others are answered, as the suite's need the locales of the first answer. Run as its own Node process, so that its
 * wall time, CPU and memory compare with the CLI's.
 */
export function floorScript(baseUrl: string, requests: readonly SentRequest[], targets: number, concurrency: number): string {
  const undici = join(root, 'node_modules', 'undici', 'index.js');
  return `
    const { request } = await import(${JSON.stringify(undici)});
    const requests = ${JSON.stringify(requests)};
    const rounds = [requests.filter((sent) => !/[?&]lang=/.test(sent.path)), requests.filter((sent) => /[?&]lang=/.test(sent.path))];
    const origin = ${JSON.stringify(new URL(baseUrl).origin)};
    let parsed = 0;
    const send = async (sent) => {
      const { body } = await request(origin + sent.path, { headers: sent.headers });
      const text = await body.text();
      try { JSON.parse(text); parsed += 1; } catch {}
    };
    const target = async () => { for (const round of rounds) await Promise.all(round.map(send)); };
    let next = 0;
    const worker = async () => { while (next < ${targets}) { next += 1; await target(); } };
    await Promise.all(Array.from({ length: ${concurrency} }, worker));
    console.log(JSON.stringify({ requests: ${targets} * requests.length, parsed }));
  `;
}
