import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { loadTargets } from '../../src/config/targets.js';
import { startExporter, type ConnectionLimits, type RunningExporter } from '../../src/exporter/server.js';
import type { ScheduleSettings } from '../../src/exporter/schedule.js';
import { SAFETY_NET_MS, removeFolder } from './safety-net.js';

export interface ExporterTarget {
  name: string;
  baseUrl: string;
  token: string;
  maxRequests?: number;
  /** As a targets file writes it: 2/s. */
  rateLimit?: string;
}

/** Writes a targets file for these targets into dir; each token goes in the environment variable it names, given back. */
export async function writeTargets(dir: string, targets: ExporterTarget[]): Promise<{ file: string; env: Record<string, string> }> {
  const file = join(dir, 'targets.yaml');
  const env = Object.fromEntries(targets.map((target, index) => [`EXPORTER_TOKEN_${index}`, target.token]));
  await writeFile(
    file,
    stringify({
      targets: targets.map(({ name, baseUrl, maxRequests, rateLimit }, index) => ({
        name,
        baseUrl,
        tokenEnv: `EXPORTER_TOKEN_${index}`,
        ...(maxRequests ? { maxRequests } : {}),
        ...(rateLimit ? { rateLimit } : {}),
      })),
    }),
  );
  return { file, env };
}

/** An exporter in this process over a targets file written for the test, tokens given as environment variables. */
export async function exporterFor(
  targets: ExporterTarget[],
  {
    minIntervalMs = 0,
    defaultProbeTimeoutMs = SAFETY_NET_MS,
    limits,
    schedule,
    runOptions = [],
  }: {
    minIntervalMs?: number;
    defaultProbeTimeoutMs?: number;
    limits?: Partial<ConnectionLimits>;
    schedule?: ScheduleSettings;
    /** Run options given to the exporter, such as --strict. */
    runOptions?: string[];
  } = {},
): Promise<RunningExporter> {
  const dir = await mkdtemp(join(tmpdir(), 'exporter-targets-'));
  try {
    const { file, env } = await writeTargets(dir, targets);
    const entries = loadTargets(loadConfig(['--targets', file, ...runOptions], env, join(dir, '.env')), env, join(dir, '.env'));
    return await startExporter({
      targets: entries,
      host: '127.0.0.1',
      port: 0,
      minIntervalMs,
      defaultProbeTimeoutMs,
      limits,
      ...(schedule ? { schedule } : {}),
    });
  } finally {
    await removeFolder(dir);
  }
}

/** The samples of a Prometheus text answer, keyed by the series as written (name and labels). */
export function samples(text: string): Map<string, number> {
  return new Map(
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const cut = line.lastIndexOf(' ');
        return [line.slice(0, cut), Number(line.slice(cut + 1))];
      }),
  );
}

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const answer = await fetch(url, { headers, signal: AbortSignal.timeout(SAFETY_NET_MS) });
  return { status: answer.status, text: await answer.text() };
}

/** A connection to the exporter on which a test writes what it likes, byte for byte. */
export interface RawConnection {
  connected: Promise<void>;
  /** Dropped once the connection is closed, as a client that goes on sending would see it. */
  write(text: string): void;
  /** All the exporter sent, as text, once the connection is closed by either side, refused or reset. */
  answer: Promise<string>;
}

export function rawConnection(exporterUrl: string): RawConnection {
  const { hostname, port } = new URL(exporterUrl);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // A refused or reset connection ends like a closed one, with what it received.
  socket.on('error', () => undefined);
  return {
    connected: new Promise((resolve) => socket.once('connect', () => resolve())),
    write(text) {
      if (!socket.destroyed) socket.write(text);
    },
    answer: new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks).toString('latin1')))),
  };
}

/** Sends one request made of these bytes, asking the exporter to close afterwards, and gives back its whole answer. */
export function rawRequest(exporterUrl: string, requestLine: string): Promise<string> {
  const connection = rawConnection(exporterUrl);
  connection.write(`${requestLine}\r\nHost: exporter\r\nConnection: close\r\n\r\n`);
  return connection.answer;
}

/** Writes `first`, then `more` again and again until the exporter closes the connection, as a slow client does. */
export function trickle(connection: RawConnection, first: string, more: string): void {
  connection.write(first);
  const timer = setInterval(() => connection.write(more), 20);
  void connection.answer.then(() => clearInterval(timer));
}

/** The status code of a raw answer, or undefined when nothing came. */
export function statusOf(answer: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
  return match ? Number(match[1]) : undefined;
}
