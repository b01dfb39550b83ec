import { BroadcastChannel } from 'node:worker_threads';
import type { Recording } from './recording.js';

type Ask = { ask: number };
type Answer = { index: number; recording: Recording } | { index: number; failure: string };

/**
 * CLI side: answers the spec worker's request for a target's recording as soon as that recording is in,
 * so the worker starts and loads the specs while the target is still answering.
 */
export function serveRecordings(name: string, recordings: readonly Promise<Recording>[]): { close(): void } {
  const channel = new BroadcastChannel(name);
  channel.onmessage = (event) => {
    const { ask } = (event as { data: Ask }).data;
    void recordings[ask]?.then(
      (recording) => channel.postMessage({ index: ask, recording } satisfies Answer),
      (error: unknown) =>
        channel.postMessage({ index: ask, failure: error instanceof Error ? error.message : String(error) } satisfies Answer),
    );
  };
  return { close: () => channel.close() };
}

/** Worker side: the recording of target `index` of the spec run, once the CLI has it. */
export function askRecording(name: string, index: number): Promise<Recording> {
  const channel = new BroadcastChannel(name);
  return new Promise((resolve, reject) => {
    channel.onmessage = (event) => {
      const answer = (event as { data: Answer }).data;
      if (answer.index !== index) return;
      channel.close();
      if ('recording' in answer) resolve(answer.recording);
      else reject(new Error(`recording target ${index} failed: ${answer.failure}`));
    };
    channel.postMessage({ ask: index } satisfies Ask);
  });
}
