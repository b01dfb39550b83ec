import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { collectTests, startTests, type VitestRunner, type VitestRunnerConfig } from '@vitest/runner';
import { suiteError, suiteFailure, type RunError } from '../errors.js';
import { packageRoot, specSuffix, specsDir } from '../paths.js';
import { requirementTags } from '../requirements/tags.js';
import { provideSpecRun } from './context.js';
import type { ProvidedTarget } from './provided.js';
import type { ScenarioResult } from './scenario-result.js';
import { registerSpecFile } from './scenario.js';
import {
  HEAP_SNAPSHOT,
  HEAP_USED,
  JUDGE,
  JUDGED,
  SCENARIO,
  isThreadMessage,
  type JudgeQuestion,
  type ThreadAnswer,
} from './thread-messages.js';

/**
 * The judging thread's work: each batch of recorded targets is one spec run of Vitest's runner (@vitest/runner, the
 * runner Vitest's own workers run tests with), over the same spec files plain Vitest runs. The thread lives as long as
 * its command, so the specs and the suite's modules load once; each run's tasks are dropped once it has answered.
 */
const port = parentPort;
if (!port) throw new Error('the spec engine runs only in the judging thread');

const BUG_HINT = 'This is a bug in the suite; please report it with the report.json';

/**
 * The spec files, in a stable order: TypeScript from source, JavaScript once compiled. Listed once: they do not change
 * while the thread lives, and an exporter's thread judges batch after batch.
 */
const SPEC_FILES = readdirSync(specsDir, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith(specSuffix))
  .map((name) => join(specsDir, name))
  .sort();

/** Vitest's runner settings: every test in order, one at a time, no retry, each bounded by the time-out. */
function runnerConfig(timeoutMs: number): VitestRunnerConfig {
  return {
    root: packageRoot,
    setupFiles: [],
    name: undefined,
    passWithNoTests: false,
    testNamePattern: undefined,
    allowOnly: false,
    sequence: { seed: 0, hooks: 'stack', setupFiles: 'list' },
    chaiConfig: undefined,
    maxConcurrency: 1,
    testTimeout: timeoutMs,
    hookTimeout: timeoutMs,
    retry: 0,
    includeTaskLocation: false,
    // The requirement IDs are the tests' tags, as under plain Vitest (vitest.specs.config.ts).
    tags: requirementTags,
    tagsFilter: undefined,
    strictTags: true,
  };
}

const firstLine = (message: string | undefined): string => (message ?? 'unknown').split('\n')[0] ?? '';

/**
 * Errors that escape a spec (a promise nobody awaited), told with the run they happened in, or with the next run when
 * they came between two: the thread keeps running, and the run that tells them gets a fresh thread after it.
 */
const escaped: RunError[] = [];
const escape = (error: unknown): void => {
  const message = error instanceof Error ? error.message : String(error);
  escaped.push({
    code: 'HARNESS_INTERNAL',
    message: `an error escaped the specs: ${firstLine(message)}`,
    hint: BUG_HINT,
    party: 'suite',
  });
};
process.on('unhandledRejection', escape);
process.on('uncaughtException', escape);

/**
 * The stages on either side of judging that run in this thread, where the recordings are, registered by the thread's
 * entry (the pipeline's): classifying a recorded target handed in without its classification, and what to do with each
 * target once judged when the question asks it (a matrix's reports, diagnosed, built and written beside the thread that
 * records). Finishing gives each target its outcome, or undefined for one it could not finish, whose scenarios then
 * cross as they would without it.
 */
interface AroundJudging {
  classify(target: ProvidedTarget): ProvidedTarget;
  finish(finish: readonly unknown[], scenarios: ScenarioResult[][], errors: readonly RunError[]): Promise<unknown[]>;
}
let around: AroundJudging | undefined;

export function judgeWithin(stages: AroundJudging): void {
  around = stages;
}

/** The run's scenarios that cross to the main thread, and what finishing the targets that asked for it gave. */
async function finishedOrJudged(
  { targets, finish, live }: JudgeQuestion,
  judged: ScenarioResult[],
  errors: readonly RunError[],
): Promise<{ scenarios?: ScenarioResult[]; finished?: unknown[] }> {
  const crossing = (scenarios: ScenarioResult[]): { scenarios?: ScenarioResult[] } => (live ? {} : { scenarios });
  if (!finish || !around) return crossing(judged);
  const ofEach = targets.map((): ScenarioResult[] => []);
  for (const scenario of judged) ofEach[scenario.targetIndex ?? 0]?.push(scenario);
  try {
    const finished = await around.finish(finish, ofEach, errors);
    return { ...crossing(ofEach.flatMap((scenarios, index) => (finished[index] === undefined ? scenarios : []))), finished };
  } catch {
    // Nothing finished here is finished by the main thread, as it would be without the step.
    return crossing(judged);
  }
}

async function judge(question: JudgeQuestion): Promise<void> {
  const { specRunId, targets, timeoutMs, live } = question;
  const post = (answer: ThreadAnswer): void => port?.postMessage(answer);
  const errors: RunError[] = [];
  const judged: ScenarioResult[] = [];
  const stages = around;
  provideSpecRun({ specRunId, targets: stages ? targets.map((target) => stages.classify(target)) : targets, testPerScenario: true });
  const runner: VitestRunner = {
    config: runnerConfig(timeoutMs),
    importFile: (path) => registerSpecFile(path),
    // Called once per test (no retry, no repeat), passed, failed or skipped alike.
    onTaskFinished(test) {
      const results = test.meta.conformance;
      if (!results && test.result?.state === 'fail') {
        // A scenario that ended before it recorded anything (its time-out, a crash of the harness around it).
        errors.push(suiteError(`${test.name} ended without a result: ${firstLine(test.result.errors?.[0]?.message)}`));
      }
      for (const result of results ?? []) {
        try {
          if (live) post({ type: SCENARIO, specRunId, result });
          else judged.push(result);
        } catch (error) {
          // A result that cannot cross to the main thread is the suite's fault, never a verdict left out in silence.
          errors.push(suiteFailure(`handing over scenario ${result.id}`, error));
        }
      }
    },
  };
  try {
    if (SPEC_FILES.length === 0) errors.push(suiteError(`no spec file was found under ${specsDir}`));
    for (const file of await startTests(SPEC_FILES, runner)) {
      for (const error of file.result?.errors ?? []) {
        errors.push({
          code: 'HARNESS_INTERNAL',
          message: `spec ${file.name} could not run: ${firstLine(error.message)}`,
          hint: BUG_HINT,
          party: 'suite',
        });
      }
    }
  } catch (error) {
    errors.push(suiteFailure('the spec runner', error));
  }
  errors.push(...escaped.splice(0));
  post({ type: JUDGED, specRunId, errors, ...(await finishedOrJudged(question, judged, errors)) });
}

/**
 * Loads every spec file while the thread has nothing else to do (the main thread is still recording): a collection
 * for no target registers no test, but imports each file and notes its scenarios, so the first batch finds them loaded.
 */
async function loadSpecFiles(): Promise<void> {
  provideSpecRun({ specRunId: 'loading', targets: [] });
  try {
    await collectTests(SPEC_FILES, { config: runnerConfig(0), importFile: (path) => registerSpecFile(path) });
  } catch {
    // A spec file that cannot load says so in the first batch, whose collection imports it again.
  }
}

/** One spec run at a time, in the order asked, after the spec files have loaded. */
let queue: Promise<void> = loadSpecFiles();

port.on('message', (message: unknown) => {
  if (!isThreadMessage(message)) return;
  if (message.type === JUDGE) {
    // Whatever fails in a run, the main thread hears that it ended: it waits for nothing else.
    queue = queue
      .then(() => judge(message))
      .catch((error: unknown) => {
        port.postMessage({
          type: JUDGED,
          specRunId: message.specRunId,
          errors: [suiteFailure('the spec run', error)],
        } satisfies ThreadAnswer);
      });
  } else if (message.type === HEAP_SNAPSHOT) {
    port.postMessage({ type: HEAP_SNAPSHOT, path: writeHeapSnapshot(message.path) } satisfies ThreadAnswer);
  } else if (message.type === HEAP_USED) {
    port.postMessage({ type: HEAP_USED, bytes: process.memoryUsage().heapUsed } satisfies ThreadAnswer);
  }
});
