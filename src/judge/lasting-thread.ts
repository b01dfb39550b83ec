import { Worker } from 'node:worker_threads';
import { compiled, judgingThreadEntry, judgingThreadWork } from '../paths.js';
import { HEAP_SNAPSHOT, HEAP_USED, isThreadMessage, type ThreadAnswer, type ThreadQuestion } from './thread-messages.js';

/** The profilers' flags that take a value, which may follow as the next argument instead of after "=". */
const PROFILER_VALUE_FLAGS = new Set([
  '--cpu-prof-dir',
  '--cpu-prof-name',
  '--cpu-prof-interval',
  '--heap-prof-dir',
  '--heap-prof-name',
  '--heap-prof-interval',
  '--diagnostic-dir',
]);

/**
 * Of the process's own flags, the profilers' (with their values), for the judging thread to be profiled too: any other
 * could harm it (a host program's -e script, for one, would run again in the thread).
 */
export function profilerFlags(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const flag = execArgv[index] ?? '';
    if (!/^--(cpu-prof|heap-prof|diagnostic-dir)/.test(flag)) continue;
    kept.push(flag);
    const value = execArgv[index + 1];
    if (PROFILER_VALUE_FLAGS.has(flag) && value !== undefined) {
      kept.push(value);
      index += 1;
    }
  }
  return kept;
}

/**
 * The most V8's young generation may take in the judging thread: Node 20's own default (semi-spaces of 16 MB). Node 24's
 * V8 gives it several times that on a machine with memory to spare, which a thread holding one batch at a time does not
 * need: a fleet of 1,000 targets peaked 20 to 25 MB higher on Node 24 without it, at the same CPU.
 */
const JUDGING_YOUNG_GENERATION_MB = 48;

/** The judging thread, from our plain-JavaScript entry (which registers the TypeScript loader from source). */
function startThread(): Worker {
  const execArgv = profilerFlags(process.execArgv);
  return new Worker(judgingThreadEntry, {
    execArgv,
    resourceLimits: { maxYoungGenerationSizeMb: JUDGING_YOUNG_GENERATION_MB },
    workerData: { work: judgingThreadWork, typescript: !compiled },
  });
}

/** A judging thread started ahead of any spec runner, for the first lasting thread to take. */
let early: Worker | undefined;

/**
 * Starts the judging thread now, so that Vitest's runner and the spec engine load in it on the other core while this
 * thread loads its own modules and records the target. Unused (a command that judges nothing, a run that stops at a
 * setting), it keeps nothing alive.
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
 * The judging thread of one spec runner: started once (or taken from startJudgingThreadEarly) and kept for every
 * batch, so the specs and the suite's modules load once. A thread that ended (a crash) is started afresh on next use;
 * whoever was waiting on it hears why.
 */
export class LastingThread {
  private thread?: Worker;
  private readonly onEnd = new Set<(cause: string) => void>();

  /** Sends a question; answers arrive through `listen`. */
  post(question: ThreadQuestion): void {
    this.open().postMessage(question);
  }

  /** Hears every answer of the thread, until the returned function is called. */
  listen(listener: (answer: ThreadAnswer) => void): () => void {
    const thread = this.open();
    const heard = (message: unknown): void => {
      if (isThreadMessage(message)) listener(message as ThreadAnswer);
    };
    thread.on('message', heard);
    return () => thread.off('message', heard);
  }

  /** Hears once why the thread ended (an error it threw, or its exit), until the returned function is called. */
  onceEnded(listener: (cause: string) => void): () => void {
    this.open();
    this.onEnd.add(listener);
    return () => this.onEnd.delete(listener);
  }

  /** Starts the thread (or takes the early one) now, so the spec engine loads before the first batch arrives. */
  start(): void {
    this.open();
  }

  private open(): Worker {
    if (this.thread) return this.thread;
    const thread = takeEarlyThread() ?? startThread();
    const ended = (cause: string): void => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      for (const listener of [...this.onEnd]) listener(cause);
      this.onEnd.clear();
    };
    thread.on('error', (error) => ended(`the judging thread failed: ${error.message.split('\n')[0] ?? ''}`));
    thread.on('exit', (code) => ended(`the judging thread ended (exit code ${code})`));
    this.thread = thread;
    return thread;
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
    if (!this.thread) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const stop = this.listen((answer) => {
        if (answer.type !== question.type) return;
        stop();
        resolve(answer);
      });
      this.post(question);
    });
  }

  /** Ends the thread; a batch still being judged hears that it was closed. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    for (const listener of [...this.onEnd]) listener('the judging thread was closed before the spec run ended');
    this.onEnd.clear();
    await thread?.terminate();
  }
}
