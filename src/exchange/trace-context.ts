import { randomBytes } from 'node:crypto';

/**
 * W3C Trace Context: every request of a run carries `traceparent` with the run's id as its trace id, so a target's
 * access log (or its tracing) can be joined to the report that holds the same id.
 */
export const newRunId = (): string => randomBytes(16).toString('hex');

/** Version 00, the run's trace id, a span id of its own for this request, sampled. */
export const traceparent = (runId: string): string => `00-${runId}-${randomBytes(8).toString('hex')}-01`;
