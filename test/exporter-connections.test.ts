import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createConnection, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { RunningExporter } from '../src/exporter/server.js';
import { exporterFor, samples, scrape } from './helpers/exporter.js';
import { forward } from './helpers/loopback-server.js';
import { selfSignedCertificate, type SelfSigned } from './helpers/self-signed.js';
import { opensslMissing } from './helpers/tls-front.js';

/**
 * The exporter keeps a target's connections from one run to the next while the target keeps them open, and each probe
 * still shows what a new client of the target meets: a port closed since, or a certificate changed, is seen by the
 * next probe, whatever the connections kept from the run before would have let through.
 */

const TOKEN = 'kept-connections-token-Rk42';
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/**
 * The conforming reference API, which the fronts below pass every request to, with its answers' headers: its
 * Keep-Alive names the minutes the fronts keep idle connections.
 */
async function reference(): Promise<URL> {
  const server = await startReferenceServer({ token: TOKEN, keepAliveTimeoutMs: 300_000 });
  closing.push(() => server.close());
  return new URL(server.url);
}

interface Front<S extends Server> {
  url: string;
  /** Connections accepted so far. */
  connections: () => number;
  server: S;
}

/** A front that keeps idle connections for minutes, as nginx keeps them longer than a scrape interval, and counts them. */
async function keepingFront<S extends Server>(server: S, scheme: 'http' | 'https'): Promise<Front<S>> {
  const upstream = await reference();
  const sockets = new Set<Socket>();
  let connections = 0;
  server.keepAliveTimeout = 300_000;
  // Each answer held a moment, so that every run has as many requests in flight as its connections allow, and opens them all.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    setTimeout(() => forward(request, response, upstream), 25);
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    server,
  };
}

async function exporterOf(baseUrl: string, runOptions: string[] = []): Promise<RunningExporter> {
  const exporter = await exporterFor([{ name: 'kept', baseUrl, token: TOKEN }], { runOptions });
  closing.push(() => exporter.close());
  return exporter;
}

const probe = async (exporter: RunningExporter): Promise<Map<string, number>> => {
  const answer = await scrape(`${exporter.url}/probe?target=kept`);
  expect(answer.status).toBe(200);
  return samples(answer.text);
};

/** The exporter's own count of the connections it keeps open for the targets' next runs. */
const keptConnections = async (exporter: RunningExporter): Promise<number | undefined> =>
  samples((await scrape(`${exporter.url}/metrics`)).text).get('ticketing_conformance_exporter_kept_connections');

/** The codes of the run's errors, as the probe's series name them. */
const errorCodes = (series: Map<string, number>): string[] =>
  [...series.keys()].flatMap((key) => /^ticketing_conformance_run_error\{code="([A-Z_]+)"/.exec(key)?.[1] ?? []);

describe('connections kept between the runs of a target', () => {
  test('a target that keeps them: the next run opens one connection of its own and sends the rest on those kept', async () => {
    const front = await keepingFront(createHttpServer(), 'http');
    const exporter = await exporterOf(front.url);
    const first = await probe(exporter);
    const opened = front.connections();
    expect(first.get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
    expect(opened).toBeGreaterThan(1);

    const second = await probe(exporter);
    expect(second.get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
    expect(second.get('ticketing_conformance_run_requests')).toBe(first.get('ticketing_conformance_run_requests'));
    expect(front.connections() - opened).toBe(1);
    expect(await keptConnections(exporter)).toBe(opened);
  });

  test('a target that closed them since: the next run opens its own, is judged as the first, and closes them as it ends', async () => {
    const front = await keepingFront(createHttpServer(), 'http');
    const exporter = await exporterOf(front.url);
    await probe(exporter);
    const opened = front.connections();
    expect(await keptConnections(exporter)).toBe(opened);
    front.server.closeIdleConnections();

    const second = await probe(exporter);
    expect(second.get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
    expect(errorCodes(second)).toEqual([]);
    expect(front.connections() - opened).toBe(opened);
    // Kept connections would not outlive the time to the next run either: they are closed rather than held idle.
    expect(await keptConnections(exporter)).toBe(0);
  });

  test('a port closed to new connections while those kept still pass (a firewall letting established ones through) is seen by the next probe', async () => {
    const front = await keepingFront(createHttpServer(), 'http');
    // A TCP relay to the front: once it stops listening, the connections it holds still pass requests.
    const relayed = new Set<Socket>();
    const relay = createTcpServer((socket) => {
      const onward = createConnection(Number(new URL(front.url).port), '127.0.0.1');
      relayed.add(socket).add(onward);
      socket.pipe(onward).pipe(socket);
      for (const end of [socket, onward]) end.on('error', () => [socket, onward].forEach((both) => both.destroy()));
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    closing.push(async () => {
      for (const socket of relayed) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    });
    const exporter = await exporterOf(`http://127.0.0.1:${(relay.address() as AddressInfo).port}`);
    expect((await probe(exporter)).get('ticketing_conformance_judged')).toBe(1);
    relay.close();

    const second = await probe(exporter);
    expect(second.get('ticketing_conformance_judged')).toBe(0);
    expect(errorCodes(second)).toContain('HARNESS_UNREACHABLE');
  });

  describe.skipIf(opensslMissing)('over https', () => {
    let trusted: SelfSigned;
    let other: SelfSigned;
    afterEach(async () => {
      await Promise.all([trusted.cleanup(), other.cleanup()]);
    });

    async function httpsFront(): Promise<Front<HttpsServer>> {
      [trusted, other] = await Promise.all([selfSignedCertificate(), selfSignedCertificate()]);
      return keepingFront(createHttpsServer({ key: trusted.key, cert: trusted.cert }), 'https');
    }

    test('a certificate the exporter does not trust, put in place of the one kept connections were opened with, is seen by the next probe', async () => {
      const front = await httpsFront();
      const exporter = await exporterOf(front.url, ['--ca', trusted.certPath]);
      expect((await probe(exporter)).get('ticketing_conformance_judged')).toBe(1);
      // New connections get the other certificate; those open keep the one they were opened with.
      front.server.setSecureContext({ key: other.key, cert: other.cert });

      const second = await probe(exporter);
      expect(second.get('ticketing_conformance_judged')).toBe(0);
      expect(errorCodes(second)).toContain('HARNESS_TLS');
    });

    test('another trusted certificate in place of the first: the next run ends the connections kept and opens all its own', async () => {
      const front = await httpsFront();
      const bundle = `${trusted.certPath}.both.pem`;
      await writeFile(bundle, `${await readFile(trusted.certPath, 'utf8')}${other.cert}`);
      const exporter = await exporterOf(front.url, ['--ca', bundle]);
      await probe(exporter);
      const opened = front.connections();
      front.server.setSecureContext({ key: other.key, cert: other.cert });

      const second = await probe(exporter);
      expect(second.get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
      // The connection that found the new certificate, then the run's own, none of those kept.
      expect(front.connections() - opened).toBe(opened + 1);
    });
  });
});
