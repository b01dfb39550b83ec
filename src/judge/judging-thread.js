// The entry of the lasting thread: Vitest's own thread worker (vitest/worker), except for two lists of listeners.
// Plain JavaScript, so that the thread starts the same way from source and compiled, with no TypeScript loader in it.
import { writeHeapSnapshot } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';

// The same message types as thread-messages.ts, which the main thread reads them with.
const HEAP_SNAPSHOT = 'ticketing-conformance:heap-snapshot';
const HEAP_USED = 'ticketing-conformance:heap-used';
const THREAD_ENV = 'ticketing-conformance:env';

/**
 * One of Vitest's lists of listeners that live as long as the thread (to hear of a cancellation, to clean up when the
 * thread ends), narrowed to the listeners of the latest spec run. Vitest's threads end with their run, so it never
 * empties those lists; but each listener holds its run's test runner, with every task, result and recording of the
 * batch, and in a thread that judges batch after batch the lists held every batch ever judged. Each run registers the
 * same kinds of listener, so the latest run's stand for all: one forwarder in Vitest's list calls them.
 */
function latestRun() {
  let listeners = [];
  let forwarding = false;
  /** What a run registers with instead of `register`, Vitest's own (for the thread's lifetime). */
  return function narrow(register) {
    if (!forwarding) {
      register((...args) => Promise.all(listeners.map((listener) => listener(...args))));
      forwarding = true;
    }
    const own = [];
    listeners = own;
    return (listener) => {
      own.push(listener);
    };
  };
}

const narrowCancel = latestRun();
const narrowCleanup = latestRun();

function runTests(method, state, traces) {
  state.onCancel = narrowCancel(state.onCancel);
  state.onCleanup = narrowCleanup(state.onCleanup);
  return runBaseTests(method, state, traces);
}

const port = parentPort;
if (!port) throw new Error('the judging thread runs only as a worker thread');
// Our own messages, beside Vitest's: what the thread keeps between runs is measured from its heap, which only the
// thread itself can read, and Vitest's variables arrive after the thread has started.
port.on('message', (message) => {
  if (message?.type === HEAP_SNAPSHOT && typeof message.path === 'string') {
    port.postMessage({ type: HEAP_SNAPSHOT, path: writeHeapSnapshot(message.path) });
  } else if (message?.type === HEAP_USED) {
    port.postMessage({ type: HEAP_USED, bytes: process.memoryUsage().heapUsed });
  } else if (message?.type === THREAD_ENV && typeof message.env === 'object') {
    // Vitest's variables, which a thread started before Vitest could not be given at its start.
    for (const [name, value] of Object.entries(message.env)) if (typeof value === 'string') process.env[name] = value;
  }
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
