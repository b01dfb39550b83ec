import { randomBytes } from 'node:crypto';

const RUN_ID_BYTES = 16;
const SPAN_ID_BYTES = 8;
/**
 * Random bytes for trace and span ids, drawn many at a time: a fleet makes a run id for each target and a span id for
 * each request, thousands of times, and each draw of its own would cost a call into the system's generator.
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomPoolUsed = 0;

function randomHex(size: number): string {
  if (randomPoolUsed + size > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomPoolUsed = 0;
  }
  randomPoolUsed += size;
  return randomPool.toString('hex', randomPoolUsed - size, randomPoolUsed);
}

/**
 * W3C Trace Context: every request of a run carries `traceparent` with the run's id as its trace id, so a target's
 * access log (or its tracing) can be joined to the report that holds the same id.
 */
export const newRunId = (): string => randomHex(RUN_ID_BYTES);

/** Version 00, the run's trace id, a span id of its own for this request, sampled. */
export const traceparent = (runId: string): string => `00-${runId}-${randomHex(SPAN_ID_BYTES)}-01`;
