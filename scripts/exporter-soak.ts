import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { compile, compiledCli, root } from './bench/compile.js';

/**
 * npm run bench:exporter: the compiled exporter watching N local reference servers, each probed every interval as
 * Prometheus would (spread over the interval, never two scrapes of one target at once, the scrape time-out sent in
 * X-Prometheus-Scrape-Timeout-Seconds). Prints the curve, every --sample-s: the exporter's RSS and CPU (read from
 * /proc) and its main thread's heap (from its /metrics), with that window's probe latencies; then the latency
 * distribution and the memory trend. Writes reports/exporter-soak.json. A script that prints figures, never a test.
 */
const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: '200' },
    'interval-s': { type: 'string', default: '15' },
    'duration-s': { type: 'string', default: '600' },
    'scrape-timeout-s': { type: 'string', default: '10' },
    'min-interval': { type: 'string', default: '10s' },
    /** How often the curve gets a point; the scrape interval when not given. */
    'sample-s': { type: 'string' },
    /** How long the targets keep an idle connection: 5 s as Apache by default, 75 s as nginx. */
    'target-keep-alive-s': { type: 'string', default: '5' },
    /** A folder for the exporter's CPU profile (node --cpu-prof), written as it stops. */
    'cpu-prof-dir': { type: 'string' },
  },
});
const TARGETS = Number(values.targets);
const INTERVAL_MS = Number(values['interval-s']) * 1000;
const DURATION_MS = Number(values['duration-s']) * 1000;
const SCRAPE_TIMEOUT_S = Number(values['scrape-timeout-s']);
const SAMPLE_MS = Number(values['sample-s'] ?? values['interval-s']) * 1000;
/** Memory before this is the start-up and the first runs; the trend is read after it. */
const WARM_UP_MS = 60_000;
/** Upper bounds of the latency distribution's rows, in ms (as the exporter's own probe-duration histogram). */
const LATENCY_BOUNDS_MS = [100, 250, 500, 1000, 2500, 5000, 10_000];
const TOKEN = randomBytes(12).toString('hex');
const TICKS_PER_SECOND = 100;

interface Point {
  tS: number;
  rssMb: number;
  /** The exporter's V8 heaps in use: its main thread's (nodejs_heap_used_bytes) and its judging thread's. */
  heapMb: number;
  judgingHeapMb: number;
  cpuPercent: number;
  probes: number;
  judged: number;
  late: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** How many answers carried each error code. */
  errors: Record<string, number>;
}

interface Probe {
  at: number;
  ms: number;
  status: number;
  judged: boolean;
  reused: boolean;
  finished: boolean;
  /** Codes of ticketing_conformance_run_error in the answer. */
  errors: string[];
}

const round = (value: number, digits = 0): number => Number(value.toFixed(digits));
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
function distribution(ms: number[]): Record<string, number> {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    count: sorted.length,
    minMs: round(sorted[0] ?? 0),
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? 0),
  };
}

/** CPU time (s) in a /proc stat file, user and system: the fields after the command's name in parentheses. */
function cpuSeconds(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Resident memory (MB) and CPU time (s) of the process, and of its main thread alone, from /proc: the exporter's own
 * view is not trusted for this. The rest is the judging thread's and V8's helpers' (collection, compilation).
 */
function usage(pid: number): { rssMb: number; cpuS: number; mainThreadCpuS: number } {
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { rssMb: Number(rss) / 1024, cpuS: cpuSeconds(`/proc/${pid}/stat`), mainThreadCpuS: cpuSeconds(`/proc/${pid}/task/${pid}/stat`) };
}

function tally(codes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const code of codes) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
}

/** How many probes took at most each bound, and how many took longer than the last. */
function histogram(ms: number[]): { upToMs: number | null; probes: number; percent: number }[] {
  const rows = LATENCY_BOUNDS_MS.map((bound, index) => ({
    upToMs: bound as number | null,
    probes: ms.filter((value) => value <= bound && value > (LATENCY_BOUNDS_MS[index - 1] ?? -1)).length,
  }));
  rows.push({ upToMs: null, probes: ms.filter((value) => value > (LATENCY_BOUNDS_MS.at(-1) ?? 0)).length });
  return rows.map((row) => ({ ...row, percent: round((100 * row.probes) / Math.max(1, ms.length), 1) }));
}

/** The exporter's heaps in MB (main thread, judging thread), read from its own series. */
async function heapsMb(url: string): Promise<{ main: number; judging: number }> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
  const read = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
  return { main: read('nodejs_heap_used_bytes'), judging: read('ticketing_conformance_exporter_judging_thread_heap_used_bytes') };
}

/** Least-squares slope of (seconds, MB) points, in MB per minute: growth, if any, without trusting two samples. */
function slopePerMinute(points: [number, number][]): number {
  if (points.length < 2) return 0;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return variance === 0 ? 0 : (covariance / variance) * 60;
}

async function scrape(url: string, name: string): Promise<Omit<Probe, 'at'>> {
  const started = performance.now();
  try {
    const answer = await fetch(`${url}/probe?target=${name}`, {
      headers: { 'X-Prometheus-Scrape-Timeout-Seconds': String(SCRAPE_TIMEOUT_S) },
      signal: AbortSignal.timeout(SCRAPE_TIMEOUT_S * 1000),
    });
    const text = await answer.text();
    return {
      ms: performance.now() - started,
      status: answer.status,
      judged: /^ticketing_conformance_judged 1$/m.test(text),
      reused: /^ticketing_conformance_run_reused 1$/m.test(text),
      finished: /^ticketing_conformance_run_finished 1$/m.test(text),
      errors: [...text.matchAll(/^ticketing_conformance_run_error\{code="([A-Z_]+)"/gm)].map((match) => match[1] ?? ''),
    };
  } catch {
    return { ms: performance.now() - started, status: 0, judged: false, reused: false, finished: false, errors: [] };
  }
}

/** The local targets the exporter watches, one reference server each, and the targets file naming them. */
async function startTargets(work: string): Promise<{ servers: RunningReferenceServer[]; names: string[]; file: string }> {
  const servers: RunningReferenceServer[] = [];
  const keepAliveTimeoutMs = Number(values['target-keep-alive-s']) * 1000;
  for (let index = 0; index < TARGETS; index += 1) servers.push(await startReferenceServer({ token: TOKEN, keepAliveTimeoutMs }));
  const file = join(work, 'targets.json');
  const names = servers.map((_, index) => `target-${index + 1}`);
  await writeFile(
    file,
    JSON.stringify(servers.map((server, index) => ({ name: names[index], baseUrl: server.url, tokenEnv: 'SOAK_TOKEN' }))),
  );
  return { servers, names, file };
}

/** The compiled exporter watching the targets file, and the address it says it listens at. */
function startExporter(file: string, work: string): { exporter: ChildProcessByStdio<null, Readable, null>; listening: Promise<string> } {
  const exporter = spawn(
    process.execPath,
    [
      ...(values['cpu-prof-dir'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof-dir']] : []),
      compiledCli,
      'exporter',
      '--targets',
      file,
      '--listen',
      '127.0.0.1:0',
      '--min-interval',
      values['min-interval'] ?? '10s',
    ],
    { cwd: work, env: { ...process.env, SOAK_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const listening = new Promise<string>((resolve, reject) => {
    let seen = '';
    exporter.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const address = /Exporter at (http:\/\/\S+) /.exec(seen)?.[1];
      if (address) resolve(address);
    });
    setTimeout(() => reject(new Error('the exporter did not start listening within 60 s')), 60_000).unref();
  });
  return { exporter, listening };
}

/** Each target scraped on its own schedule, offset within the interval, as Prometheus spreads its targets. */
async function scrapeOnSchedule(url: string, names: string[], started: number, probes: Probe[]): Promise<void> {
  const end = started + DURATION_MS;
  await Promise.all(
    names.map(async (name, index) => {
      let next = started + (index * INTERVAL_MS) / TARGETS;
      while (next < end) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
        const at = Date.now();
        probes.push({ at, ...(await scrape(url, name)) });
        next += INTERVAL_MS * Math.max(1, Math.ceil((Date.now() - next) / INTERVAL_MS));
      }
    }),
  );
}

/** Every SAMPLE_MS, the exporter's memory and CPU and the probes since the last sample, printed as a row of the curve. */
function sampleEvery(url: string, pid: number, started: number, probes: Probe[], curve: Point[]): () => void {
  let last = { ...usage(pid), at: Date.now() };
  let seen = 0;
  const sampler = setInterval(async () => {
    const now = { ...usage(pid), at: Date.now() };
    const heaps = await heapsMb(url).catch(() => ({ main: Number.NaN, judging: Number.NaN }));
    const window = probes.slice(seen);
    seen = probes.length;
    const sorted = window.map((probe) => probe.ms).sort((a, b) => a - b);
    const point: Point = {
      tS: round((now.at - started) / 1000),
      rssMb: round(now.rssMb, 1),
      heapMb: round(heaps.main, 1),
      judgingHeapMb: round(heaps.judging, 1),
      cpuPercent: round((100 * (now.cpuS - last.cpuS)) / ((now.at - last.at) / 1000), 1),
      probes: window.length,
      judged: window.filter((probe) => probe.judged).length,
      late: window.filter((probe) => !probe.finished).length,
      p50Ms: round(percentile(sorted, 50)),
      p90Ms: round(percentile(sorted, 90)),
      p99Ms: round(percentile(sorted, 99)),
      errors: tally(window.flatMap((probe) => probe.errors)),
    };
    curve.push(point);
    last = now;
    console.log(curveRow(point));
  }, SAMPLE_MS);
  return () => clearInterval(sampler);
}

const CURVE_HEADER =
  '    t   RSS MB  heap MB  judging heap MB   CPU %   probes  judged  late  p50 ms  p90 ms  p99 ms  errors in the answers';

function curveRow(point: Point): string {
  const errors = Object.entries(point.errors)
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  const columns: [number, number][] = [
    [point.tS, 5],
    [point.rssMb, 8],
    [point.heapMb, 8],
    [point.judgingHeapMb, 16],
    [point.cpuPercent, 7],
    [point.probes, 8],
    [point.judged, 7],
    [point.late, 5],
    [point.p50Ms, 7],
    [point.p90Ms, 7],
    [point.p99Ms, 7],
  ];
  return [...columns.map(([value, width]) => String(value).padStart(width)), `  ${errors}`].join(' ');
}

/** First, last and highest of a series of the curve, and its trend after the first minute and over the second half. */
function seriesOf(
  curve: Point[],
  of: (point: Point) => number,
): { first?: number; last?: number; max: number; slope: Record<string, number> } {
  const warm = curve.filter((point) => point.tS * 1000 >= WARM_UP_MS);
  const secondHalf = curve.slice(Math.floor(curve.length / 2));
  const slope = (points: Point[]): number => round(slopePerMinute(points.map((point) => [point.tS, of(point)])), 2);
  const [first, last] = [curve[0], curve.at(-1)];
  return {
    ...(first ? { first: of(first) } : {}),
    ...(last ? { last: of(last) } : {}),
    max: Math.max(...curve.map(of)),
    slope: { afterWarmUp: slope(warm), secondHalf: slope(secondHalf) },
  };
}

/** What the soak found: latencies, probes, the exporter's own counters, memory and CPU. */
async function summary(url: string, pid: number, probes: Probe[], curve: Point[], loadAtStart: number) {
  const own = await (await fetch(`${url}/metrics`)).text();
  const counter = (name: string): number => Number(new RegExp(`^ticketing_conformance_exporter_${name} (\\S+)$`, 'm').exec(own)?.[1]);
  const latencies = probes.map((probe) => probe.ms);
  const cpu = usage(pid);
  const runs = Math.max(1, counter('runs_started_total'));
  const [rss, heap, judgingHeap] = [
    seriesOf(curve, (point) => point.rssMb),
    seriesOf(curve, (point) => point.heapMb),
    seriesOf(curve, (point) => point.judgingHeapMb),
  ];
  const withoutSlope = ({ slope: _slope, ...rest }: ReturnType<typeof seriesOf>) => rest;
  return {
    measuredAt: new Date().toISOString(),
    targets: TARGETS,
    intervalS: INTERVAL_MS / 1000,
    targetKeepAliveS: Number(values['target-keep-alive-s']),
    durationS: DURATION_MS / 1000,
    cores: cpus().length,
    loadAverage: { start: loadAtStart, end: round(loadavg()[0] ?? 0, 2) },
    sampleS: SAMPLE_MS / 1000,
    latency: distribution(latencies),
    latencyHistogram: histogram(latencies),
    probes: {
      total: probes.length,
      judged: probes.filter((probe) => probe.judged).length,
      reused: probes.filter((probe) => probe.reused).length,
      late: probes.filter((probe) => !probe.finished).length,
      failedHttp: probes.filter((probe) => probe.status !== 200).length,
    },
    errors: tally(probes.flatMap((probe) => probe.errors)),
    runsStarted: counter('runs_started_total'),
    runsAhead: counter('runs_ahead_total'),
    runErrors: counter('run_errors_total'),
    /** Connections to the targets the exporter held open at the end, for their next runs. */
    keptConnections: counter('kept_connections'),
    rssMb: withoutSlope(rss),
    heapMb: withoutSlope(heap),
    /** Trends in MB per minute, after the first minute and over the second half. */
    rssSlopeMbPerMin: rss.slope,
    heapSlopeMbPerMin: heap.slope,
    judgingHeapMb: withoutSlope(judgingHeap),
    judgingHeapSlopeMbPerMin: judgingHeap.slope,
    cpuPercentMean: round(curve.reduce((sum, point) => sum + point.cpuPercent, 0) / Math.max(1, curve.length), 1),
    // The exporter's whole CPU (its start-up included) over the runs it started: what one run for a probe costs.
    cpuMsPerRun: round((1000 * cpu.cpuS) / runs),
    mainThreadCpuMsPerRun: round((1000 * cpu.mainThreadCpuS) / runs),
    curve,
  };
}

function printSummary(result: Awaited<ReturnType<typeof summary>>): void {
  const { latency, probes: counts } = result;
  console.log(
    `Probes: ${counts.total} (${counts.judged} judged, ${counts.reused} reused, ${counts.late} answered before their run finished, ${counts.failedHttp} failed); runs started ${result.runsStarted} (${result.runsAhead} ahead of a foreseen probe), with errors ${result.runErrors}; ${result.keptConnections} connections kept at the end; error codes in the answers: ${JSON.stringify(result.errors)}`,
  );
  console.log(
    `Probe latency: min ${latency.minMs} ms, p50 ${latency.p50Ms} ms, p90 ${latency.p90Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms`,
  );
  console.log('Probe latency distribution:');
  for (const row of result.latencyHistogram) {
    const label = row.upToMs === null ? `over ${(LATENCY_BOUNDS_MS.at(-1) ?? 0) / 1000} s` : `up to ${row.upToMs / 1000} s`;
    console.log(`  ${label.padEnd(12)} ${String(row.probes).padStart(6)}  ${String(row.percent).padStart(5)} %`);
  }
  const memory = (name: string, series: { first?: number; last?: number; max: number }, slope: Record<string, number>): string =>
    `${name}: first ${series.first} MB, last ${series.last} MB, max ${series.max} MB; trend ${slope.afterWarmUp} MB/min after the first minute, ${slope.secondHalf} MB/min over the second half`;
  console.log(memory('RSS', result.rssMb, result.rssSlopeMbPerMin));
  console.log(memory('Main-thread heap', result.heapMb, result.heapSlopeMbPerMin));
  console.log(memory('Judging-thread heap', result.judgingHeapMb, result.judgingHeapSlopeMbPerMin));
  console.log(
    `Mean CPU ${result.cpuPercentMean} % of one core, ${result.cpuMsPerRun} ms of CPU per run started (${result.mainThreadCpuMsPerRun} on the main thread, the rest on the judging thread and V8's helpers); load average ${result.loadAverage.start} at the start, ${result.loadAverage.end} at the end`,
  );
}

async function main(): Promise<void> {
  await compile();
  const work = await mkdtemp(join(tmpdir(), 'exporter-soak-'));
  const { servers, names, file } = await startTargets(work);
  const { exporter, listening } = startExporter(file, work);
  const probes: Probe[] = [];
  const curve: Point[] = [];
  const loadAtStart = round(loadavg()[0] ?? 0, 2);
  try {
    const url = await listening;
    const pid = exporter.pid ?? 0;
    console.log(
      `Exporter (compiled) watching ${TARGETS} local targets, each probed every ${INTERVAL_MS / 1000} s for ${DURATION_MS / 1000} s; ` +
        `scrape time-out ${SCRAPE_TIMEOUT_S} s; --min-interval ${values['min-interval']}; targets keep idle connections ${values['target-keep-alive-s']} s; ${cpus().length} cores, load average ${loadAtStart} at the start`,
    );
    console.log(CURVE_HEADER);
    const started = Date.now();
    const stopSampling = sampleEvery(url, pid, started, probes, curve);
    await scrapeOnSchedule(url, names, started, probes);
    stopSampling();
    const result = await summary(url, pid, probes, curve, loadAtStart);
    printSummary(result);
    await mkdir(join(root, 'reports'), { recursive: true });
    await writeFile(join(root, 'reports', 'exporter-soak.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log('Wrote reports/exporter-soak.json');
  } finally {
    exporter.kill('SIGTERM');
    const killer = setTimeout(() => exporter.kill('SIGKILL'), 10_000);
    await new Promise((resolve) => exporter.once('exit', resolve));
    clearTimeout(killer);
    await Promise.all(servers.map((server) => server.close()));
    await rm(work, { recursive: true, force: true });
  }
}

await main();
