import { parseArgs, type ParseArgsConfig } from 'node:util';
import { commandLineError } from '../../config/command-line.js';
import { ConfigError } from '../../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs for a subcommand, with the same one-line error as the main command (and -h for --help). */
export function readArgs<T extends Options>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw commandLineError(error, [...Object.keys(options), 'help'], usage);
  }
}

export function required(value: string | boolean | undefined, flag: string, usage: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError('CONFIG_INVALID', `${flag} is missing`, usage);
  return value;
}
