import { cli, judges } from './cli.js';
import { processIo } from './io.js';
import { startJudgingThreadEarly } from '../judge/lasting-thread.js';
import { keepWebAssemblyOnBaselineCompiler, keepYoungGenerationSmall, optimiseOnlyHotFunctions } from '../judge/memory.js';

/**
 * Once a command has settled, what the transport abandoned at the deadline (a tunnel a proxy never finished, a
 * handshake that never ends) may not keep the process alive: it exits soon after, by itself if nothing lingers.
 */
function exitOnceSettled(): void {
  setTimeout(() => process.exit(), 2000).unref();
}

// From the start: most of what the young generation would grow into comes while the modules load. A matrix, which
// lasts, or an exporter, lets it grow again (io.beforeLongRun).
keepYoungGenerationSmall();
keepWebAssemblyOnBaselineCompiler();
optimiseOnlyHotFunctions();

const args = process.argv.slice(2);
// Vitest's runner and the specs load in the judging thread, on the other core, while this thread loads the run and records.
if (judges(args)) startJudgingThreadEarly();

void cli(args, processIo())
  .then((code) => {
    process.exitCode = code;
  })
  .finally(exitOnceSettled);
