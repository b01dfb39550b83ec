import type { ScenarioResult } from './scenario-result.js';
import { collectGarbage } from './memory.js';
import { SpecRunner, type JudgeInput } from './spec-runner.js';
import { suiteFailure } from '../errors.js';
import type { RunError } from '../errors.js';

/** The most recordings one spec run judges, which bounds the memory of a batch whatever the number of targets. */
export const MAX_BATCH = 32;
/**
 * A full collection after a batch, but not after every one: a long-lived queue (the exporter's) judges small batches
 * all day long, and a full collection costs CPU that the judging needs.
 */
const COLLECT_EVERY_MS = 30_000;
/** The judging thread answers between two spec runs; /metrics does not wait longer than this for it. */
const HEAP_ANSWER_MS = 2000;

/**
 * One target's scenarios, and the errors of the spec run that judged it; or, when the judging thread finished the target
 * as its input asked, what that gave (its scenarios then stay in the thread).
 */
export interface TargetJudged {
  scenarios: ScenarioResult[];
  errors: RunError[];
  finished?: unknown;
}

/** What every command judges through: one target at a time, batched with whatever else waits. */
export interface Judge {
  judge(input: JudgeInput): Promise<TargetJudged>;
  /** How many targets wait for a spec run, besides the batch being judged: whether the judging thread is behind. */
  waitingTargets?(): number;
}

export interface JudgeQueueOptions {
  /** Time one spec run may take: a bound against a spec that hangs. */
  timeoutMs: number;
  /** Told after each scenario, for a live progress line. */
  onScenario?(result: ScenarioResult, done: number): void;
  /** Hears why a spec runner was replaced: the cause names no target and no token. */
  onReplaced?(cause: string): void;
}

interface Waiting {
  input: JudgeInput;
  resolve(judged: TargetJudged): void;
}

/**
 * One judging thread for every target a command judges (a run's passes, a matrix's targets, the exporter's probes
 * over its lifetime, a self-test worker's runs). Recordings are made concurrently, each at its target's pace; judging
 * is CPU work in one worker, so recordings that arrive while a batch is judged wait and go together in the next.
 */
export class JudgeQueue implements Judge {
  private runner?: Promise<SpecRunner>;
  private readonly waiting: Waiting[] = [];
  private draining = false;
  private closed = false;
  private collectedAt = Date.now();

  constructor(private readonly options: JudgeQueueOptions) {}

  waitingTargets(): number {
    return this.waiting.length;
  }

  judge(input: JudgeInput): Promise<TargetJudged> {
    return new Promise((resolve) => {
      this.waiting.push({ input, resolve });
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
          const judged = await runner.judge(batch.map((item) => item.input));
          batch.forEach((item, index) => {
            const finished = judged.finished?.[index];
            item.resolve({
              scenarios: judged.scenarios[index] ?? [],
              errors: judged.errors,
              ...(finished === undefined ? {} : { finished }),
            });
          });
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
   * A spec run that failed as a whole leaves the judging thread in a state nobody has tested: the next batch gets a new
   * thread, and the owner hears the cause once.
   */
  private async replace(runner: SpecRunner, cause: string): Promise<void> {
    this.options.onReplaced?.(cause);
    this.runner = undefined;
    await runner.close().catch(() => undefined);
    this.warmUp();
  }

  /** Starts the judging thread before the first recording is in, so its start-up hides behind the network's time. */
  warmUp(): void {
    this.started().catch(() => undefined);
  }

  private started(): Promise<SpecRunner> {
    if (this.closed) return Promise.reject(new Error('the judge is closed'));
    if (!this.runner) {
      const { timeoutMs, onScenario } = this.options;
      const starting = SpecRunner.start({ timeoutMs, ...(onScenario ? { onScenario } : {}) });
      // A runner that could not start is tried again for the next batch, not kept broken for the queue's lifetime.
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
