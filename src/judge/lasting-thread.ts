import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolWorker, WorkerRequest } from 'vitest/node';
import { judgingThreadEntry } from '../paths.js';
import { HEAP_SNAPSHOT, HEAP_USED, THREAD_ENV, isThreadMessage, type ThreadAnswer, type ThreadQuestion } from './thread-messages.js';

type Listener = (arg: unknown) => void;

/** Vitest's own answer to a start or stop request, given by the pool when the thread already is (or stays) started. */
const answer = (type: 'started' | 'stopped'): object => ({ type, __vitest_worker_response__: true });

/**
 * Vitest's thread worker, run from our entry (which lets each spec run's memory go once the next run starts). Its
 * thread may be started before Vitest is loaded at all: see startJudgingThreadEarly.
 */
function startThread(): Worker {
  // Of the process's own flags only the profilers' (as Vitest passes them on): a host program's -e script, for one,
  // would run again in the thread.
  const execArgv = process.execArgv.filter((flag) => /^--(cpu-prof|heap-prof|diagnostic-dir)/.test(flag));
  return new Worker(judgingThreadEntry, { execArgv });
}

/** A judging thread started ahead of any Vitest instance, for the first lasting thread to take. */
let early: Worker | undefined;

/**
 * Starts the judging thread now, so that Vitest's runtime loads in it on the other core while this thread loads its
 * own modules and records the target; otherwise it loads only once Vitest has started here, and this thread waits for
 * it. Unused (a command that judges nothing, a run that stops at a setting), it keeps nothing alive.
 */
export function startJudgingThreadEarly(): void {
  if (early) return;
  const thread = startThread();
  thread.unref();
  // A thread that fails before anyone takes it is replaced by a new one when a lasting thread opens.
  thread.once('error', () => {
    if (early === thread) early = undefined;
  });
  early = thread;
}

function takeEarlyThread(): Worker | undefined {
  const thread = early;
  early = undefined;
  thread?.ref();
  return thread;
}

/**
 * One worker thread that outlives Vitest's spec runs. Vitest ends its worker after every spec run, and a matrix makes
 * one spec run per batch of targets: a fresh thread would load Vitest's runtime and every spec and harness module
 * again for each batch. This pool starts the thread once (or takes the one started early), keeps it between runs (the
 * modules stay loaded, as they do between files with isolate: false), and ends it when the spec runner closes.
 */
export class LastingThread {
  private thread?: Worker;
  /** Whether Vitest's runtime in the thread has been set up (its first "start" request went through). */
  private runtimeStarted = false;

  readonly pool = {
    name: 'lasting-thread',
    createPoolWorker: (options: PoolOptions): PoolWorker => new RunView(this, options),
  };

  /**
   * The thread, started on first use. Vitest's variables (VITEST, NODE_ENV and the like) are set in it before its
   * runtime starts, since a thread started early could not be given them at its start. Vitest's command-line flags
   * for its threads are not: they filter warnings and set resolve conditions, which no module of the suite reads.
   */
  open(options: PoolOptions): Worker {
    if (!this.thread) {
      const thread = takeEarlyThread() ?? startThread();
      thread.postMessage({ type: THREAD_ENV, env: options.env } satisfies ThreadQuestion);
      // A thread that ends by itself (a crash) is started afresh by the next run.
      thread.on('exit', () => {
        if (this.thread === thread) this.forget();
      });
      this.thread = thread;
    }
    return this.thread;
  }

  /** Whether a start request must reach the thread: only the first one sets Vitest's runtime up. */
  claimStart(): boolean {
    const first = !this.runtimeStarted;
    this.runtimeStarted = true;
    return first;
  }

  /** Writes a heap snapshot of the thread (none when no thread runs), to see what it keeps between spec runs. */
  async writeHeapSnapshot(path: string): Promise<string | undefined> {
    const answer = await this.ask({ type: HEAP_SNAPSHOT, path });
    return answer?.type === HEAP_SNAPSHOT ? answer.path : undefined;
  }

  /** The thread's V8 heap in use, in bytes (none when no thread runs): the process's own figure is the main thread's. */
  async heapUsedBytes(): Promise<number | undefined> {
    const answer = await this.ask({ type: HEAP_USED });
    return answer?.type === HEAP_USED ? answer.bytes : undefined;
  }

  private ask(question: ThreadQuestion): Promise<ThreadAnswer | undefined> {
    const thread = this.thread;
    if (!thread) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const answered = (message: unknown): void => {
        if (!isThreadMessage(message) || message.type !== question.type) return;
        thread.off('message', answered);
        resolve(message as ThreadAnswer);
      };
      thread.on('message', answered);
      thread.postMessage(question);
    });
  }

  private forget(): void {
    this.thread = undefined;
    this.runtimeStarted = false;
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.forget();
    await thread?.terminate();
  }
}

/** What one Vitest spec run sees as its worker: the lasting thread, with start and stop answered by the pool. */
class RunView implements PoolWorker {
  readonly name = 'lasting-thread';
  private thread?: Worker;
  private readonly listeners: [string, Listener][] = [];

  constructor(
    private readonly lasting: LastingThread,
    private readonly options: PoolOptions,
  ) {}

  start(): Promise<void> {
    this.thread = this.lasting.open(this.options);
    return Promise.resolve();
  }

  on(event: string, callback: Listener): void {
    this.listeners.push([event, callback]);
    this.thread?.on(event, callback);
  }

  off(event: string, callback: Listener): void {
    const index = this.listeners.findIndex(([name, listener]) => name === event && listener === callback);
    if (index >= 0) this.listeners.splice(index, 1);
    this.thread?.off(event, callback);
  }

  send(message: WorkerRequest): void {
    if ((message.type === 'start' && !this.lasting.claimStart()) || message.type === 'stop') {
      // The thread is already set up, or stays so for the next run: answer as it would have.
      const reply = answer(message.type === 'start' ? 'started' : 'stopped');
      setImmediate(() => {
        for (const [event, listener] of [...this.listeners]) if (event === 'message') listener(reply);
      });
      return;
    }
    this.thread?.postMessage(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  /** Detaches this run from the thread, which stays for the next run. */
  async stop(): Promise<void> {
    for (const [event, listener] of this.listeners.splice(0)) this.thread?.off(event, listener);
    this.thread = undefined;
    return Promise.resolve();
  }
}
