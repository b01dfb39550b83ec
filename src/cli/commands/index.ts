import { doctorCommand } from './doctor.js';
import { baselineCommand } from './baseline.js';
import { diffCommand } from './diff.js';
import { mergeCommand } from './merge.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { verifyCommand } from './verify.js';

export type Command = (argv: string[]) => Promise<number>;

/** Subcommands by name; anything else is read as options of the default conformance run. */
export const commands: Record<string, Command> = {
  run: runCommand,
  serve: serveCommand,
  doctor: doctorCommand,
  verify: verifyCommand,
  baseline: baselineCommand,
  diff: diffCommand,
  merge: mergeCommand,
};
