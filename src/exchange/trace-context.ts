import { randomBytes } from 'node:crypto';

/**
 * W3C Trace Context: every request of a run carries `traceparent` with the run's id as its trace id, so a target's
 * access log (or its tracing) can be joined to the report that holds the same id.
 */
export const newRunId = (): string => randomBytes(16).toString('hex');

const SPAN_ID_BYTES = 8;
/** Random bytes for span ids, drawn many at a time: a fleet sends a request, each a span of its own, thousands of times. */
let spanIds = Buffer.alloc(0);
let spanIdsUsed = 0;

function newSpanId(): string {
  if (spanIdsUsed + SPAN_ID_BYTES > spanIds.length) {
    spanIds = randomBytes(512 * SPAN_ID_BYTES);
    spanIdsUsed = 0;
  }
  spanIdsUsed += SPAN_ID_BYTES;
  return spanIds.toString('hex', spanIdsUsed - SPAN_ID_BYTES, spanIdsUsed);
}

/** Version 00, the run's trace id, a span id of its own for this request, sampled. */
export const traceparent = (runId: string): string => `00-${runId}-${newSpanId()}-01`;
