import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/load.js';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { compile, compiledCli, root } from './bench/compile.js';
import { startDelayProxy } from './bench/delay-proxy.js';
import { DREDD_DOCUMENT, dreddSuccessTransactions } from './bench/dredd-transactions.js';
import { peerTool } from './bench/peer-tools.js';
import { newmanCollection } from './bench/newman-collection.js';
import { pageOpening } from './bench/matrix-page.js';
import { captureRequests, floorScript, type SentRequest } from './bench/floor.js';
import { measure, type ProcessRun } from './bench/process-stats.js';

/**
 * npm run bench: the suite against the reference server behind a delay proxy, N times, beside Newman doing the same work
 * and Dredd checking the document's own examples; then the judging thread's start, and matrices of 200, 1,000 and
 * 5,000 targets (one local target under that many names), compiled and through npm run conformance. Prints figures and
 * writes reports/bench.json.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'newman-runs': { type: 'string', default: '3' },
    'dredd-runs': { type: 'string', default: '3' },
    'rtt-ms': { type: 'string', default: '100' },
    'matrix-targets': { type: 'string', default: '200,1000,5000' },
    'matrix-source-targets': { type: 'string', default: '200,1000' },
    'matrix-concurrency': { type: 'string', default: '16' },
    /** How many times each compiled matrix and its floor run, in turn. */
    'matrix-runs': { type: 'string', default: '1' },
    /** A compiled CLI of another version (its dist/src/cli/main.js), run in turn with ours: the two compared fairly. */
    against: { type: 'string' },
    /** Only the matrices: the curve of time and memory against the number of targets. */
    'matrix-only': { type: 'boolean', default: false },
    /** Only one status in one language beside three statuses in two languages: the requests and round trips each costs. */
    'several-only': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const NEWMAN_RUNS = Number(values['newman-runs']);
const DREDD_RUNS = Number(values['dredd-runs']);
const RTT_MS = Number(values['rtt-ms']);
const sizes = (list: string): number[] => list.split(',').filter(Boolean).map(Number);
const MATRIX_TARGETS = sizes(values['matrix-targets']);
const MATRIX_SOURCE_TARGETS = sizes(values['matrix-source-targets']);
const MATRIX_CONCURRENCY = Number(values['matrix-concurrency']);
const MATRIX_RUNS = Number(values['matrix-runs']);
const AGAINST = values.against === undefined ? undefined : resolve(values.against);
if (AGAINST && !existsSync(AGAINST)) {
  console.error(`--against ${AGAINST}: no such file; give another version's compiled CLI (build it there: npm run build)`);
  process.exit(2);
}

const node = process.execPath;
/** The run's options as the CLI's defaults make them, for the probes that call the runner directly. */
const BENCH_OPTIONS = JSON.stringify(loadConfig([], {}, join(root, 'no-such.env')));
const checkoutBin = join(root, 'bin', 'ticketing-conformance.js');
/** npm beside the Node that runs the bench. */
const npm = join(dirname(node), 'npm');
const newmanBin = join(root, 'node_modules', 'newman', 'bin', 'newman.js');
/** Dredd at the version the figures name, installed for the bench on first use. */
const DREDD_VERSION = '14.1.0';
const TOKEN = randomBytes(12).toString('hex');

interface Figures {
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  requests: number;
  roundTrips: number;
  peakRssMb: number;
}

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const round = (value: number, digits = 0): number => Number(value.toFixed(digits));

function summarise(samples: { run: ProcessRun; requests: number; roundTrips: number }[]): Figures {
  const walls = samples.map((sample) => sample.run.wallMs);
  return {
    runs: samples.length,
    medianMs: round(median(walls)),
    minMs: round(Math.min(...walls)),
    maxMs: round(Math.max(...walls)),
    requests: median(samples.map((sample) => sample.requests)),
    roundTrips: round(median(samples.map((sample) => sample.roundTrips)), 1),
    peakRssMb: round(Math.max(...samples.map((sample) => sample.run.peakRssMb))),
  };
}

function check(run: ProcessRun, what: string): void {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
}

/** How a tool is started: a program (Node unless told), its arguments, and variables added to the environment. */
type Command = (url: string, work: string) => Promise<{ program?: string; args: string[]; env?: Record<string, string> }>;

/**
 * Runs a tool `runs` times through a delay proxy. With a second tool, their runs alternate, one each in turn, so that
 * a busy moment of the machine falls on both alike (the same code's median moves from one bench run to the next).
 */
async function timeTool(
  what: string,
  runs: number,
  upstream: RunningReferenceServer,
  rttMs: number,
  command: Command,
  alternateWith?: Command,
): Promise<{ figures: Figures; alternate?: Figures }> {
  const proxy = await startDelayProxy(new URL(upstream.url), rttMs);
  const tools = alternateWith ? [command, alternateWith] : [command];
  const samples: { run: ProcessRun; requests: number; roundTrips: number }[][] = tools.map(() => []);
  try {
    for (let index = 0; index < runs; index += 1) {
      for (const [tool, toolCommand] of tools.entries()) {
        const work = await mkdtemp(join(tmpdir(), 'conformance-bench-'));
        proxy.reset();
        const { program = node, args, env } = await toolCommand(proxy.url, work);
        const run = await measure(program, args, { cwd: work, ...(env ? { env: { ...process.env, ...env } } : {}) });
        check(run, what);
        const { requests, roundTrips } = proxy.stats();
        samples[tool]?.push({ run, requests, roundTrips });
        await rm(work, { recursive: true, force: true });
      }
    }
  } finally {
    await proxy.close();
  }
  const [own = [], other] = samples;
  return { figures: summarise(own), ...(other ? { alternate: summarise(other) } : {}) };
}

const oursArgs = (url: string, work: string): string[] => ['--base-url', url, '--token', TOKEN, '--out', join(work, 'out')];
const oursWith: (cli: string) => Command = (cli) => async (url, work) => ({ args: [cli, ...oursArgs(url, work)] });
const oursCompiled = oursWith(compiledCli);
/** Three statuses in two languages, which the reference server all has. */
const SEVERAL = ['--status-id', '1,2,5', '--lang', 'fr,de'];
const oursSeveral: Command = async (url, work) => ({ args: [compiledCli, ...oursArgs(url, work), ...SEVERAL] });
/** `npm run conformance` in this checkout, as its README says: npm's own process counts, and the bin runs dist/ (current). */
const oursNpm: Command = async (url, work) => ({
  program: npm,
  args: ['--prefix', root, 'run', '--silent', 'conformance', '--', ...oursArgs(url, work)],
});
/** The checkout's TypeScript source through tsx, as after an edit (the bin with CONFORMANCE_FROM_SOURCE=1). */
const oursTsx: Command = async (url, work) => ({ args: [checkoutBin, ...oursArgs(url, work)], env: { CONFORMANCE_FROM_SOURCE: '1' } });
const newman: Command = async (url, work) => {
  const file = join(work, 'collection.json');
  await writeFile(file, JSON.stringify(newmanCollection({ baseUrl: url, token: TOKEN, password: 'x', statusId: 1 })));
  return { args: [newmanBin, 'run', file, '--reporters', 'cli', '--bail'] };
};

const dredd: Command = async (url) => ({
  args: [
    await peerTool('dredd', DREDD_VERSION, join('bin', 'dredd')),
    DREDD_DOCUMENT,
    url,
    '--header',
    `Authorization: Basic ${Buffer.from(`${TOKEN}:x`).toString('base64')}`,
    ...dreddSuccessTransactions().flatMap((name) => ['--only', name]),
  ],
});

interface PrefetchFigures {
  /** The span of the traffic at the round-trip time, in round trips: the network's wait and the computing on the path. */
  spanRoundTrips: number;
  /** How many round trips the span grows by when the round trip doubles: the network's waits on the critical path alone. */
  roundTrips: number;
  /** What is left of the span at the round-trip time once those round trips are taken out: client and server computing. */
  computeMs: number;
  requests: number;
  connections: number;
}

/**
 * The prefetch alone through the delay proxy, without the judging thread sharing the CPU, at the round-trip time and at
 * twice it. The computing on the critical path takes as long at both, so the span's growth counts the round trips alone.
 */
async function prefetchAlone(reference: RunningReferenceServer, rttMs: number, args: string[] = []): Promise<PrefetchFigures> {
  const options = JSON.stringify(loadConfig(args, {}, join(root, 'no-such.env')));
  const spanAt = async (delayMs: number): Promise<{ spanMs: number; requests: number; connections: number }> => {
    const proxy = await startDelayProxy(new URL(reference.url), delayMs);
    const samples: { spanMs: number; requests: number; connections: number }[] = [];
    try {
      for (let index = 0; index < 3; index += 1) {
        proxy.reset();
        // As the command line does before its first request.
        const script = `
          const { keepWebAssemblyOnBaselineCompiler } = await import(${JSON.stringify(join(root, 'dist', 'src', 'judge', 'memory.js'))});
          keepWebAssemblyOnBaselineCompiler();
          const { recordTarget } = await import(${JSON.stringify(join(root, 'dist', 'src', 'record', 'recorder.js'))});
          const { targetSettings } = await import(${JSON.stringify(join(root, 'dist', 'src', 'pipeline', 'pipeline.js'))});
          const target = { baseUrl: ${JSON.stringify(proxy.url)}, token: ${JSON.stringify(TOKEN)}, options: ${options}, embeddedReference: true };
          await recordTarget(targetSettings(target, new Date()));
        `;
        check(await measure(node, ['--input-type=module', '-e', script], { cwd: root }), 'the prefetch probe');
        samples.push(proxy.stats());
      }
    } finally {
      await proxy.close();
    }
    return {
      spanMs: median(samples.map((sample) => sample.spanMs)),
      requests: median(samples.map((sample) => sample.requests)),
      connections: median(samples.map((sample) => sample.connections)),
    };
  };
  const once = await spanAt(rttMs);
  const twice = await spanAt(2 * rttMs);
  const roundTrips = (twice.spanMs - once.spanMs) / rttMs;
  return {
    spanRoundTrips: round(once.spanMs / rttMs, 1),
    roundTrips: round(roundTrips, 1),
    computeMs: round(once.spanMs - roundTrips * rttMs),
    requests: once.requests,
    connections: once.connections,
  };
}

const prefetchLine = (figures: PrefetchFigures): string =>
  `${figures.roundTrips} round trips on the critical path (the growth of its span from one round-trip time to twice it) and ${figures.computeMs} ms of computing on it; its span at ${RTT_MS} ms: ${figures.spanRoundTrips} round trips; ${figures.requests} requests over ${figures.connections} connections`;

/** The judging thread's part of a run, timed inside one process of the compiled CLI: its start and two spec runs. */
async function judgingStartup(reference: RunningReferenceServer): Promise<Record<string, number>> {
  const script = `
    const { SpecRunner } = await import(${JSON.stringify(join(root, 'dist', 'src', 'judge', 'spec-runner.js'))});
    const { recordTarget } = await import(${JSON.stringify(join(root, 'dist', 'src', 'record', 'recorder.js'))});
    const { targetSettings } = await import(${JSON.stringify(join(root, 'dist', 'src', 'pipeline', 'pipeline.js'))});
    const { classifyRecording } = await import(${JSON.stringify(join(root, 'dist', 'src', 'classify', 'recording.js'))});
    const settings = targetSettings({ baseUrl: ${JSON.stringify(reference.url)}, token: ${JSON.stringify(TOKEN)}, options: ${BENCH_OPTIONS} }, new Date());
    const recording = await recordTarget(settings);
    const times = {};
    let at = performance.now();
    const runner = await SpecRunner.start({ timeoutMs: 10000 });
    await runner.judge([{ settings, recording, classification: classifyRecording(recording, settings.statusId) }]);
    times.firstSpecRunMs = Math.round(performance.now() - at); at = performance.now();
    await runner.judge([{ settings, recording, classification: classifyRecording(recording, settings.statusId) }]);
    times.nextSpecRunMs = Math.round(performance.now() - at);
    await runner.close();
    console.log(JSON.stringify(times));
  `;
  const run = await measure(node, ['--input-type=module', '-e', script], { cwd: root });
  check(run, 'the judging thread probe');
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
}

interface MatrixFigures {
  targets: number;
  concurrency: number;
  /** The compiled CLI, the checkout through npm run conformance, or the --against version's compiled CLI. */
  build: 'compiled' | 'source' | 'against';
  /** --reports json (report.json alone) or every report a target gets in a matrix. */
  reports: 'json' | 'every';
  wallMs: number;
  /** durationMs of matrix.json: from the process start to the last target's reports, as the run itself tells it. */
  reportedMs: number;
  cpuMs: number;
  peakRssMb: number;
  /** Opening matrix.html in Chromium, when it is installed. */
  page?: { firstPaintMs: number; loadMs: number };
}

/** The same GETs as a matrix's, by plain undici in a process of its own, nothing judged: what a fleet costs at the least. */
interface FloorFigures {
  targets: number;
  requests: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
}

/** The requests one target's run sends, as the reference server receives them: the floor sends these, for every target. */
async function requestsOfOneTarget(reference: RunningReferenceServer): Promise<SentRequest[]> {
  return captureRequests(reference.url, async (url) => {
    const work = await mkdtemp(join(tmpdir(), 'conformance-bench-capture-'));
    try {
      const run = await measure(node, [compiledCli, '--base-url', url, '--token', TOKEN, '--out', join(work, 'out'), '--reports', 'json'], {
        cwd: work,
      });
      check(run, 'the run whose requests the floor sends');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
}

async function floor(
  reference: RunningReferenceServer,
  requests: readonly SentRequest[],
  targets: number,
  concurrency: number,
): Promise<FloorFigures> {
  const script = floorScript(reference.url, requests, targets, concurrency);
  const run = await measure(node, ['--input-type=module', '-e', script], { cwd: root, timeoutMs: 1_800_000 });
  check(run, `the floor of ${targets} targets`);
  const told = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { requests: number; parsed: number };
  if (told.parsed !== told.requests) throw new Error(`the floor parsed ${told.parsed} of its ${told.requests} answers as JSON`);
  return { targets, requests: told.requests, wallMs: round(run.wallMs), cpuMs: round(run.cpuMs), peakRssMb: round(run.peakRssMb) };
}

/** One local target listed under `targets` names: the matrix's own cost per target, the network left out. */
async function matrix(
  reference: RunningReferenceServer,
  targets: number,
  concurrency: number,
  build: MatrixFigures['build'],
  reports: MatrixFigures['reports'],
): Promise<MatrixFigures> {
  const work = await mkdtemp(join(tmpdir(), 'conformance-bench-matrix-'));
  try {
    const file = join(work, 'targets.json');
    await writeFile(
      file,
      JSON.stringify(
        Array.from({ length: targets }, (_, index) => ({ name: `target-${index + 1}`, baseUrl: reference.url, tokenEnv: 'BENCH_TOKEN' })),
      ),
    );
    const args = [
      '--targets',
      file,
      '--target-concurrency',
      String(concurrency),
      '--out',
      join(work, 'out'),
      ...(reports === 'json' ? ['--reports', 'json'] : []),
    ];
    // From source, as a user runs it: through npm, whose own process counts in the peak memory of the process tree.
    const [command, commandArgs] =
      build === 'source'
        ? [npm, ['--prefix', root, 'run', '--silent', 'conformance', '--', ...args]]
        : [node, [build === 'against' && AGAINST ? AGAINST : compiledCli, ...args]];
    const run = await measure(command, commandArgs, {
      cwd: work,
      env: { ...process.env, BENCH_TOKEN: TOKEN },
      timeoutMs: 1_800_000,
    });
    check(run, `the matrix of ${targets} targets`);
    const written = JSON.parse(await readFile(join(work, 'out', 'matrix.json'), 'utf8')) as { durationMs: number };
    const page =
      targets >= 1000 && build === 'compiled' && reports === 'every' ? await pageOpening(join(work, 'out', 'matrix.html')) : undefined;
    return {
      targets,
      concurrency,
      build,
      reports,
      wallMs: round(run.wallMs),
      reportedMs: written.durationMs,
      cpuMs: round(run.cpuMs),
      peakRssMb: round(run.peakRssMb),
      ...(page ? { page } : {}),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The medians of a series of runs of the same matrix or floor, the time a matrix reports in matrix.json among them;
 * the peak memory is the highest of them.
 */
function medianOf<T extends { wallMs: number; cpuMs: number; peakRssMb: number; reportedMs?: number }>(series: T[]): T {
  const [first] = series;
  if (!first) throw new Error('no run to summarise');
  const reported = series.flatMap((entry) => (entry.reportedMs === undefined ? [] : [entry.reportedMs]));
  return {
    ...first,
    wallMs: round(median(series.map((entry) => entry.wallMs))),
    cpuMs: round(median(series.map((entry) => entry.cpuMs))),
    peakRssMb: Math.max(...series.map((entry) => entry.peakRssMb)),
    ...(reported.length === series.length ? { reportedMs: round(median(reported)) } : {}),
  };
}

interface FloorRatios {
  wall: number;
  cpu: number;
  peakRss: number;
}

const ratiosTo = (figures: MatrixFigures, base: FloorFigures): FloorRatios => ({
  wall: round(figures.wallMs / base.wallMs, 2),
  cpu: round(figures.cpuMs / base.cpuMs, 2),
  peakRss: round(figures.peakRssMb / base.peakRssMb, 2),
});

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** The tools side by side, as a Markdown table: median wall time at loopback and at the bench's round-trip time. */
function peersTable(byRtt: Record<string, Record<string, Figures | number>>): string {
  const rows: [string, string][] = [
    ['ours, compiled (the installed CLI)', 'ours'],
    ['--against, in turn', 'against'],
    ['ours, `npm run conformance` (a checkout, its build current)', 'oursViaNpm'],
    ['ours, from source through tsx (after an edit)', 'oursViaTsx'],
    [`Dredd ${DREDD_VERSION}, the document's examples`, 'dredd'],
    ['Newman 6.2.2, our requests and assertions', 'newman'],
  ];
  const figures = (rtt: number, key: string): Figures | undefined => {
    const found = byRtt[`${rtt}ms`]?.[key];
    return typeof found === 'object' ? found : undefined;
  };
  const cell = (found: Figures | undefined): string => (found ? `${seconds(found.medianMs)}, ${found.peakRssMb} MB` : '-');
  const lines = [
    `| tool | loopback | +${RTT_MS} ms a round trip | requests |`,
    '| --- | --- | --- | --- |',
    ...rows.flatMap(([name, key]) => {
      const loopback = figures(0, key);
      const delayed = figures(RTT_MS, key);
      const requests = (loopback ?? delayed)?.requests;
      return loopback || delayed ? [`| ${name} | ${cell(loopback)} | ${cell(delayed)} | ${requests ?? '-'} |`] : [];
    }),
  ];
  return `Median wall time and peak RSS, load average ${round(loadavg()[0] ?? 0, 2)} now:\n${lines.join('\n')}`;
}
const line = (name: string, figures: Figures): string =>
  `  ${name.padEnd(22)} median ${seconds(figures.medianMs)} (min ${seconds(figures.minMs)}, max ${seconds(figures.maxMs)}, ${figures.runs} runs); ${figures.requests} requests; ${figures.roundTrips} round trips on the network path; peak RSS ${figures.peakRssMb} MB`;

/** The machine the figures come from; a busy one is slower, and its load says how busy it was. */
function machineFacts(): Record<string, string | number> {
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    os: `${platform()} ${release()}`,
    node: process.version,
    loadAverage: round(loadavg()[0] ?? 0, 2),
  };
  console.log(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; load average ${machine.loadAverage} at the start`,
  );
  return machine;
}

/** One status in one language against several: the extra statuses and languages go out beside the requests of one. */
async function severalStatuses(reference: RunningReferenceServer): Promise<Record<string, unknown>> {
  const { figures: one, alternate: several } = await timeTool('the suite', RUNS, reference, RTT_MS, oursCompiled, oursSeveral);
  if (!several) throw new Error('the run of several statuses was not timed');
  const [oneAlone, severalAlone] = [await prefetchAlone(reference, RTT_MS), await prefetchAlone(reference, RTT_MS, SEVERAL)];
  console.log(`One status in one language against ${SEVERAL.join(' ')}, round-trip time ${RTT_MS} ms:`);
  console.log(line('ours, one status', one));
  console.log(line('ours, 3 statuses x 2', several));
  for (const [name, alone] of [
    ['one status', oneAlone],
    ['3 statuses x 2', severalAlone],
  ] as const) {
    console.log(`  prefetch alone, ${name.padEnd(14)} ${prefetchLine(alone)}`);
  }
  return { args: SEVERAL, one, several, prefetchOne: oneAlone, prefetchSeveral: severalAlone };
}

/** The suite beside Newman and Dredd, at the bench's round-trip time and at loopback. */
async function peers(reference: RunningReferenceServer): Promise<Record<string, Record<string, Figures | number>>> {
  const byRtt: Record<string, Record<string, Figures | number>> = {};
  for (const rttMs of [RTT_MS, 0]) {
    const compiled = await timeTool('the suite', RUNS, reference, rttMs, oursCompiled, AGAINST ? oursWith(AGAINST) : undefined);
    const ours = compiled.figures;
    const { figures: viaNpm } = await timeTool('the suite (npm run conformance)', Math.min(RUNS, 3), reference, rttMs, oursNpm);
    const { figures: viaTsx } = await timeTool('the suite (tsx)', Math.min(RUNS, 3), reference, rttMs, oursTsx);
    const { figures: theirs } = await timeTool('newman', NEWMAN_RUNS, reference, rttMs, newman);
    const { figures: dreddFigures } = await timeTool('dredd', DREDD_RUNS, reference, rttMs, dredd);
    const ratio = round(ours.medianMs / theirs.medianMs, 2);
    byRtt[`${rttMs}ms`] = {
      ours,
      ...(compiled.alternate ? { against: compiled.alternate } : {}),
      oursViaNpm: viaNpm,
      oursViaTsx: viaTsx,
      newman: theirs,
      dredd: dreddFigures,
      oursOverNewman: ratio,
    };
    console.log(`Round-trip time ${rttMs} ms (delay proxy on loopback):`);
    console.log(line('ours (compiled)', ours));
    if (compiled.alternate) console.log(line('--against, in turn', compiled.alternate));
    console.log(line('ours (npm run)', viaNpm));
    console.log(line('ours (tsx, from src)', viaTsx));
    console.log(line('newman 6.2.2', theirs));
    console.log(line(`dredd ${DREDD_VERSION}`, dreddFigures));
    console.log(`  ours/newman            ${ratio} (median wall time)`);
  }
  console.log(peersTable(byRtt));
  return byRtt;
}

type MatrixRow = MatrixFigures & { floor?: FloorFigures; overFloor?: FloorRatios };

function matrixLine(figures: MatrixFigures, base?: FloorFigures): string {
  const page = figures.page ? `; matrix.html first paint ${figures.page.firstPaintMs} ms, loaded ${figures.page.loadMs} ms` : '';
  const ratios = base ? ratiosTo(figures, base) : undefined;
  const overFloor = ratios
    ? `; over the floor: ${ratios.wall}x the wall time, ${ratios.cpu}x the CPU, ${ratios.peakRss}x the peak RSS`
    : '';
  const where =
    figures.build === 'source'
      ? 'through npm run conformance in the checkout'
      : figures.build === 'against'
        ? `--against, in turn`
        : figures.build;
  const reports = figures.reports === 'json' ? 'report.json only' : 'every report';
  return `Matrix of ${figures.targets} targets (${where}, ${reports}, concurrency ${figures.concurrency}): ${seconds(figures.wallMs)} (matrix.json says ${seconds(figures.reportedMs)}), ${round(figures.wallMs / figures.targets, 1)} ms a target, CPU ${seconds(figures.cpuMs)}, peak RSS ${figures.peakRssMb} MB${page}${overFloor}`;
}

/**
 * Each size of fleet compiled, with its floor: the floor and both kinds of matrix in turn, so that a busy moment of the
 * machine falls on each alike (with --against, that version's matrices too, in the same turns).
 */
async function fleetsAgainstTheirFloor(reference: RunningReferenceServer, matrices: MatrixRow[], floors: FloorFigures[]): Promise<void> {
  const sentByOne = MATRIX_TARGETS.length === 0 ? [] : await requestsOfOneTarget(reference);
  for (const targets of MATRIX_TARGETS) {
    const builds: MatrixFigures['build'][] = AGAINST ? ['compiled', 'against'] : ['compiled'];
    const kinds = builds.flatMap((build) => (['json', 'every'] as const).map((reports) => ({ build, reports })));
    const floorSeries: FloorFigures[] = [];
    const series = kinds.map(() => [] as MatrixFigures[]);
    for (let index = 0; index < MATRIX_RUNS; index += 1) {
      floorSeries.push(await floor(reference, sentByOne, targets, MATRIX_CONCURRENCY));
      for (const [kind, { build, reports }] of kinds.entries()) {
        series[kind]?.push(await matrix(reference, targets, MATRIX_CONCURRENCY, build, reports));
      }
    }
    const base = medianOf(floorSeries);
    floors.push(base);
    console.log(
      `Floor of ${targets} targets (the same ${base.requests} GETs by plain undici, bodies read and parsed, nothing judged, ${MATRIX_RUNS} runs): ${seconds(base.wallMs)}, CPU ${seconds(base.cpuMs)}, peak RSS ${base.peakRssMb} MB`,
    );
    for (const figures of series.map(medianOf)) {
      matrices.push({ ...figures, floor: base, overFloor: ratiosTo(figures, base) });
      console.log(matrixLine(figures, base));
    }
  }
}

/** The fleets run from the checkout, through npm, and how the cost grows from 200 targets to 1,000. */
async function fleetsFromSource(reference: RunningReferenceServer, matrices: MatrixRow[]): Promise<void> {
  for (const targets of MATRIX_SOURCE_TARGETS) {
    const figures = await matrix(reference, targets, MATRIX_CONCURRENCY, 'source', 'every');
    matrices.push(figures);
    console.log(matrixLine(figures));
  }
  for (const build of ['compiled', 'source'] as const) {
    const [small, large] = [200, 1000].map((targets) =>
      matrices.find((entry) => entry.build === build && entry.reports === 'every' && entry.targets === targets),
    );
    if (small && large) {
      console.log(
        `Matrix ${build}, 1000 against 200 targets: ${round(large.wallMs / small.wallMs, 2)} times the time, ${round(large.peakRssMb / small.peakRssMb, 2)} times the peak RSS`,
      );
    }
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  await compile();
  const machine = machineFacts();
  const reference = await startReferenceServer({ token: TOKEN });
  const only = values['matrix-only'] || values['several-only'];
  try {
    const several = values['matrix-only'] ? undefined : await severalStatuses(reference);
    const byRtt = only ? {} : await peers(reference);
    const prefetch = only ? undefined : await prefetchAlone(reference, RTT_MS);
    if (prefetch) console.log(`Prefetch alone: ${prefetchLine(prefetch)}`);
    const startup = only ? undefined : await judgingStartup(reference);
    if (startup) {
      console.log(
        `The judging thread in a compiled run: first spec run ${startup.firstSpecRunMs} ms (the thread's start, its modules and the judging); next spec run ${startup.nextSpecRunMs} ms`,
      );
    }
    const matrices: MatrixRow[] = [];
    const floors: FloorFigures[] = [];
    if (!values['several-only']) {
      await fleetsAgainstTheirFloor(reference, matrices, floors);
      await fleetsFromSource(reference, matrices);
    }
    await mkdir(join(root, 'reports'), { recursive: true });
    const result = {
      measuredAt: new Date().toISOString(),
      machine,
      loadAverageAtEnd: round(loadavg()[0] ?? 0, 2),
      rttMs: RTT_MS,
      byRtt,
      prefetch,
      several,
      judgingStartup: startup,
      matrices,
      floors,
      benchMs: round(performance.now() - started),
    };
    await writeFile(join(root, 'reports', 'bench.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`Wrote reports/bench.json in ${seconds(result.benchMs)}`);
  } finally {
    await reference.close();
  }
}

await main();
