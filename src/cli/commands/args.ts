import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs for a subcommand, with the same one-line error as the main command. */
export function readArgs<T extends Options>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    const detail = (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)).replace(/\.+$/, '');
    throw new ConfigError('CONFIG_UNKNOWN_OPTION', `the command line could not be read: ${detail}`, usage);
  }
}

export function required(value: string | boolean | undefined, flag: string, usage: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError('CONFIG_INVALID', `${flag} is missing`, usage);
  return value;
}
