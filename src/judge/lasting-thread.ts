import { fileURLToPath } from 'node:url';
import { ThreadsPoolWorker, type PoolOptions, type PoolWorker, type WorkerRequest } from 'vitest/node';
import { HEAP_SNAPSHOT, HEAP_USED, isThreadMessage, type ThreadAnswer, type ThreadQuestion } from './thread-messages.js';

type Listener = (arg: unknown) => void;

/** Vitest's own answer to a start or stop request, given by the pool when the thread already is (or stays) started. */
const answer = (type: 'started' | 'stopped'): object => ({ type, __vitest_worker_response__: true });

/** Vitest's thread worker, started from our entry, which lets each spec run's memory go once the next run starts. */
class JudgingThread extends ThreadsPoolWorker {
  protected override readonly entrypoint = fileURLToPath(new URL('./judging-thread.js', import.meta.url));
}

/**
 * One worker thread that outlives Vitest's spec runs. Vitest ends its worker after every spec run, and a matrix makes
 * one spec run per batch of targets: a fresh thread would load Vitest's runtime and every spec and harness module
 * again for each batch. This pool starts the thread once, keeps it between runs (the modules stay loaded, as they do
 * between files with isolate: false), and ends it when the spec runner closes.
 */
export class LastingThread {
  private thread?: ThreadsPoolWorker;
  /** Whether Vitest's runtime in the thread has been set up (its first "start" request went through). */
  private runtimeStarted = false;

  readonly pool = {
    name: 'lasting-thread',
    createPoolWorker: (options: PoolOptions): PoolWorker => new RunView(this, options),
  };

  /** The thread, started on first use. */
  async open(options: PoolOptions): Promise<ThreadsPoolWorker> {
    if (!this.thread) {
      const thread = new JudgingThread(options);
      await thread.start();
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
      thread.send(question as unknown as WorkerRequest);
    });
  }

  private forget(): void {
    this.thread = undefined;
    this.runtimeStarted = false;
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.forget();
    await thread?.stop();
  }
}

/** What one Vitest spec run sees as its worker: the lasting thread, with start and stop answered by the pool. */
class RunView implements PoolWorker {
  readonly name = 'lasting-thread';
  private thread?: ThreadsPoolWorker;
  private readonly listeners: [string, Listener][] = [];

  constructor(
    private readonly lasting: LastingThread,
    private readonly options: PoolOptions,
  ) {}

  async start(): Promise<void> {
    this.thread = await this.lasting.open(this.options);
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
    this.thread?.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  /** Detaches this run from the thread, which stays for the next run. */
  async stop(): Promise<void> {
    for (const [event, listener] of this.listeners.splice(0)) this.thread?.off(event, listener);
    this.thread = undefined;
  }
}
