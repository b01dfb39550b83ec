import { randomUUID } from 'node:crypto';
import type { ScenarioResult } from './scenario-result.js';
import type { Classification } from '../classify/types.js';
import type { Recording } from '../record/recording.js';
import { requestChoices, type RequestChoices } from '../record/settings.js';
import { providedTarget, type ProvidedTarget } from './provided.js';
import { LastingThread } from './lasting-thread.js';
import { JUDGE, JUDGED, SCENARIO } from './thread-messages.js';
import { suiteError } from '../errors.js';
import type { RunError } from '../errors.js';

export interface SpecRunnerOptions {
  timeoutMs: number;
  /** Told after each scenario, for a live progress line. */
  onScenario?(result: ScenarioResult, done: number): void;
}

/**
 * One target to judge: what its requests chose, its label when a spec run judges several, and its recording, or why
 * there is none (its scenarios then say that nothing could be judged, and why). `finish` is what the judging thread
 * is to do with the target once judged, for the step its entry registered (finishJudgedTargets): the judge carries it
 * across and never reads it.
 */
export type JudgeInput = { settings: RequestChoices; label?: string; finish?: unknown } & (
  { recording: Recording; classification?: Classification } | { failure: string }
);

/**
 * What one spec run found: the scenarios of each target, in the order of the batch, and errors that hit them all; for
 * a target the thread finished, what finishing it gave instead of its scenarios.
 */
export interface Judged {
  scenarios: ScenarioResult[][];
  errors: RunError[];
  finished?: unknown[];
}

/**
 * Judges batches of recorded targets in one lasting thread, where Vitest's runner runs the specs (spec-engine.ts).
 * This thread hands each recording over, to be classified there unless it comes classified; it never loads Vitest itself.
 */
export class SpecRunner {
  private readonly thread = new LastingThread();

  private constructor(private readonly options: SpecRunnerOptions) {}

  /** A runner whose thread starts now: the spec engine loads while the recordings are made. */
  static start(options: SpecRunnerOptions): Promise<SpecRunner> {
    const runner = new SpecRunner(options);
    runner.thread.start();
    return Promise.resolve(runner);
  }

  /** Judges a batch of targets: each one's scenarios, in the order of the batch. */
  judge(batch: readonly JudgeInput[]): Promise<Judged> {
    const targets = batch.map((input): ProvidedTarget => {
      // The token and the address stay in this process: the judge reads answers, it never sends a request.
      const settings = requestChoices(input.settings);
      if ('recording' in input) return providedTarget(settings, input.recording, input.classification, input.label);
      return { settings, failure: input.failure, ...(input.label === undefined ? {} : { label: input.label }) };
    });
    const finish = batch.some((input) => input.finish !== undefined) ? { finish: batch.map((input) => input.finish) } : {};
    const specRunId = randomUUID();
    const scenarios: ScenarioResult[] = [];
    const { onScenario } = this.options;
    return new Promise((resolve) => {
      const done = (errors: RunError[], finished?: unknown[]): void => {
        stopListening();
        stopWaiting();
        const ofEach = batch.map((_, index) => scenarios.filter((scenario) => (scenario.targetIndex ?? 0) === index));
        resolve({ scenarios: ofEach, errors, ...(finished ? { finished } : {}) });
      };
      const stopListening = this.thread.listen((answer) => {
        if (answer.type === SCENARIO && answer.specRunId === specRunId) {
          scenarios.push(answer.result);
          onScenario?.(answer.result, scenarios.length);
        } else if (answer.type === JUDGED && answer.specRunId === specRunId) {
          scenarios.push(...(answer.scenarios ?? []));
          done(answer.errors, answer.finished);
        }
      });
      const stopWaiting = this.thread.onceEnded((cause) => done([suiteError(cause)]));
      // Each scenario crosses on its own only for someone who follows them live; otherwise the run's all cross at once.
      this.thread.post({ type: JUDGE, specRunId, targets, ...finish, timeoutMs: this.options.timeoutMs, live: onScenario !== undefined });
    });
  }

  /** A heap snapshot of the judging thread, written to `path`; none before the first batch. */
  writeHeapSnapshot(path: string): Promise<string | undefined> {
    return this.thread.writeHeapSnapshot(path);
  }

  /** The judging thread's V8 heap in use, in bytes; none before the first batch. */
  judgingHeapUsedBytes(): Promise<number | undefined> {
    return this.thread.heapUsedBytes();
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
