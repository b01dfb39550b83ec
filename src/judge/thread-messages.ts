import type { RunError } from '../errors.js';
import type { ProvidedTarget } from './provided.js';
import type { ScenarioResult } from './scenario-result.js';

/**
 * What the judging thread is asked and answers, over its port: a spec run of a batch of targets, and its own memory,
 * which only it can see. judging-thread.js and spec-engine.ts answer with the same types.
 */
export const JUDGE = 'ticketing-conformance:judge';
export const SCENARIO = 'ticketing-conformance:scenario';
export const JUDGED = 'ticketing-conformance:judged';
export const HEAP_SNAPSHOT = 'ticketing-conformance:heap-snapshot';
export const HEAP_USED = 'ticketing-conformance:heap-used';

/**
 * One spec run: the batch's targets, what to do with each once judged (see finishJudgedTargets), how long one scenario
 * may take (a bound against a spec that hangs), and whether each scenario is told as it is judged (for a live progress
 * line) or all of them with the run's end.
 */
export interface JudgeQuestion {
  type: typeof JUDGE;
  specRunId: string;
  targets: ProvidedTarget[];
  finish?: unknown[];
  timeoutMs: number;
  live: boolean;
}

export type ThreadQuestion = JudgeQuestion | { type: typeof HEAP_SNAPSHOT; path: string } | { type: typeof HEAP_USED };

/**
 * Each scenario as soon as it is judged (for a live progress line), then the run's end with the errors that kept a
 * spec from running and, when not told live, its scenarios, but for the targets the thread finished, whose outcomes
 * come in their place; a heap snapshot written to `path`, or the V8 heap in use, in bytes.
 */
export type ThreadAnswer =
  | { type: typeof SCENARIO; specRunId: string; result: ScenarioResult }
  | { type: typeof JUDGED; specRunId: string; errors: RunError[]; scenarios?: ScenarioResult[]; finished?: unknown[] }
  | { type: typeof HEAP_SNAPSHOT; path: string }
  | { type: typeof HEAP_USED; bytes: number };

const TYPES: ReadonlySet<unknown> = new Set([JUDGE, SCENARIO, JUDGED, HEAP_SNAPSHOT, HEAP_USED]);

/** Whether a message on the port is one of ours (a question in the thread, an answer outside it). */
export function isThreadMessage(message: unknown): message is ThreadQuestion | ThreadAnswer {
  return typeof message === 'object' && message !== null && TYPES.has((message as { type?: unknown }).type);
}
