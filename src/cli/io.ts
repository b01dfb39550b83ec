import { colourWanted } from '../report/views/colour.js';
import { letYoungGenerationGrow } from '../judge/memory.js';
import type { Judge } from '../pipeline/pipeline.js';

/**
 * Where a command writes its lines and reads its settings: the process's own by default. A host program or a
 * self-test gives its own, so that several commands can run in one process, side by side and without its console.
 */
export interface CommandIo {
  log(line: string): void;
  error(line: string): void;
  /** Draws the live progress line over the previous one; only called when `colour.stderr` says stderr is a terminal. */
  progress(text: string): void;
  /** Whether stdout and stderr are terminals that take colour and a live progress line. */
  colour: { stdout: boolean; stderr: boolean };
  /** The width of stdout and of stderr, each when it is a terminal: what is drawn there is kept within it. */
  columns?: { stdout?: number; stderr?: number };
  /** Where the settings come from besides the flags. */
  env: Record<string, string | undefined>;
  dotenvPath: string;
  /** When the command started, as a user timing it sees it. */
  startedAt: Date;
  /** What judges a run's recordings: a spec runner of the run's own when none is given. */
  judge?: Judge;
  /**
   * Tunes the process for a run that lasts (a matrix): only the CLI's own process, which is tuned for a short run from
   * its start, does so; the settings are the whole process's, and a host program keeps its own.
   */
  beforeLongRun?(): void;
  /**
   * Listens for Ctrl-C and SIGTERM while a run lasts: the signal is aborted with the name of the one that came, and
   * stop() gives the signals back. Only the CLI's own process listens; a host program keeps its signals.
   */
  interruptible?(): { signal: AbortSignal; stop(): void };
}

export function processIo(): CommandIo {
  return {
    log: (line) => console.log(line),
    error: (line) => console.error(line),
    progress: (text) => process.stderr.write(text),
    colour: { stdout: colourWanted(process.stdout), stderr: colourWanted(process.stderr) },
    columns: {
      ...(process.stdout.isTTY ? { stdout: process.stdout.columns } : {}),
      ...(process.stderr.isTTY ? { stderr: process.stderr.columns } : {}),
    },
    env: process.env,
    dotenvPath: '.env',
    // The whole command, process start included.
    startedAt: new Date(performance.timeOrigin),
    beforeLongRun: letYoungGenerationGrow,
    interruptible: listenForInterruption,
  };
}

/** The exit code of a process a signal ended, as shells report it: 128 and the signal's number. */
export const interruptedExitCode = (signal: unknown): number => 128 + (signal === 'SIGTERM' ? 15 : 2);

/** Ctrl-C or SIGTERM once stops the run's sending; a second one ends the process at once. */
function listenForInterruption(): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(interruptedExitCode(signal));
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    stop() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
