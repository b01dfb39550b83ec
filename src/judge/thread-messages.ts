/**
 * What the judging thread is asked about its own memory, which only it can see. These go next to Vitest's messages on
 * the thread's port; Vitest ignores messages that are not its own. judging-thread.js answers them with the same types.
 */
export const HEAP_SNAPSHOT = 'ticketing-conformance:heap-snapshot';
export const HEAP_USED = 'ticketing-conformance:heap-used';
/** Vitest's variables for its threads, set in the thread before its runtime starts. */
export const THREAD_ENV = 'ticketing-conformance:env';

/** A heap snapshot written to `path`, answered with the file written; or the V8 heap in use, in bytes. */
export type ThreadQuestion =
  | { type: typeof HEAP_SNAPSHOT; path: string }
  | { type: typeof HEAP_USED }
  | { type: typeof THREAD_ENV; env: Record<string, string | undefined> };
export type ThreadAnswer = { type: typeof HEAP_SNAPSHOT; path: string } | { type: typeof HEAP_USED; bytes: number };

/** Whether a message on the port is one of ours (a question in the thread, an answer outside it). */
export function isThreadMessage(message: unknown): message is ThreadQuestion | ThreadAnswer {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof message === 'object' && (type === HEAP_SNAPSHOT || type === HEAP_USED || type === THREAD_ENV);
}
