import type { CommandIo } from '../io.js';

export type Command = (argv: string[], io: CommandIo) => Promise<number>;

/**
 * Subcommands by name, each loaded only when asked for: a conformance run starts its first requests
 * without loading the code of the others. Anything else is read as options of the default run.
 */
export const loadRunCommand = async (): Promise<Command> => (await import('./run.js')).runCommand;

export const commands: Record<string, () => Promise<Command>> = {
  run: loadRunCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  doctor: async () => (await import('./doctor.js')).doctorCommand,
  verify: async () => (await import('./verify.js')).verifyCommand,
  baseline: async () => (await import('./baseline.js')).baselineCommand,
  compare: async () => (await import('./compare.js')).compareCommand,
  merge: async () => (await import('./merge.js')).mergeCommand,
  history: async () => (await import('./history.js')).historyCommand,
  exporter: async () => (await import('./exporter.js')).exporterCommand,
  judge: async () => (await import('./judge.js')).judgeCommand,
  init: async () => (await import('./init.js')).initCommand,
};

/** The subcommands that judge recordings, besides the default run. */
export const JUDGING_COMMANDS: readonly string[] = ['run', 'judge'];

/** Names commands had before, kept so that scripts written for them go on working. */
export const ALIASES: Record<string, keyof typeof commands> = { diff: 'compare' };
