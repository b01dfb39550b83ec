import { writeHeapSnapshot } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';
import { HEAP_SNAPSHOT, HEAP_USED, isThreadMessage, type ThreadAnswer } from './thread-messages.js';

type WorkerState = Parameters<typeof runBaseTests>[1];
type Traces = Parameters<typeof runBaseTests>[2];
type Listener = (...args: never[]) => unknown;

/**
 * One of Vitest's lists of listeners that live as long as the thread (to hear of a cancellation, to clean up when the
 * thread ends), narrowed to the listeners of the latest spec run. Vitest's threads end with their run, so it never
 * empties those lists; but each listener holds its run's test runner, with every task, result and recording of the
 * batch, and in a thread that judges batch after batch the lists held every batch ever judged. Each run registers the
 * same kinds of listener, so the latest run's stand for all: one forwarder in Vitest's list calls them.
 */
class LatestRun<L extends Listener> {
  private listeners: L[] = [];
  private forwarding = false;

  /** What a run registers with instead of `register` (Vitest's own, for the thread's lifetime). */
  narrow(register: (listener: L) => void): (listener: L) => void {
    if (!this.forwarding) {
      const forward = (...args: Parameters<L>): Promise<unknown[]> => Promise.all(this.listeners.map((listener) => listener(...args)));
      register(forward as L);
      this.forwarding = true;
    }
    const listeners: L[] = [];
    this.listeners = listeners;
    return (listener) => {
      listeners.push(listener);
    };
  }
}

const cancelListeners = new LatestRun<Parameters<WorkerState['onCancel']>[0]>();
const cleanupListeners = new LatestRun<Parameters<WorkerState['onCleanup']>[0]>();

/** The entry of the lasting thread: Vitest's own thread worker, whose runs keep no listener past the next run. */
function runTests(method: 'run' | 'collect', state: WorkerState, traces: Traces): Promise<void> {
  state.onCancel = cancelListeners.narrow(state.onCancel);
  state.onCleanup = cleanupListeners.narrow(state.onCleanup);
  return runBaseTests(method, state, traces);
}

const port = parentPort;
if (!port) throw new Error('the judging thread runs only as a worker thread');
// What the thread keeps between runs is measured from its heap, which only the thread itself can read.
port.on('message', (message: unknown) => {
  if (!isThreadMessage(message)) return;
  const answer: ThreadAnswer =
    message.type === HEAP_SNAPSHOT && 'path' in message
      ? { type: HEAP_SNAPSHOT, path: writeHeapSnapshot(message.path) }
      : { type: HEAP_USED, bytes: process.memoryUsage().heapUsed };
  port.postMessage(answer);
});
init({
  post: (response) => port.postMessage(response),
  on: (callback) => port.on('message', callback),
  off: (callback) => port.off('message', callback),
  teardown: () => port.removeAllListeners('message'),
  runTests: (state, traces) => runTests('run', state, traces),
  collectTests: (state, traces) => runTests('collect', state, traces),
  setup: setupEnvironment,
});
