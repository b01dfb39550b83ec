import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { judgeTimeoutMs, runPass, startJudge } from '../src/pipeline/pipeline.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { DiagnosedPass, Report } from '../src/report/model/types.js';
import { createSecretScanner, type SecretScanner } from '../src/secrets/scanner.js';
import { compile, root } from './bench/compile.js';

/**
 * npm run bench:report-side [-- --against CHECKOUT] [--series N] [--targets-per-series N]: the CPU (user and system,
 * process.cpuUsage) of building one matrix target's report and of writing its report.json into a folder the run made,
 * on real passes over the reference server. The compiled code of this checkout, and with --against that of another
 * (built with npm run build), in alternating series, so that both see the same machine; medians printed.
 */
const TOKEN = 'bench-report-side-token-4d1e';

interface Side {
  name: string;
  buildReport(parts: { passes: DiagnosedPass[]; scanner: SecretScanner }): Report;
  writeReports(
    report: Report,
    folder: string,
    scanner: SecretScanner,
    options: { reports: 'json'[]; newFolder: boolean },
  ): Promise<string[]>;
  scanner: SecretScanner;
}

async function sideOf(checkout: string, name: string): Promise<Side> {
  const compiled = (path: string): Promise<Record<string, unknown>> =>
    import(join(checkout, 'dist', 'src', path)) as Promise<Record<string, unknown>>;
  const [build, write, secrets] = await Promise.all([
    compiled('report/model/build.js'),
    compiled('report/write.js'),
    compiled('secrets/scanner.js'),
  ]);
  const createSecretScanner = secrets.createSecretScanner as (tokens: string[]) => SecretScanner;
  return {
    name,
    buildReport: build.buildReport as Side['buildReport'],
    writeReports: write.writeReports as Side['writeReports'],
    scanner: createSecretScanner([TOKEN]),
  };
}

/** Real passes: the reference server tested, judged and diagnosed, as a matrix's target is. */
async function realPasses(count: number): Promise<DiagnosedPass[]> {
  const server = await startReferenceServer({ token: TOKEN });
  const work = await mkdtemp(join(tmpdir(), 'bench-report-side-'));
  const env = { BENCH_TOKEN: TOKEN };
  await writeFile(join(work, 'targets.json'), JSON.stringify([{ name: 'reference', baseUrl: server.url, tokenEnv: 'BENCH_TOKEN' }]));
  const config = loadConfig(['--targets', join(work, 'targets.json'), '--out', join(work, 'out')], env, join(work, '.env'));
  const [entry] = loadTargets(config, env, join(work, '.env'));
  if (!entry) throw new Error('the targets file holds no target');
  const judge = startJudge({ timeoutMs: judgeTimeoutMs([entry]) });
  const scanner = createSecretScanner([TOKEN]);
  const passes: DiagnosedPass[] = [];
  for (let index = 0; index < count; index += 1)
    passes.push((await runPass({ ...entry, embeddedReference: false }, judge, scanner)).diagnosed);
  await Promise.all([judge.close(), server.close(), rm(work, { recursive: true, force: true })]);
  return passes;
}

interface SeriesCpu {
  build: number;
  /** Writing's CPU in user space (the writer's own code, promises and buffers) and in the kernel (the file system's). */
  writeUser: number;
  writeSystem: number;
}

/** One series: reports built, then each report.json written into a folder of its own; CPU a target in ms. */
async function series(side: Side, passes: DiagnosedPass[], perSeries: number, out: string): Promise<SeriesCpu> {
  const reports: Report[] = [];
  const started = process.cpuUsage();
  for (let index = 0; index < perSeries; index += 1) {
    reports.push(side.buildReport({ passes: [passes[index % passes.length] as DiagnosedPass], scanner: side.scanner }));
  }
  const built = process.cpuUsage(started);
  for (const [index, report] of reports.entries()) {
    await side.writeReports(report, join(out, `${side.name}-${index}`), side.scanner, { reports: ['json'], newFolder: true });
  }
  const written = process.cpuUsage(started);
  const ms = (microseconds: number): number => microseconds / 1000 / perSeries;
  return {
    build: ms(built.user + built.system),
    writeUser: ms(written.user - built.user),
    writeSystem: ms(written.system - built.system),
  };
}

async function bench(): Promise<void> {
  const { values } = parseArgs({
    options: {
      against: { type: 'string' },
      series: { type: 'string', default: '8' },
      'targets-per-series': { type: 'string', default: '200' },
    },
  });
  await compile();
  const passes = await realPasses(8);
  const sides = [await sideOf(root, 'ours'), ...(values.against ? [await sideOf(resolve(values.against), 'against')] : [])];
  const results = new Map<string, SeriesCpu[]>(sides.map((side) => [side.name, []]));
  const perSeries = Number(values['targets-per-series']);
  for (let turn = 0; turn <= Number(values.series); turn += 1) {
    for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) {
      const out = await mkdtemp(join(tmpdir(), 'bench-report-side-out-'));
      const result = await series(side, passes, perSeries, out);
      // The first turn warms the code up and is not counted.
      if (turn > 0) results.get(side.name)?.push(result);
      await rm(out, { recursive: true, force: true });
    }
  }
  const median = (list: SeriesCpu[], part: keyof SeriesCpu): string =>
    ([...list.map((result) => result[part])].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN).toFixed(3);
  for (const [name, list] of results) {
    console.log(
      `${name}: build ${median(list, 'build')} ms, write ${median(list, 'writeUser')} ms user and ${median(list, 'writeSystem')} ms system, of CPU a target (medians of ${list.length} series of ${perSeries})`,
    );
  }
}

await bench();
