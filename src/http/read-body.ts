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

/** What a stream that closes before its end, with no error of its own, fails with (as Node's stream.finished says it). */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * Reads a response body within the target's byte budget and a time limit, dropping the connection as soon as either is
 * passed. Read by its events, not an async iterator, whose promises and end-of-stream watch cost more than a small body.
 */
export function readBody(body: Readable, declaredLength: string | undefined, limits: BodyLimits, path: string): Promise<Buffer> {
  const { budget } = limits;
  if (declaredLength !== undefined && Number(declaredLength) > budget.limit()) {
    abandonBody(body);
    return Promise.reject(tooLarge(path, `declares ${declaredLength} bytes, more than the ${budget.limit()} the suite reads`));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let reserved = 0;
    let settled = false;
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
    // The error listener stays once settled: an error the stream emits afterwards has nobody else to hear it.
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      budget.release(reserved);
      body.off('data', onData).off('end', onEnd).off('close', onClose);
      // Most bodies come in one chunk, which needs no copy.
      if (error === undefined) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
      else reject(error as Error);
    };
    const onData = (chunk: Buffer): void => {
      const limit = budget.limit(reserved);
      total += chunk.byteLength;
      const grown = budget.grow(total, reserved);
      if (grown === undefined) {
        budget.cut();
        settle(tooLarge(path, `is larger than ${limit} bytes, the most the suite reads of it`));
        abandonBody(body);
        return;
      }
      reserved = grown;
      chunks.push(chunk);
    };
    const onEnd = (): void => settle();
    const onClose = (): void => settle(prematureClose());
    body.on('data', onData).once('end', onEnd).on('error', settle).once('close', onClose);
  });
}
