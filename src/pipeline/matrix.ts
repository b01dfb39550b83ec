import { join, relative, sep } from 'node:path';
import type { LoadedBaseline } from '../config/baseline.js';
import type { Config } from '../config/settings.js';
import { prepareOutDir } from '../config/out-dir.js';
import type { TargetEntry } from '../config/targets.js';
import type { Recording } from '../record/recording.js';
import { applyBaseline } from '../report/model/baseline.js';
import { buildMatrix, matrixRow } from '../report/matrix/build.js';
import type { Matrix, MatrixTarget } from '../report/matrix/types.js';
import { writeMatrix } from '../report/matrix/write.js';

import { clearOwnOutputs } from '../report/artifacts.js';
import { createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { writeReports } from '../report/write.js';
import { recordTarget, type TargetSettings } from '../record/recorder.js';
import { recordingFiles, targetReport } from './conclude.js';
import { DEADLINE_GRACE_MS, targetSettings, type JudgeRun, type RunSurroundings } from './run.js';
import { shardOf } from './shard.js';
import { SpecRunner } from '../judge/spec-runner.js';
import type { ScenarioResult } from '../judge/scenario-result.js';
import { suiteVersion } from '../version.js';
import { collectGarbageWhenGrown } from '../judge/memory.js';
import { suiteFailure } from '../errors.js';
import type { RunError } from '../errors.js';

/** Most recorded targets judged in one spec run: bounds memory, whatever the number of targets. */
const MAX_BATCH = 32;
export const TARGETS_DIR = 'targets';

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

interface Recorded {
  entry: TargetEntry & { position: number };
  settings: TargetSettings;
  startedAt: Date;
  recording?: Recording;
  failure?: RunError;
}

/**
 * Records targets over the network, at most `targetConcurrency` at once, while one Vitest instance judges
 * whatever is recorded, in batches. Memory holds at most the targets in flight and one batch.
 */
class Pipeline {
  private readonly pending: (TargetEntry & { position: number })[];
  private readonly ready: Recorded[] = [];
  private inFlight = 0;
  private wake: () => void = () => undefined;

  constructor(
    targets: (TargetEntry & { position: number })[],
    private readonly concurrency: number,
    private readonly scanner: SecretScanner,
  ) {
    this.pending = [...targets];
  }

  /** The next batch of recorded targets, or undefined when every target has been handed out. */
  async nextBatch(): Promise<Recorded[] | undefined> {
    this.fill();
    while (this.ready.length === 0) {
      if (this.pending.length === 0 && this.inFlight === 0) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const batch = this.ready.splice(0, MAX_BATCH);
    this.fill();
    return batch;
  }

  private fill(): void {
    while (
      this.pending.length > 0 &&
      this.inFlight < this.concurrency &&
      this.ready.length + this.inFlight < MAX_BATCH + this.concurrency
    ) {
      const entry = this.pending.shift();
      if (!entry) return;
      this.inFlight += 1;
      const startedAt = new Date();
      const settings = targetSettings(entry.options, entry.baseUrl, entry.token, startedAt, true);
      void recordTarget(settings, { scanner: this.scanner })
        .then(
          (recording) => this.ready.push({ entry, settings, startedAt, recording }),
          (error: unknown) => this.ready.push({ entry, settings, startedAt, failure: suiteFailure('recording the target', error) }),
        )
        .finally(() => {
          this.inFlight -= 1;
          this.fill();
          this.wake();
        });
    }
  }
}

/** Each target's scenarios, and the errors of the spec run that judged it. */
type TargetJudged = { scenarios: ScenarioResult[]; errors: RunError[] };
/** Judges batches of recorded targets; a target whose recording failed gets no scenarios (its failure says why). */
interface BatchJudge {
  judge(batch: Recorded[]): Promise<TargetJudged[]>;
  close(): Promise<void>;
}

/** The matrix's own spec runner: each batch is one spec run. */
async function ownRunner(timeoutMs: number): Promise<BatchJudge> {
  const runner = await SpecRunner.start({ timeoutMs }).catch((error: unknown) => suiteFailure('the spec runner', error));
  if (!(runner instanceof SpecRunner)) {
    return { judge: async (batch) => batch.map(() => ({ scenarios: [], errors: [runner] })), close: async () => undefined };
  }
  return {
    async judge(batch) {
      const runnable = batch.filter((item) => item.recording);
      if (runnable.length === 0) return batch.map(() => ({ scenarios: [], errors: [] }));
      const judged = await runner.judge(
        runnable.map((item) => ({ settings: item.settings, recording: item.recording as Recording, label: item.entry.name })),
      );
      const byItem = new Map(runnable.map((item, index) => [item, judged.scenarios[index] ?? []]));
      return batch.map((item) => ({ scenarios: byItem.get(item) ?? [], errors: judged.errors }));
    },
    close: () => runner.close(),
  };
}

/** A judge shared with other runs (the command's): each target is handed over alone, and it batches what arrives. */
function sharedRunner(judge: JudgeRun): BatchJudge {
  return {
    judge: (batch) =>
      Promise.all(
        batch.map(async (item): Promise<TargetJudged> => {
          if (!item.recording) return { scenarios: [], errors: [] };
          const judged = await judge({ settings: item.settings, recording: item.recording, label: item.entry.name });
          return { scenarios: judged.scenarios[0] ?? [], errors: judged.errors };
        }),
      ),
    close: async () => undefined,
  };
}

/** Tests every target of the targets file (or of one shard of it) and writes each one's reports and the matrix. */
export async function runMatrix(
  config: Config,
  targets: TargetEntry[],
  baseline: LoadedBaseline | undefined,
  hooks: MatrixHooks = {},
  surroundings: Pick<RunSurroundings, 'judge'> = {},
): Promise<MatrixResult> {
  const startedAt = hooks.startedAt ?? new Date();
  const selected = shardOf(
    targets.map((entry, position) => ({ ...entry, position })),
    config.shard,
  );
  const rows: MatrixTarget[] = [];
  // Every token and password this run sends, for every target and the matrix: a front that several targets share (a CDN,
  // a debugging proxy) can show one target's token in another's answers. Built once, it serves every client and every artifact.
  const scanner = createSecretScanner(
    selected.map((entry) => entry.token),
    selected.map((entry) => entry.options.password),
  );
  await prepareOutDir(config.out);
  await clearOwnOutputs(config.out);
  if (selected.length > 0) {
    const timeoutMs = Math.max(...selected.map((entry) => entry.options.deadlineMs)) + DEADLINE_GRACE_MS;
    const pipeline = new Pipeline(selected, config.targetConcurrency, scanner);
    const judging = surroundings.judge ? sharedRunner(surroundings.judge) : await ownRunner(timeoutMs);
    const writeBatch = async (batch: Recorded[], judged: TargetJudged[]): Promise<void> => {
      for (const [index, item] of batch.entries()) {
        const { scenarios = [], errors: runErrors = [] } = judged[index] ?? {};
        const errors = [...runErrors, ...(item.failure ? [item.failure] : [])];
        const row = await writeTarget(config, item, scenarios, errors, baseline, scanner);
        rows.push(row);
        hooks.onTarget?.(row, rows.length, selected.length);
      }
      // What the batch's reports needed is garbage now: collected once enough has gathered, it never piles up.
      collectGarbageWhenGrown();
    };
    // One batch is written while the next is judged: the CLI's thread writes, the worker's judges.
    let writing = Promise.resolve();
    try {
      for (let batch = await pipeline.nextBatch(); batch; batch = await pipeline.nextBatch()) {
        const judged = await judging.judge(batch);
        await writing;
        writing = writeBatch(batch, judged);
      }
      await writing;
    } finally {
      await judging.close();
    }
  }
  // finishedAt and durationMs are set by writeMatrix, once every target's reports are written.
  const matrix = buildMatrix({
    suite: { name: 'ticketing-conformance', version: suiteVersion },
    startedAt: startedAt.toISOString(),
    finishedAt: startedAt.toISOString(),
    durationMs: 0,
    targetConcurrency: config.targetConcurrency,
    ...(config.shard ? { shard: { ...config.shard, targetsInFile: targets.length } } : {}),
    targets: rows,
    errors: [],
  });
  const writtenFiles = await writeMatrix(matrix, config.out, scanner, { runStartedAt: startedAt });
  return { matrix, writtenFiles };
}

async function writeTarget(
  config: Config,
  item: Recorded,
  scenarios: ScenarioResult[],
  errors: RunError[],
  baseline: LoadedBaseline | undefined,
  scanner: SecretScanner,
): Promise<MatrixTarget> {
  const report = targetReport({
    options: item.entry.options,
    baseUrl: item.entry.baseUrl,
    embeddedReference: false,
    startedAt: item.startedAt,
    runId: item.settings.runId,
    scenarios,
    errors,
  });
  if (baseline) applyBaseline(report, baseline, item.entry.name);
  const dir = join(config.out, TARGETS_DIR, item.entry.name);
  await clearOwnOutputs(dir);
  // The matrix summary, not each target's, belongs in a CI job summary.
  const recorded = item.recording ? [{ startedAt: item.startedAt, recording: item.recording }] : [];
  await writeReports(report, dir, scanner, { allure: false, jsonFiles: recordingFiles(report, recorded, scanner) });
  return matrixRow(report, item.entry.name, item.entry.position, relative(config.out, dir).split(sep).join('/'));
}
