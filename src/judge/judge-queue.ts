import type { Recording } from '../record/recording.js';
import type { RequestChoices } from '../record/settings.js';
import type { ScenarioResult } from './scenario-result.js';
import { collectGarbage } from './memory.js';
import { SpecRunner } from './spec-runner.js';
import { suiteFailure } from '../errors.js';
import type { RunError } from '../errors.js';

/** As in a matrix run: the most recordings one spec run judges, which bounds the memory of a batch. */
const MAX_BATCH = 32;
/**
 * A full collection after a batch, as the matrix does, but not after every one: a long-lived queue (the exporter's)
 * judges small batches all day long, and a full collection costs CPU that the judging needs.
 */
const COLLECT_EVERY_MS = 30_000;
/** The judging thread answers between two spec runs; /metrics does not wait longer than this for it. */
const HEAP_ANSWER_MS = 2000;

/**
 * One recorded run to judge: what its requests chose, its label when a spec run judges several, and its recording
 * (a recording that failed is judged as such: its scenarios say why).
 */
export interface QueuedRun {
  settings: RequestChoices;
  label?: string;
  recording: Recording | Promise<Recording>;
}

interface Waiting {
  run: QueuedRun;
  resolve(judged: { scenarios: ScenarioResult[]; errors: RunError[] }): void;
}

/**
 * One Vitest instance for many runs and a long time (the exporter's lifetime, a self-test worker's). Recordings are
 * made concurrently, each at its target's pace; judging is CPU work in one worker, so recordings that arrive while a
 * batch is judged wait and go together in the next.
 */
export class JudgeQueue {
  private runner?: Promise<SpecRunner>;
  private readonly waiting: Waiting[] = [];
  private draining = false;
  private closed = false;
  private collectedAt = Date.now();

  /** onReplaced hears why a spec runner was replaced: the cause names no target and no token. */
  constructor(
    private readonly timeoutMs: number,
    private readonly onReplaced: (cause: string) => void = () => undefined,
  ) {}

  judge(run: QueuedRun): Promise<{ scenarios: ScenarioResult[]; errors: RunError[] }> {
    return new Promise((resolve) => {
      this.waiting.push({ run, resolve });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        try {
          const runner = await this.started();
          const judged = await runner.judge(batch.map((item) => item.run));
          batch.forEach((item, index) => item.resolve({ scenarios: judged.scenarios[index] ?? [], errors: judged.errors }));
          const broken = judged.errors.find((error) => error.party === 'suite');
          if (broken) await this.replace(runner, broken.message);
          if (Date.now() - this.collectedAt > COLLECT_EVERY_MS) {
            collectGarbage();
            this.collectedAt = Date.now();
          }
        } catch (error) {
          for (const item of batch) item.resolve({ scenarios: [], errors: [suiteFailure('the spec runner', error)] });
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * A spec run that failed as a whole leaves Vitest in a state nobody has tested: the next batch gets a new instance,
   * and the owner hears the cause once.
   */
  private async replace(runner: SpecRunner, cause: string): Promise<void> {
    this.onReplaced(cause);
    this.runner = undefined;
    await runner.close().catch(() => undefined);
    this.warmUp();
  }

  /** Starts Vitest ahead of the first probe, so that probe's run is not cut short by the start-up. */
  warmUp(): void {
    this.started().catch(() => undefined);
  }

  private started(): Promise<SpecRunner> {
    if (this.closed) return Promise.reject(new Error('the exporter is stopping'));
    if (!this.runner) {
      const starting = SpecRunner.start({ timeoutMs: this.timeoutMs });
      // A runner that could not start is tried again for the next batch, not kept broken for the exporter's lifetime.
      starting.catch(() => {
        if (this.runner === starting) this.runner = undefined;
      });
      this.runner = starting;
    }
    return this.runner;
  }

  /** The judging thread's heap in use, or none while it is busy judging for longer than a scrape should wait. */
  async judgingHeapUsedBytes(): Promise<number | undefined> {
    const runner = await this.runner?.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const busy = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), HEAP_ANSWER_MS)));
    try {
      return await Promise.race([runner?.judgingHeapUsedBytes(), busy]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const runner = await this.runner?.catch(() => undefined);
    await runner?.close();
  }
}
