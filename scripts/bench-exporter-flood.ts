import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, compiledCli } from './bench/compile.js';

/**
 * npm run bench:exporter-flood: five connections each pipeline 100,000 `GET /metrics` and never read an answer, while
 * an ordinary client scrapes /metrics once a second. Prints each scrape's time, the exporter's peak resident memory,
 * and when the exporter closed each flooding connection.
 */
const CONNECTIONS = 5;
const PIPELINED = 100_000;
const SCRAPES = 10;
const TOKEN = 'bench-flood-token-7f3e2a';

function peakRssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('VmHWM:'));
    return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** A client that writes its requests back to back and reads nothing; resolves with when the exporter closed it. */
function flood(url: URL, started: number): Promise<number> {
  const socket: Socket = connect(Number(url.port), url.hostname);
  socket.pause();
  socket.on('error', () => undefined);
  socket.once('connect', () => socket.write('GET /metrics HTTP/1.1\r\nHost: exporter\r\n\r\n'.repeat(PIPELINED)));
  return new Promise((resolve) => socket.once('close', () => resolve(performance.now() - started)));
}

async function timedScrape(url: string): Promise<string> {
  const started = performance.now();
  try {
    const answer = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(120_000) });
    await answer.text();
    return `${answer.status} in ${(performance.now() - started).toFixed(0)} ms`;
  } catch (error) {
    return `failed after ${(performance.now() - started).toFixed(0)} ms (${(error as Error).message})`;
  }
}

async function bench(): Promise<void> {
  await compile();
  const work = await mkdtemp(join(tmpdir(), 'bench-exporter-flood-'));
  const file = join(work, 'targets.json');
  await writeFile(file, JSON.stringify([{ name: 'any', baseUrl: 'http://127.0.0.1:9', tokenEnv: 'BENCH_TOKEN' }]));
  const exporter = spawn(process.execPath, [compiledCli, 'exporter', '--targets', file, '--listen', '127.0.0.1:0'], {
    cwd: work,
    env: { ...process.env, BENCH_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error('the exporter did not start listening within 60 s')), 60_000);
      exporter.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const address = /Exporter at (http:\/\/\S+) /.exec(seen)?.[1];
        if (address) {
          clearTimeout(timer);
          resolve(address);
        }
      });
    });
    console.log(`before the flood: scrape ${await timedScrape(url)}, peak RSS ${peakRssMb(exporter.pid ?? 0).toFixed(0)} MB`);
    const started = performance.now();
    const closed = Array.from({ length: CONNECTIONS }, () => flood(new URL(url), started));
    for (let index = 0; index < SCRAPES; index += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      console.log(
        `during the flood, scrape ${index + 1}: ${await timedScrape(url)}, peak RSS ${peakRssMb(exporter.pid ?? 0).toFixed(0)} MB`,
      );
    }
    const closedAfter = await Promise.race([
      Promise.all(closed),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 60_000)),
    ]);
    console.log(
      closedAfter
        ? `the ${CONNECTIONS} flooding connections were closed by the exporter after ${closedAfter.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s`
        : `some flooding connection was still open ${SCRAPES + 60} s after the flood began`,
    );
    console.log(`peak RSS of the exporter: ${peakRssMb(exporter.pid ?? 0).toFixed(0)} MB`);
  } finally {
    exporter.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

await bench();
