import type { RunError } from './types.js';

/** An error of the suite itself: never the target's fault. */
export function suiteError(message: string): RunError {
  return { code: 'HARNESS_INTERNAL', message, hint: 'This is a bug in the suite; please report it', party: 'suite' };
}

export function suiteFailure(what: string, error: unknown): RunError {
  return suiteError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
}
