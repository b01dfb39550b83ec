import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TargetEntry } from '../config/targets.js';
import { clientKeySecrets, createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { OwnMetrics } from './own-metrics.js';
import { probeMetrics } from './probe-metrics.js';
import { Runs } from './runs.js';
import type { ScheduleSettings } from './schedule.js';

export interface ExporterOptions {
  targets: TargetEntry[];
  host: string;
  port: number;
  minIntervalMs: number;
  /** Time a probe may take when the scraper does not say (X-Prometheus-Scrape-Timeout-Seconds). */
  defaultProbeTimeoutMs: number;
  /** Only the self-tests change these, to see the limits act without waiting for them. */
  limits?: Partial<ConnectionLimits>;
  schedule?: ScheduleSettings;
}

/** What clients may hold of the exporter, so that idle, slow or too many connections cannot take it from Prometheus. */
export interface ConnectionLimits {
  /** Connections open at once; one more is closed as soon as it arrives. */
  maxConnections: number;
  /** Time to receive a request's headers, whether they trickle in or never come. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included; the answer is not bounded by it. */
  requestTimeoutMs: number;
  /** Time a kept-alive connection may wait for its next request. */
  keepAliveTimeoutMs: number;
  /** How often the two request time-outs are checked: they act within this much of their time. */
  timeoutCheckIntervalMs: number;
  /** Requests a connection may have sent and not yet been answered; a client that pipelines more is cut off. */
  maxUnansweredRequests: number;
  /** Time a client has to take in an answer once it is written: one that reads nothing is cut off. */
  answerTimeoutMs: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  // Room for every target of a large targets file scraped at once by two Prometheus replicas, a connection each.
  maxConnections: 1000,
  // A scraper sends its headers at once; only a client that means to hold the connection takes longer.
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckIntervalMs: 1_000,
  // Prometheus sends one request at a time on a connection; a few more leave room for any ordinary pipelining client.
  maxUnansweredRequests: 8,
  answerTimeoutMs: 10_000,
};

export interface RunningExporter {
  url: string;
  close(): Promise<void>;
}

/** Answer a little before the scraper gives up, as blackbox_exporter's --timeout-offset does. */
const SCRAPE_TIMEOUT_OFFSET_MS = 500;
const MIN_PROBE_MS = 1000;
const TEXT_FORMAT = 'text/plain; version=0.0.4; charset=utf-8';

/** The probe's time: the scraper's time-out less an offset, never more than the default, never less than a second. */
function probeTimeoutMs(header: string | string[] | undefined, defaultMs: number): number {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  if (!header || !Number.isFinite(seconds) || seconds <= 0) return defaultMs;
  return Math.max(MIN_PROBE_MS, Math.min(defaultMs, seconds * 1000 - SCRAPE_TIMEOUT_OFFSET_MS));
}

function reply(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  response.end(body);
}

const ORIGIN = 'http://exporter.invalid';

/**
 * The path and query of a request target, or undefined if it is none the exporter reads. Origin-form is read on the
 * exporter's own origin, so `//host/...` stays a path; the host of absolute-form is ignored, as nothing is forwarded.
 */
function requestTarget(target: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(target.startsWith('/') ? `${ORIGIN}${target}` : target);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/** A name from the query, shown back only as a short, printable quotation. */
const quoted = (name: string): string => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

/**
 * The requests of one connection, answered one after another: the next is handled only once the answer before it was
 * taken in by the client. Each pipelined request would otherwise be handled at once, whatever the client reads, so
 * neither the connection cap nor the time-outs would bound what a connection costs.
 */
class AnswersInTurn {
  private unanswered = 0;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly limits: ConnectionLimits,
  ) {}

  /** Answers this request after those before it, or cuts the connection off if too many are waiting. */
  add(response: ServerResponse, answer: () => Promise<void>): void {
    if (this.unanswered >= this.limits.maxUnansweredRequests) {
      this.socket.destroy();
      return;
    }
    this.unanswered += 1;
    this.turn = this.turn
      .then(async () => {
        // A connection cut off has no one to answer.
        if (this.socket.destroyed) return;
        await answer();
        await this.taken(response);
      })
      // An answer that failed past its own handling leaves the connection unusable, never the turns of another.
      .catch(() => {
        this.socket.destroy();
      })
      .finally(() => (this.unanswered -= 1));
  }

  /** Resolves once the answer was handed to the client's connection, or once the connection is cut for not reading it. */
  private taken(response: ServerResponse): Promise<void> {
    if (response.writableFinished || response.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.socket.destroy(), this.limits.answerTimeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      response.once('finish', done);
      response.once('close', done);
    });
  }
}

/** What answering a request reads: the exporter's own series, the runs of its targets and the screen of its answers. */
interface Exporter {
  metrics: OwnMetrics;
  runs: Runs;
  scanner: SecretScanner;
  defaultProbeTimeoutMs: number;
}

function createExporter(options: ExporterOptions): Exporter {
  const metrics: OwnMetrics = new OwnMetrics(
    options.targets.length,
    (): Promise<number | undefined> => runs.judgingHeapUsedBytes(),
    (): number => runs.keptConnections(),
  );
  const runs: Runs = new Runs(options.targets, {
    minIntervalMs: options.minIntervalMs,
    metrics,
    ...(options.schedule ? { schedule: options.schedule } : {}),
  });
  const scanner = createSecretScanner(
    options.targets.map((entry) => entry.token),
    options.targets.map((entry) => entry.options.password),
    options.targets.flatMap((entry) => clientKeySecrets(entry.options)),
  );
  return { metrics, runs, scanner, defaultProbeTimeoutMs: options.defaultProbeTimeoutMs };
}

async function answerProbe(exporter: Exporter, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const { metrics, runs, scanner } = exporter;
  const stopTimer = metrics.probeDuration.startTimer();
  const names = url.searchParams.getAll('target');
  const name = names[0];
  if (names.length !== 1 || name === undefined || name === '') {
    metrics.probes.inc({ result: 'bad_request' });
    reply(response, 400, 'text/plain; charset=utf-8', 'give exactly one target: /probe?target=NAME, a name from the targets file\n');
    return;
  }
  // Only names are accepted, so an address in the query is just an unknown name: nothing outside the file is probed.
  if (!runs.has(name)) {
    metrics.probes.inc({ result: 'unknown_target' });
    reply(response, 400, 'text/plain; charset=utf-8', `unknown target ${quoted(name)}: not a name in the targets file\n`);
    return;
  }
  const timeoutMs = probeTimeoutMs(request.headers['x-prometheus-scrape-timeout-seconds'], exporter.defaultProbeTimeoutMs);
  const outcome = await runs.probe(name, Date.now() + timeoutMs);
  const text = probeMetrics(outcome);
  // The series carry only bounded names, never a message or a body; this guards that rule, not a known way in.
  if (scanner.find(text) !== undefined) throw new Error('a probe answer would have shown a token');
  metrics.probes.inc({ result: outcome.series === undefined ? 'timed_out' : 'answered' });
  stopTimer();
  reply(response, 200, TEXT_FORMAT, text);
}

async function route(exporter: Exporter, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    reply(response, 405, 'text/plain; charset=utf-8', 'only GET\n');
  } else if (url.pathname === '/probe') {
    await answerProbe(exporter, request, response, url);
  } else if (url.pathname === '/metrics') {
    reply(response, 200, exporter.metrics.registry.contentType, await exporter.metrics.registry.metrics());
  } else if (url.pathname === '/') {
    reply(response, 200, 'text/plain; charset=utf-8', 'ticketing-conformance exporter: GET /probe?target=NAME, GET /metrics\n');
  } else {
    reply(response, 404, 'text/plain; charset=utf-8', 'not found: GET /probe?target=NAME or GET /metrics\n');
  }
}

/** Answers one request; a failure past the routes is logged and answered 500, or cuts the answer already begun. */
async function answer(exporter: Exporter, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = requestTarget(request.url ?? '');
  if (url === undefined) {
    reply(response, 400, 'text/plain; charset=utf-8', 'not a request target: GET /probe?target=NAME or GET /metrics\n');
    return;
  }
  await route(exporter, request, response, url).catch((error: unknown) => {
    // The path as parsed, percent-encoded: what the client sent reaches the log as printable text only.
    console.error(`exporter: ${request.method ?? ''} ${url.pathname} failed: ${(error as Error).message}`);
    if (!response.headersSent) reply(response, 500, 'text/plain; charset=utf-8', 'the exporter failed on this request; see its log\n');
    else response.destroy();
  });
}

/** The HTTP server, bounded by the limits, answering each connection's requests in turn. */
function createBoundedServer(exporter: Exporter, limits: ConnectionLimits): Server {
  const serverOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
  };
  const connections = new WeakMap<Socket, AnswersInTurn>();
  const server: Server = createServer(serverOptions, (request, response) => {
    let inTurn = connections.get(request.socket);
    if (inTurn === undefined) {
      inTurn = new AnswersInTurn(request.socket, limits);
      connections.set(request.socket, inTurn);
    }
    inTurn.add(response, () => answer(exporter, request, response));
  });
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => exporter.metrics.connectionsRefused.inc());
  return server;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** Serves /probe?target=NAME (a run's verdict as Prometheus series) and /metrics (the exporter's own). */
export async function startExporter(options: ExporterOptions): Promise<RunningExporter> {
  const exporter = createExporter(options);
  const server = createBoundedServer(exporter, { ...CONNECTION_LIMITS, ...options.limits });
  try {
    await listen(server, options.port, options.host);
  } catch (error) {
    await exporter.runs.close();
    throw error;
  }
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await exporter.runs.close();
    },
  };
}
