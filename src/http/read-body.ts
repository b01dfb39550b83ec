import type { Readable } from 'node:stream';
import { HarnessError } from '../errors.js';
import type { BodyBudget } from './body-budget.js';

export interface BodyLimits {
  budget: BodyBudget;
  /** Time the whole body may take once the headers are in: a slow drip is cut as surely as a stall. */
  timeoutMs: number;
}

function tooLarge(path: string, detail: string): HarnessError {
  return new HarnessError(
    'HARNESS_BODY_TOO_LARGE',
    `the response to GET ${path} ${detail}`,
    'The target sent more than a ticket status can need; check what it serves at that path',
    'target',
  );
}

/**
 * Drops a body the suite will not read, and the connection under it. undici's body emits an abort error when destroyed
 * unread; nobody reads it any more, so that error is expected and dropped here rather than left unhandled.
 */
export function abandonBody(body: Readable): void {
  body.on('error', () => undefined).destroy();
}

/** Reads a response body within the target's byte budget and a time limit, dropping the connection as soon as either is passed. */
export async function readBody(body: Readable, declaredLength: string | undefined, limits: BodyLimits, path: string): Promise<Buffer> {
  const { budget } = limits;
  if (declaredLength !== undefined && Number(declaredLength) > budget.limit()) {
    abandonBody(body);
    throw tooLarge(path, `declares ${declaredLength} bytes, more than the ${budget.limit()} the suite reads`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  let reserved = 0;
  const timer = setTimeout(() => {
    body.destroy(
      new HarnessError(
        'HARNESS_TIMEOUT',
        `GET ${path} timed out after ${limits.timeoutMs} ms reading the body (${total} bytes received; body time-out)`,
        'The target sent its headers, then stalled or trickled the body: check the application and anything in front of it, or raise --timeout-ms',
        'environment',
      ),
    );
  }, limits.timeoutMs);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const limit = budget.limit(reserved);
      total += chunk.byteLength;
      const grown = budget.grow(total, reserved);
      if (grown === undefined) {
        budget.cut();
        throw tooLarge(path, `is larger than ${limit} bytes, the most the suite reads of it`);
      }
      reserved = grown;
      chunks.push(chunk);
    }
  } finally {
    clearTimeout(timer);
    budget.release(reserved);
  }
  return Buffer.concat(chunks);
}
