/** Asks the judging thread for a heap snapshot of itself, written to `path`; it answers with the file written. */
export interface HeapSnapshotRequest {
  type: typeof HEAP_SNAPSHOT;
  path: string;
}

/** Our own message type, next to Vitest's on the thread's port: Vitest ignores messages that are not its own. */
export const HEAP_SNAPSHOT = 'ticketing-conformance:heap-snapshot';

export const isHeapSnapshotMessage = (message: unknown): message is HeapSnapshotRequest =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === HEAP_SNAPSHOT &&
  typeof (message as { path?: unknown }).path === 'string';
