import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { LoadedBaseline } from '../config/baseline.js';
import type { Config } from '../config/settings.js';
import { prepareOutDir } from '../config/out-dir.js';
import type { TargetEntry } from '../config/targets.js';
import { clearOwnOutputs, isAbsent, listOwnOutputs } from '../files/artifacts.js';
import { SharedConnections } from '../http/shared-connections.js';
import { collectGarbageWhenGrown } from '../judge/memory.js';
import { MAX_BATCH, type Judge } from '../judge/judge-queue.js';
import { buildMatrix } from '../report/matrix/build.js';
import type { Matrix, MatrixTarget } from '../report/matrix/types.js';
import { writeMatrix } from '../report/write.js';
import { clientKeySecrets, createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { suiteVersion } from '../version.js';
import { judgeFor, judgePass, judgeTimeoutMs, passFacts, recordPass, type Pass, type PlannedTarget } from './pipeline.js';
import { shardOf } from './shard.js';
import {
  TARGETS_DIR,
  writeTargetRecording,
  writeTargetReports,
  type FleetReports,
  type FleetSecrets,
  type TargetReports,
  type WrittenTarget,
} from './target-reports.js';

export { TARGETS_DIR } from './target-reports.js';

export interface MatrixHooks {
  /** Told as each target's reports are written, for a progress line. */
  onTarget?(row: MatrixTarget, done: number, total: number): void;
  /** When the run began, if before this call (the CLI gives its own start): the matrix's duration counts from it. */
  startedAt?: Date;
}

export interface MatrixResult {
  matrix: Matrix;
  writtenFiles: string[];
}

type Positioned = TargetEntry & { position: number };

/** The judge a caller lends the matrix, and the signal of Ctrl-C or SIGTERM. */
interface MatrixSurroundings {
  judge?: Judge;
  interruption?: AbortSignal;
}

/** Runs each task given it once one of `limit` slots is free. */
function slots(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = limit;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next task waiting, or is freed.
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

/**
 * Runs tasks with at most `limit` under way at once, in order; resolves when every one has settled. Each task handles
 * its own failure.
 */
async function eachBounded<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const underWay = new Set<Promise<void>>();
  for (const item of items) {
    while (underWay.size >= limit) await Promise.race(underWay);
    const running: Promise<void> = task(item).finally(() => underWay.delete(running));
    underWay.add(running);
  }
  await Promise.all(underWay);
}

/**
 * Tests every target of the targets file (or of one shard of it) through the pipeline and writes each one's reports
 * and the matrix. Targets are recorded over the network, at most --target-concurrency at once, while one judge takes
 * whatever is recorded in batches; a target waits to be recorded while a whole batch is still unjudged or unwritten,
 * so memory holds at most the targets in flight and one batch, whatever the size of the fleet.
 */
export async function runMatrix(
  config: Config,
  targets: TargetEntry[],
  baseline: LoadedBaseline | undefined,
  hooks: MatrixHooks = {},
  surroundings: MatrixSurroundings = {},
): Promise<MatrixResult> {
  const startedAt = hooks.startedAt ?? new Date();
  const selected = shardOf(
    targets.map((entry, position) => ({ ...entry, position })),
    config.shard,
  );
  // Every token and password this run sends, for every target and the matrix: a front that several targets share (a CDN,
  // a debugging proxy) can show one target's token in another's answers. Built once, it serves every client and every artifact.
  const secrets: FleetSecrets = {
    tokens: selected.map((entry) => entry.token),
    passwords: selected.map((entry) => entry.options.password),
    clientKeys: selected.flatMap((entry) => clientKeySecrets(entry.options)),
  };
  const scanner = createSecretScanner(secrets.tokens, secrets.passwords, secrets.clientKeys);
  await prepareOutDir(config.out);
  await clearOwnOutputs(config.out);
  // Without a targets folder before the run, each target's folder is new: nothing of an earlier run to clear in it.
  const newFolders = await isAbsent(join(config.out, TARGETS_DIR));
  // Target folders made new hold no list of their own: the matrix folder's list names their files and them, so the next
  // run into the folder removes them, the folders of targets no longer in the file among them.
  const targetFiles: string[] = [];
  const listedTargets = (): { files: string[]; folders: string[] } | undefined =>
    newFolders ? { files: targetFiles, folders: foldersOf(targetFiles) } : undefined;
  let rows: MatrixTarget[];
  try {
    rows =
      selected.length === 0
        ? []
        : await testAndWriteEach(selected, { config, baseline, hooks, surroundings, scanner, secrets, newFolders, targetFiles });
  } catch (error) {
    // What was written before the failure is listed all the same, for the next run to remove.
    const listed = listedTargets();
    if (listed && listed.files.length > 0) await listOwnOutputs(config.out, listed.files, listed.folders).catch(() => undefined);
    throw error;
  }
  // The run finished once every target's reports are written.
  const finishedAt = new Date();
  const matrix = buildMatrix(
    {
      suite: { name: 'ticketing-conformance', version: suiteVersion },
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      targetConcurrency: config.targetConcurrency,
      ...(config.shard ? { shard: { ...config.shard, targetsInFile: targets.length } } : {}),
      targets: rows,
      errors: [],
    },
    scanner,
  );
  const writtenFiles = await writeMatrix(matrix, config.out, scanner, listedTargets());
  return { matrix, writtenFiles };
}

/** What every target of one matrix run shares. */
interface Fleet {
  config: Config;
  baseline: LoadedBaseline | undefined;
  hooks: MatrixHooks;
  surroundings: MatrixSurroundings;
  scanner: SecretScanner;
  secrets: FleetSecrets;
  newFolders: boolean;
  /** Each target's files as it is written (paths relative to the matrix's folder), for the folder's list. */
  targetFiles: string[];
}

/** What the fleet's targets are written with, wherever they are written. */
function fleetReports({ config, baseline, secrets, newFolders }: Fleet): FleetReports {
  return {
    id: randomUUID(),
    out: config.out,
    reports: config.reports.filter((kind) => kind !== 'allure'),
    ...(baseline ? { baseline } : {}),
    newFolders,
    secrets,
  };
}

/**
 * What the judging thread gives for a target it wrote (see in-judging-thread.ts): its row of the matrix and its files.
 * Nothing when it could not write it, or was not asked.
 */
function writtenTarget(finished: unknown): WrittenTarget | undefined {
  return finished as WrittenTarget | undefined;
}

/** The folders holding the files (paths with "/" between segments), each once, every level of each: the targets folder too. */
function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (let end = file.indexOf('/'); end !== -1; end = file.indexOf('/', end + 1)) folders.add(file.slice(0, end));
  }
  return [...folders];
}

/**
 * Each target through the pipeline and its reports written, in the order they are written. The judging thread, which
 * holds a target's recording, classification and scenarios, diagnoses, builds and writes its reports there and hands
 * back its row, while this thread records the next targets; a target it could not write is written here.
 */
async function testAndWriteEach(selected: readonly Positioned[], fleet: Fleet): Promise<MatrixTarget[]> {
  const { config, hooks, surroundings, scanner, targetFiles } = fleet;
  const rows: MatrixTarget[] = [];
  const { judge, own } = judgeFor(surroundings.judge, { timeoutMs: judgeTimeoutMs(selected) });
  const fleetOrder = fleetReports(fleet);
  // Rows are taken one at a time, in the order the targets' reports are written.
  let writing = Promise.resolve();
  const recordingTurn = slots(config.targetConcurrency);
  // A target's connections serve the next target on the same host once it is recorded.
  const connections = new SharedConnections(config.targetConcurrency);
  const testAndWrite = async (entry: Positioned): Promise<void> => {
    const target: PlannedTarget = { ...entry, embeddedReference: false };
    const { interruption } = surroundings;
    // After Ctrl-C or SIGTERM, a target not yet recorded sends nothing: its report says it was cut short.
    const recorded = await recordingTurn(() => recordPass(target, scanner, { connections, ...(interruption ? { interruption } : {}) }));
    // A target's pass ends when its answers are in: its report's time is its own, not its wait for a batch to be judged.
    const pass = { ...recorded, finishedAt: recorded.finishedAt ?? new Date() };
    // While a whole batch already waits to be judged, the judging thread is the busier one: this thread writes the target.
    const inThread = (judge.waitingTargets?.() ?? 0) < MAX_BATCH;
    const targetOrder = targetReports(fleetOrder, entry, pass);
    const order = inThread ? await writeTargetRecording(targetOrder, scanner) : targetOrder;
    const { judged } = await judgePass(pass, judge, inThread ? order : undefined);
    const written = writing.then(async () => {
      // A target the judging thread did not write may have been begun there: its files are written over what it began.
      const { row, files: written } =
        writtenTarget(judged.finished) ?? (await writeTargetReports(order, judged, scanner, { begun: inThread }));
      rows.push(row);
      targetFiles.push(...written);
      hooks.onTarget?.(row, rows.length, selected.length);
      // What the target's reports needed is garbage now: collected once enough has gathered, it never piles up.
      collectGarbageWhenGrown();
    });
    writing = written;
    await written;
  };
  try {
    // The next targets are recorded while the judging thread judges and writes a batch. A second batch in flight let
    // the main thread wait less but cost more than it saved: a recording that waits that long survives into V8's old
    // generation, and a fleet took more CPU and memory.
    await eachBounded(selected, config.targetConcurrency + MAX_BATCH, testAndWrite);
  } finally {
    await Promise.all([own?.close(), connections.close()]);
  }
  return rows;
}

/** One target's reports to write: where it is in the targets file, and what its pass recorded. */
function targetReports(fleet: FleetReports, entry: Positioned, pass: Pass): TargetReports {
  return {
    fleet,
    name: entry.name,
    position: entry.position,
    facts: passFacts(pass),
    ...(pass.recording ? { recording: pass.recording } : {}),
  };
}
