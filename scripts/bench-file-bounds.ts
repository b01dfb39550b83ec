import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonShape } from '../src/exchange/body-text.js';
import { MAX_FILE_BYTES, MAX_FILE_JSON_VALUES } from '../src/files/bounded-file.js';
import { MAX_HEADER_CHARS, MAX_HEADER_COUNT } from '../src/exchange/header-bounds.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { compile, compiledCli } from './bench/compile.js';
import { measure } from './bench/process-stats.js';

/**
 * npm run bench:file-bounds: the time and peak memory of judge, verify, compare, history and merge on forged files
 * just under the read cap: headers past the bounds (refused), headers at the bounds in every answer, and a body of as
 * many JSON values as a file may hold. Each next to the same command on the file a run wrote.
 */
const TOKEN = 'bench-file-bounds-token-3c81';
const FILL = MAX_FILE_BYTES - 1024 * 1024;

type Json = Record<string, unknown>;
type Exchange = { request?: { headers: Record<string, string> }; response?: { headers: Record<string, string>; json?: unknown } };

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the run's files have no ${what}`);
  return value;
}

/** Headers at every bound: as many names as an answer may carry, as long together as they may be. */
function headersAtTheBounds(): Record<string, string> {
  const value = 'v'.repeat(Math.floor(MAX_HEADER_CHARS / MAX_HEADER_COUNT) - 12);
  return Object.fromEntries(Array.from({ length: MAX_HEADER_COUNT }, (_, index) => [`x-filler-${String(index).padStart(3, '0')}`, value]));
}

/** The file grown step by step, as it was at the last step that kept it under the caps. */
function filled(file: Json, grow: (file: Json) => void): string {
  let text = JSON.stringify(file);
  for (;;) {
    const before = text;
    grow(file);
    text = JSON.stringify(file);
    if (text.length > FILL || jsonShape(text).values > MAX_FILE_JSON_VALUES) return before;
  }
}

/** The files of one run against the reference server, and of a matrix of it: what the forged files start from. */
async function runFiles(work: string, referenceUrl: string) {
  const run = await measure(process.execPath, [compiledCli, '--base-url', referenceUrl, '--token', TOKEN, '--out', join(work, 'run')], {
    cwd: work,
  });
  if (run.code !== 0) throw new Error(`the run against the reference server ended with exit ${run.code}`);
  const targetsFile = join(work, 'targets.json');
  await writeFile(targetsFile, JSON.stringify([{ name: 'target-1', baseUrl: referenceUrl, tokenEnv: 'BENCH_TOKEN' }]));
  const matrixRun = await measure(
    process.execPath,
    [compiledCli, '--targets', targetsFile, '--shard', '1/1', '--out', join(work, 'matrix')],
    {
      cwd: work,
      env: { ...process.env, BENCH_TOKEN: TOKEN },
    },
  );
  if (matrixRun.code !== 0) throw new Error(`the matrix run against the reference server ended with exit ${matrixRun.code}`);
  return {
    matrix: JSON.parse(await readFile(join(work, 'matrix', 'matrix.json'), 'utf8')) as Json & { targets: Json[] },
    recording: JSON.parse(await readFile(join(work, 'run', 'recording.json'), 'utf8')) as Json & { runs: Json[] },
    report: JSON.parse(await readFile(join(work, 'run', 'report.json'), 'utf8')) as Json & { exchanges: Record<string, Exchange> },
  };
}

type Forge = (name: string, text: string) => Promise<string>;
const copy = <T>(value: T): T => structuredClone(value);

/** The recording with huge headers, many headers, every answer at the header bounds, and one dense body. */
async function forgeRecordings(recording: Json & { runs: Json[] }, write: Forge): Promise<void> {
  const runOf = (file: Json): Json & { exchanges: Exchange[] } => need((file.runs as (Json & { exchanges: Exchange[] })[])[0], 'run');
  const firstAnswer = (file: Json, has: (answer: NonNullable<Exchange['response']>) => boolean = () => true) =>
    need(runOf(file).exchanges.find((entry) => entry.response && has(entry.response))?.response, 'answer');

  const oneHeader = copy(recording);
  firstAnswer(oneHeader).headers['x-huge'] = 'h'.repeat(31 * 1024 * 1024);
  await write('recording, one 31 MiB header', JSON.stringify(oneHeader));

  const manyHeaders = copy(recording);
  const flooded = firstAnswer(manyHeaders).headers;
  for (let index = 0; index < 300_000; index += 1) flooded[`x-flood-${index}`] = 'f'.repeat(80);
  await write('recording, 300,000 headers of 90 characters', JSON.stringify(manyHeaders));

  const atBounds = copy(recording);
  for (const entry of runOf(atBounds).exchanges) if (entry.response) entry.response.headers = headersAtTheBounds();
  const runAtBounds = runOf(atBounds);
  await write(
    'recording, every answer at the header bounds',
    filled(atBounds, (file) => (file.runs as Json[]).push(copy(runAtBounds))),
  );

  const dense = copy(recording);
  const answer = firstAnswer(dense, (response) => response.json !== undefined);
  answer.json = { ok: true, value: Array.from({ length: 1_900_000 }, () => 0) };
  await write('recording, one body of 1,900,000 JSON values', JSON.stringify(dense));
}

/** report.json grown to the cap with exchanges at the header bounds. */
async function forgeReport(report: Json & { exchanges: Record<string, Exchange> }, write: Forge): Promise<string> {
  const reportAtBounds = copy(report);
  const [firstKey, firstExchange] = need(Object.entries(reportAtBounds.exchanges)[0], 'exchange in report.json');
  need(firstExchange.response, 'answer in report.json').headers = headersAtTheBounds();
  let copies = 0;
  return write(
    'report, exchanges at the header bounds',
    filled(reportAtBounds, (file) => {
      for (let step = 0; step < 10; step += 1) {
        (file.exchanges as Record<string, Exchange>)[`run ${(copies += 1)}: ${firstKey}`] = copy(firstExchange);
      }
    }),
  );
}

/** matrix.json with targets to the cap, and with a 31 MiB summary. */
async function forgeMatrices(matrix: Json & { targets: Json[] }, write: Forge): Promise<{ manyTargets: string; longSummary: string }> {
  const manyTargets = copy(matrix);
  const [firstTarget] = matrix.targets;
  let targetCount = 1;
  const manyTargetsFile = await write(
    'matrix, targets to the cap',
    filled(manyTargets, (file) => {
      for (let step = 0; step < 200; step += 1) {
        (file.targets as Json[]).push({ ...copy(need(firstTarget, 'target in matrix.json')), name: `target-${(targetCount += 1)}` });
      }
    }),
  );
  const longSummary = copy(matrix);
  longSummary.summary = 's'.repeat(31 * 1024 * 1024);
  return { manyTargets: manyTargetsFile, longSummary: await write('matrix, a 31 MiB summary', JSON.stringify(longSummary)) };
}

async function bench(): Promise<void> {
  await compile();
  const work = await mkdtemp(join(tmpdir(), 'bench-file-bounds-'));
  const reference = await startReferenceServer({ token: TOKEN });
  try {
    const { matrix, recording, report } = await runFiles(work, reference.url);
    const forged = new Map<string, string>();
    const write: Forge = async (name, text) => {
      const file = join(work, `${name}.json`);
      forged.set(name, file);
      await writeFile(file, text);
      return file;
    };
    await forgeRecordings(recording, write);
    const reportFile = await forgeReport(report, write);
    const { manyTargets: matrixFile, longSummary: longSummaryFile } = await forgeMatrices(matrix, write);
    const history = join(work, 'history');
    await mkdir(join(history, 'forged'), { recursive: true });
    await cp(reportFile, join(history, 'forged', 'report.json'));

    const commands: [string, string[]][] = [
      ['judge, the recording a run wrote', ['judge', join(work, 'run', 'recording.json'), '--out', join(work, 'out')]],
      ...[...forged]
        .filter(([name]) => name.startsWith('recording'))
        .map(([name, file]): [string, string[]] => [`judge, ${name}`, ['judge', file, '--out', join(work, 'out')]]),
      ['verify, the report a run wrote', ['verify', join(work, 'run', 'report.json')]],
      ['verify, report at the header bounds', ['verify', reportFile]],
      ['compare, report at the header bounds', ['compare', join(work, 'run', 'report.json'), reportFile]],
      ['history, report at the header bounds', ['history', history, '--out', join(work, 'history-out')]],
      ['merge, report at the header bounds', ['merge', reportFile, '--out', join(work, 'merged')]],
      ['merge, the matrix a run wrote', ['merge', join(work, 'matrix', 'matrix.json'), '--out', join(work, 'merged')]],
      ['merge, matrix of targets to the cap', ['merge', matrixFile, '--out', join(work, 'merged')]],
      ['merge, matrix with a 31 MiB summary', ['merge', longSummaryFile, '--out', join(work, 'merged')]],
      ['compare, matrix of targets to the cap', ['compare', matrixFile, matrixFile]],
    ];
    for (const [name, args] of commands) {
      const result = await measure(process.execPath, [compiledCli, ...args], { cwd: work, timeoutMs: 300_000 });
      const line = (result.stderr.trim() || result.stdout.trim()).split('\n')[0]?.slice(0, 140) ?? '';
      console.log(
        `${name}: exit ${result.code} in ${(result.wallMs / 1000).toFixed(1)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB  ${line}`,
      );
    }
  } finally {
    await reference.close();
    await rm(work, { recursive: true, force: true });
  }
}

await bench();
