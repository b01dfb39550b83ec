import { cli } from './cli.js';
import { processIo } from './io.js';
import { keepYoungGenerationSmall } from '../judge/memory.js';

/**
 * Once a command has settled, what the transport abandoned at the deadline (a tunnel a proxy never finished, a
 * handshake that never ends) may not keep the process alive: it exits soon after, by itself if nothing lingers.
 */
function exitOnceSettled(): void {
  setTimeout(() => process.exit(), 2000).unref();
}

// From the start: most of what the young generation would grow into comes while the modules load. A matrix, which
// lasts, lets it grow again (io.beforeLongRun).
keepYoungGenerationSmall();

void cli(process.argv.slice(2), processIo())
  .then((code) => {
    process.exitCode = code;
  })
  .finally(exitOnceSettled);
