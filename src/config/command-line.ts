import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../errors.js';

/** Options of the serve command: given to the main command, they are told where they belong. */
const SERVE_ONLY = ['fault', 'port', 'host', 'latency-ms', 'path-prefix'];

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** The known name (a flag, a requirement ID) a mistyped one most likely meant: a few letters off, or the start of it. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const ranked = known
    .map((name) => ({ name, score: name.startsWith(given) && given.length >= 3 ? 0 : distance(given, name) }))
    .sort((a, b) => a.score - b.score);
  const best = ranked[0];
  return best && best.score <= Math.max(2, Math.floor(given.length / 4)) ? best.name : undefined;
}

/**
 * The one-line error for a command line parseArgs refused, with the likely meant flag when there is one.
 * `command` is the subcommand whose flags `known` are ('' for the main command).
 */
function commandLineError(error: unknown, known: readonly string[], hint: string, command = ''): ConfigError {
  // An option is quoted; any other word is not, since it may be a token given without its flag.
  const detail = (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error))
    .replace(/'([^']*)'/g, (quoted, word: string) => (/^--?[\w-]{1,40}( <value>)?$/.test(word) ? quoted : '(not quoted)'))
    .replace(/\.+$/, '');
  const where = command ? `the ${command} command line` : 'the command line';
  const unknownMatch = /^Unknown option '--?([^'=]+)'/.exec(detail);
  const unknown = unknownMatch?.[1];
  if (unknown !== undefined && command === '' && SERVE_ONLY.includes(unknown)) {
    return new ConfigError(
      'CONFIG_UNKNOWN_OPTION',
      `--${unknown} is an option of the serve command, not of a conformance run`,
      `Start the reference server with it: ticketing-conformance serve --${unknown} ...; then test it with --base-url`,
    );
  }
  const meant = unknown === undefined ? undefined : closestName(unknown, known);
  // Node's advice on positionals that start with "-" is noise next to a mistyped option.
  const said = unknownMatch?.[0] ?? detail;
  return new ConfigError('CONFIG_UNKNOWN_OPTION', `${where} could not be read: ${said}`, meant ? `Did you mean --${meant}? ${hint}` : hint);
}

type Flags = NonNullable<ParseArgsConfig['options']>;

export interface CommandLineShape {
  /** The next step every refusal ends with, e.g. the command's usage line. */
  hint: string;
  /** The subcommand whose command line this is; the main command's when absent. */
  command?: string;
  /** Whether words that are not options (a file, a folder) may be given. */
  positionals?: boolean;
}

/** What readCommandLine reads: the flags given, with -h, as parseArgs types them. */
export type CommandLine<T extends Flags> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T & { help: { type: 'boolean'; short: 'h' } }; strict: true; allowPositionals: boolean }>
>;

/**
 * The one reader of every command line, the main command's and each subcommand's: strict flags, -h for --help, and
 * one line naming the mistyped flag and the one most likely meant.
 */
export function readCommandLine<T extends Flags>(
  argv: string[],
  flags: T,
  { hint, command = '', positionals = true }: CommandLineShape,
): CommandLine<T> {
  try {
    return parseArgs({
      args: argv,
      options: { ...flags, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: positionals,
    });
  } catch (error) {
    throw commandLineError(error, [...new Set([...Object.keys(flags), 'help'])], hint, command);
  }
}

/** The value of a flag a command cannot do without. */
export function required(value: string | boolean | undefined, flag: string, usage: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError('CONFIG_INVALID', `${flag} is missing`, usage);
  return value;
}
