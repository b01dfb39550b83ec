import { terminalLine } from '../report/views/escape/terminal.js';
import { environmentError, HarnessError, isSystemError } from '../errors.js';
import { commands, loadRunCommand } from './commands/index.js';

async function main(args: string[]): Promise<number> {
  // "help" and "help COMMAND" are --help of the main command or of that command.
  const argv = args[0] === 'help' ? (args[1] !== undefined ? [args[1], '--help'] : ['--help']) : args;
  const [first, ...rest] = argv;
  const subcommand = first !== undefined ? commands[first] : undefined;
  return subcommand ? (await subcommand())(rest) : (await loadRunCommand())(argv);
}

/**
 * Once a command has settled, what the transport abandoned at the deadline (a tunnel a proxy never finished, a
 * handshake that never ends) may not keep the process alive: it exits soon after, by itself if nothing lingers.
 */
function exitOnceSettled(): void {
  setTimeout(() => process.exit(), 2000).unref();
}

main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof HarnessError) {
        console.error(terminalLine(error.oneLine()));
      } else if (isSystemError(error)) {
        // The operating system refused something (a file, a port): the machine's problem, not the suite's.
        const where = [error.syscall, error.path].filter(Boolean).join(' ');
        const problem = environmentError(
          where || 'the operating system refused',
          error,
          'Fix the path, permission or port named here and run again',
        );
        console.error(terminalLine(problem.oneLine()));
      } else {
        console.error(
          terminalLine(
            `HARNESS_INTERNAL: ${error instanceof Error ? error.message : String(error)}. This is a bug in the suite; please report it`,
          ),
        );
      }
      process.exitCode = 2;
    },
  )
  .finally(exitOnceSettled);
