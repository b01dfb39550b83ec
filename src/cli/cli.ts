import { terminalLine } from '../report/views/escape/terminal.js';
import { environmentError, HarnessError, isSystemError } from '../errors.js';
import { ALIASES, commands, JUDGING_COMMANDS, loadRunCommand } from './commands/index.js';
import type { CommandIo } from './io.js';
import { variableLookup } from '../config/load.js';
import { SETTINGS } from '../config/settings.js';
import { readableQuotes, secretsScanner, type Secrets } from '../config/values.js';

/** The one line a command's failure gets, and who it is for: the user's setting, their machine, or the suite. */
function failureLine(error: unknown): string {
  if (error instanceof HarnessError) return terminalLine(error.oneLine());
  if (isSystemError(error)) {
    // The operating system refused something (a file, a port): the machine's problem, not the suite's.
    const where = [error.syscall, error.path].filter(Boolean).join(' ');
    const problem = environmentError(
      where || 'the operating system refused',
      error,
      'Fix the path, permission or port named here and run again',
    );
    return terminalLine(problem.oneLine());
  }
  return terminalLine(
    `HARNESS_INTERNAL: ${error instanceof Error ? error.message : String(error)}. This is a bug in the suite; please report it`,
  );
}

/** The settings whose values are secrets, by their flags and variables. */
const SECRET_SETTINGS = [SETTINGS.token, SETTINGS.compareToken, SETTINGS.password, SETTINGS.keyPassphrase] as const;

/**
 * The secrets given to an invocation, by flag (`--token T`, `--token=T`), variable or .env: the last screen of the line
 * a failure prints, whichever command, option or argument quoted what (a path given to judge, an option of its own).
 */
function givenSecrets(args: readonly string[], io: CommandIo): Secrets {
  let lookup: (name: string) => string | undefined;
  try {
    lookup = variableLookup(io.env, io.dotenvPath);
  } catch {
    // A .env that cannot be read holds nothing to screen: the failure to print may be that very one.
    lookup = (name) => io.env[name];
  }
  const given = ({ flag, env }: { flag: string; env?: string }): (string | undefined)[] => [
    ...args.flatMap((arg, index) =>
      arg === `--${flag}` ? [args[index + 1]] : arg.startsWith(`--${flag}=`) ? [arg.slice(flag.length + 3)] : [],
    ),
    env === undefined ? undefined : lookup(env),
  ];
  const [token, compareToken, password, keyPassphrase] = SECRET_SETTINGS.map(given);
  return { tokens: [...(token ?? []), ...(compareToken ?? [])], passwords: password ?? [], passphrases: keyPassphrase ?? [] };
}

/** The line as it may be printed: no secret of the invocation in it, and every value it quotes short enough to read. */
function screenedLine(line: string, secrets: Secrets): string {
  const scanner = secretsScanner(secrets);
  // Redacted only where a secret is: redaction also blanks whatever follows a credential's name, as "TOKEN:" in a code.
  return readableQuotes(scanner.find(line) === undefined ? line : scanner.redact(line));
}

/** The subcommand a command line names, if any (otherwise it is a run), and the arguments it gets. */
function commandOf(args: string[]): { name?: string; argv: string[]; rest: string[] } {
  // "help" and "help COMMAND" are --help of the main command or of that command.
  const argv = args[0] === 'help' ? (args[1] !== undefined ? [args[1], '--help'] : ['--help']) : args;
  const [first, ...rest] = argv;
  // Own names only: a word such as "constructor" is read as options of a run, not as something every object has.
  const name = first !== undefined && Object.hasOwn(ALIASES, first) ? ALIASES[first] : first;
  return name !== undefined && Object.hasOwn(commands, name) ? { name, argv, rest } : { argv, rest: argv };
}

/** Whether the command line judges recordings (a run, a matrix, judge FILE), so that it needs the judging thread. */
export function judges(args: string[]): boolean {
  const { name } = commandOf(args);
  return name === undefined || JUDGING_COMMANDS.includes(name);
}

/** The whole command line: the subcommand it names (or a run), its exit code, and one line for whatever stopped it. */
export async function cli(args: string[], io: CommandIo): Promise<number> {
  const { name, argv, rest } = commandOf(args);
  const subcommand = name === undefined ? undefined : commands[name];
  try {
    return subcommand ? await (await subcommand())(rest, io) : await (await loadRunCommand())(argv, io);
  } catch (error) {
    io.error(screenedLine(failureLine(error), givenSecrets(args, io)));
    return 2;
  }
}
