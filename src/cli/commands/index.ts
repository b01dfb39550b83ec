import { baselineCommand } from './baseline.js';
import { diffCommand } from './diff.js';
import { mergeCommand } from './merge.js';
import { runCommand } from './run.js';

export type Command = (argv: string[]) => Promise<number>;

/** Subcommands by name; anything else is read as options of the default conformance run. */
export const commands: Record<string, Command> = {
  run: runCommand,
  baseline: baselineCommand,
  diff: diffCommand,
  merge: mergeCommand,
};
