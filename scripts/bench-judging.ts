import { isDeepStrictEqual } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { Classification } from '../src/classify/types.js';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { MAX_BATCH } from '../src/judge/judge-queue.js';
import type { ProvidedTarget } from '../src/judge/provided.js';
import { JUDGE, JUDGED, type JudgeQuestion, type ThreadAnswer } from '../src/judge/thread-messages.js';
import { recordPass, type Pass } from '../src/pipeline/pipeline.js';
import type { Recording } from '../src/record/recording.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { compile, root } from './bench/compile.js';

/**
 * npm run bench:judging [-- --against CHECKOUT] [--series N] [--batches-per-series N] [--batch-size N]: the CPU (user and system of the
 * whole process, process.cpuUsage, so the judging thread and the garbage collector's threads too) of judging a
 * matrix's batch of targets through Vitest's runner in the judging thread, a real recording of the reference server
 * classified beforehand, and the scenarios kept in the thread as a matrix's are, so that judging alone is measured.
 * The compiled code of this checkout, and with --against that of another (built with npm run build), each in a judging
 * thread of its own, in alternating series; medians printed, and whether both judged a batch alike, scenario by
 * scenario. A batch holds 32 targets by default, as many as the judge queue hands the thread at once (MAX_BATCH); the
 * exporter's hold one or a few.
 */
const TOKEN = 'bench-judging-token-7c2a';
/** Turns not counted: the first loads the specs, the others let V8 optimise the code that judges. */
const WARM_UP_TURNS = 3;

interface Side {
  name: string;
  judge(batch: readonly ProvidedTarget[], how: 'count' | 'digest'): Promise<unknown[]>;
  classify(recording: Recording, statusIds: readonly number[]): Classification;
  close(): Promise<number>;
}

/** The checkout's judging thread, from its own compiled entry, judging with its own spec engine and specs. */
async function sideOf(checkout: string, name: string): Promise<Side> {
  const compiled = (path: string): string => join(checkout, 'dist', 'src', path);
  const classifyModule = (await import(compiled('classify/recording.js'))) as Record<string, unknown>;
  const thread = new Worker(compiled('judge/judging-thread.js'), {
    workerData: { work: join(root, 'scripts', 'bench', 'judging-work.ts'), typescript: true, engine: compiled('judge/spec-engine.js') },
  });
  let runs = 0;
  return {
    name,
    judge(targets, how) {
      const specRunId = `${name}-${(runs += 1)}`;
      return new Promise((resolve, reject) => {
        const listen = (answer: ThreadAnswer): void => {
          if (answer.type !== JUDGED || answer.specRunId !== specRunId) return;
          thread.off('message', listen);
          if (answer.errors.length > 0 || !answer.finished) reject(new Error(`${name} could not judge: ${JSON.stringify(answer.errors)}`));
          else resolve(answer.finished);
        };
        thread.on('message', listen);
        const question: JudgeQuestion = {
          type: JUDGE,
          specRunId,
          targets: [...targets],
          finish: targets.map(() => how),
          timeoutMs: 60_000,
          live: false,
        };
        thread.postMessage(question);
      });
    },
    classify: classifyModule.classifyRecording as Side['classify'],
    close: () => thread.terminate(),
  };
}

/** A real pass over the reference server, recorded as a matrix's target is. */
async function recordedPass(): Promise<Pass> {
  const server = await startReferenceServer({ token: TOKEN });
  const work = await mkdtemp(join(tmpdir(), 'bench-judging-'));
  const env = { BENCH_TOKEN: TOKEN };
  try {
    await writeFile(join(work, 'targets.json'), JSON.stringify([{ name: 'reference', baseUrl: server.url, tokenEnv: 'BENCH_TOKEN' }]));
    const config = loadConfig(['--targets', join(work, 'targets.json'), '--out', join(work, 'out')], env, join(work, '.env'));
    const [entry] = loadTargets(config, env, join(work, '.env'));
    if (!entry) throw new Error('the targets file holds no target');
    const pass = await recordPass({ ...entry, embeddedReference: false }, createSecretScanner([TOKEN]));
    if (!pass.recording) throw new Error(`the reference server could not be recorded: ${pass.failure?.message ?? 'no recording'}`);
    return pass;
  } finally {
    await Promise.all([server.close(), rm(work, { recursive: true, force: true })]);
  }
}

/** A batch of the same recording under the names a matrix gives its targets, classified beforehand. */
function batchOf(side: Side, pass: Pass, size: number): ProvidedTarget[] {
  const recording = pass.recording as Recording;
  const classification = side.classify(recording, pass.choices.statusId);
  return Array.from({ length: size }, (_, index) => ({ settings: pass.choices, label: `t-${index}`, recording, classification }));
}

/** One series: batches judged one after the other; CPU a target in ms. */
async function series(side: Side, batch: readonly ProvidedTarget[], batches: number): Promise<number> {
  const started = process.cpuUsage();
  for (let index = 0; index < batches; index += 1) await side.judge(batch, 'count');
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / (batches * batch.length);
}

async function bench(): Promise<void> {
  const { values } = parseArgs({
    options: {
      against: { type: 'string' },
      series: { type: 'string', default: '8' },
      'batches-per-series': { type: 'string', default: '10' },
      'batch-size': { type: 'string', default: String(MAX_BATCH) },
    },
  });
  await compile();
  const pass = await recordedPass();
  const sides = [await sideOf(root, 'ours'), ...(values.against ? [await sideOf(resolve(values.against), 'against')] : [])];
  const batchSize = Number(values['batch-size']);
  const batches = new Map(sides.map((side) => [side.name, batchOf(side, pass, batchSize)]));
  const results = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  const perSeries = Number(values['batches-per-series']);
  for (let turn = -WARM_UP_TURNS; turn < Number(values.series); turn += 1) {
    for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) {
      const ms = await series(side, batches.get(side.name) ?? [], perSeries);
      if (turn >= 0) results.get(side.name)?.push(ms);
    }
  }
  const median = (list: number[]): string => ([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN).toFixed(3);
  for (const [name, list] of results) {
    console.log(
      `${name}: ${median(list)} ms of CPU a target judged (median of ${list.length} series of ${perSeries} batches of ${batchSize}; each series: ${list.map((ms) => ms.toFixed(2)).join(', ')})`,
    );
  }
  const digests = await Promise.all(sides.map(async (side) => side.judge(batches.get(side.name) ?? [], 'digest')));
  if (digests.length === 2) console.log(`both judged every target alike: ${isDeepStrictEqual(digests[0], digests[1]) ? 'yes' : 'NO'}`);
  await Promise.all(sides.map((side) => side.close()));
}

await bench();
