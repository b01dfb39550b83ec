import type { RunError } from './types.js';

/** An error of the suite itself: never the target's fault. */
export function suiteError(message: string): RunError {
  return { code: 'HARNESS_INTERNAL', message, hint: 'This is a bug in the suite; please report it', party: 'suite' };
}

export function suiteFailure(what: string, error: unknown): RunError {
  return suiteError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** An artifact (or the terminal summary) left unwritten because it would have shown a secret. */
export function leakError(artifact: string, secret: string): RunError {
  return {
    code: 'HARNESS_SECRET_LEAK',
    message: `${artifact} would have contained ${secret}, so it was not written`,
    hint: 'This is a bug in the suite; report it without the file',
    party: 'suite',
  };
}
