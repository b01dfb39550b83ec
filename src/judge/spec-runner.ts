import { randomUUID } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSpecification, Vitest } from 'vitest/node';
import type { ScenarioResult } from './scenario-result.js';
import type { Recording } from '../record/recording.js';
import { requestChoices, type RequestChoices } from '../record/settings.js';
import { recordedTarget, type ProvidedTarget } from './provided.js';
import { compiled, packageRoot, sourceDir, specPattern, specsDir } from '../paths.js';

import { requirementTags } from '../requirements/tags.js';
import { ScenarioCollector } from './collector.js';
import { LastingThread } from './lasting-thread.js';
import { suiteError, suiteFailure } from '../errors.js';
import type { RunError } from '../errors.js';

export interface SpecRunnerOptions {
  timeoutMs: number;
  /** Told after each scenario, for a live progress line. */
  onScenario?(result: ScenarioResult, done: number): void;
}

/**
 * One target to judge: what its requests chose, its label when a spec run judges several, and its recording, or why
 * there is none (its scenarios then say that nothing could be judged, and why).
 */
export type JudgeInput = { settings: RequestChoices; label?: string } & ({ recording: Recording } | { failure: string });

/** What one spec run found: the scenarios of each target, in the order of the batch, and errors that hit them all. */
export interface Judged {
  scenarios: ScenarioResult[][];
  errors: RunError[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where Vitest keeps the specs it transformed, keyed by their content, so later runs skip the transform. */
const MODULE_CACHE = join(packageRoot, 'node_modules', '.cache', 'ticketing-conformance', 'vitest');

/** The module cache when its folder can be written (a read-only install goes without it). */
function moduleCache(): { fsModuleCache: boolean; fsModuleCachePath?: string } {
  try {
    mkdirSync(MODULE_CACHE, { recursive: true });
    accessSync(MODULE_CACHE, constants.W_OK);
    return { fsModuleCache: true, fsModuleCachePath: MODULE_CACHE };
  } catch {
    return { fsModuleCache: false };
  }
}

/**
 * One Vitest instance, started once and reused for every batch of recorded targets.
 * Every batch is one spec run in the same worker thread, which keeps its modules across spec files (isolate false)
 * and across runs (a lasting thread), so a batch costs only its judging.
 */
export class SpecRunner {
  private constructor(
    private readonly vitest: Vitest,
    private readonly specs: TestSpecification[],
    private readonly collector: ScenarioCollector,
    private readonly thread: LastingThread,
  ) {}

  static async start(options: SpecRunnerOptions): Promise<SpecRunner> {
    // Loaded here, not at the top: the CLI sends its first requests while Vitest loads.
    const { createVitest } = await import('vitest/node');
    const collector = new ScenarioCollector(options.onScenario);
    const thread = new LastingThread();
    const vitest = await createVitest(
      'test',
      {
        config: false,
        root: packageRoot,
        dir: specsDir,
        include: [specPattern],
        // An installed package lives under node_modules, which Vitest's default exclude would leave out.
        exclude: [],
        watch: false,
        // A worker thread: the recordings are handed over with Vitest's provide/inject, without leaving this process.
        pool: thread.pool,
        isolate: false,
        // Compiled, the suite's own modules are plain JavaScript: the worker imports them natively instead of
        // through Vite's module runner, which halves the worker's memory (about 30 MB less at the peak).
        ...(compiled ? { server: { deps: { external: [new RegExp(`${escapeRegExp(sourceDir)}/`)] } } } : {}),
        maxWorkers: 1,
        fileParallelism: false,
        reporters: [collector],
        testTimeout: options.timeoutMs,
        tags: requirementTags,
        includeTaskLocation: false,
        // Saves the transform of every spec and harness module on each run after the first (about a tenth of a run).
        experimental: moduleCache(),
      },
      { logLevel: 'silent' },
    );
    return new SpecRunner(vitest, await vitest.globTestSpecifications(), collector, thread);
  }

  /** Judges a batch of targets: each one's scenarios, in the order of the batch. */
  async judge(batch: readonly JudgeInput[]): Promise<Judged> {
    this.collector.reset();
    const errors: RunError[] = [];
    const previousExitCode = process.exitCode;
    const targets = batch.map((input): ProvidedTarget => {
      // The token and the address stay in this process: the judge reads answers, it never sends a request.
      const settings = requestChoices(input.settings);
      if ('recording' in input) return recordedTarget(settings, input.recording, input.label);
      return { settings, failure: input.failure, ...(input.label === undefined ? {} : { label: input.label }) };
    });
    try {
      this.vitest.provide('conformance', { specRunId: randomUUID(), targets });
      await this.vitest.runTestSpecifications(this.specs, true);
    } catch (error) {
      errors.push(suiteFailure('the spec runner', error));
    }
    // Vitest marks the process failed when a spec fails; the CLI decides the exit code from the report instead.
    process.exitCode = previousExitCode;
    if (this.specs.length === 0) errors.push(suiteError(`no spec file was found under ${specsDir}`));
    errors.push(...this.collector.errors);
    return {
      scenarios: batch.map((_, index) => this.collector.scenarios.filter((scenario) => (scenario.targetIndex ?? 0) === index)),
      errors,
    };
  }

  /** A heap snapshot of the judging thread, written to `path`; none before the first batch. */
  writeHeapSnapshot(path: string): Promise<string | undefined> {
    return this.thread.writeHeapSnapshot(path);
  }

  /** The judging thread's V8 heap in use, in bytes; none before the first batch. */
  judgingHeapUsedBytes(): Promise<number | undefined> {
    return this.thread.heapUsedBytes();
  }

  async close(): Promise<void> {
    await this.vitest.close();
    await this.thread.close();
  }
}
