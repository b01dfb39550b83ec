import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../errors.js';
import { artifactScanner, writeNamedFile } from '../../files/artifacts.js';
import { readCommandLine } from '../../config/command-line.js';
import { starterDotenv, starterTargets } from '../../config/starter.js';
import { terminalLine } from '../../report/views/escape/terminal.js';
import type { CommandIo } from '../io.js';

const USAGE = 'Usage: ticketing-conformance init [--out DIR] [--force]';

/** Writes a commented .env and targets.yaml to start from; asks nothing, and overwrites nothing unless --force. */
export async function initCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = readCommandLine(
    argv,
    { out: { type: 'string' }, force: { type: 'boolean' } },
    { hint: USAGE, command: 'init', positionals: false },
  );
  if (values.help) {
    io.log(
      `${USAGE}\n\nWrites .env (every setting commented out) and targets.yaml (two example targets) into DIR, the current folder by default.\nAn existing file is left alone unless --force is given.\nExit codes: 0 written, 2 a file is already there or DIR cannot be written.`,
    );
    return 0;
  }
  const folder = values.out ?? '.';
  const files = [
    // Only its owner may read it: it is meant for tokens.
    { name: '.env', content: starterDotenv(), mode: 0o600 },
    { name: 'targets.yaml', content: starterTargets() },
  ].map((file) => ({ ...file, path: join(folder, file.name) }));
  // Whatever is at the path, a symbolic link that leads nowhere included.
  const existing = files.filter((file) => lstatSync(file.path, { throwIfNoEntry: false }) !== undefined);
  if (existing.length > 0 && values.force !== true) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${existing.map((file) => file.path).join(' and ')} already ${existing.length > 1 ? 'exist' : 'exists'}; nothing was written`,
      'Edit the existing file, pass --out DIR for another folder, or --force to overwrite',
    );
  }
  mkdirSync(folder, { recursive: true });
  for (const file of files) {
    await writeNamedFile(file.path, file.content, artifactScanner([]), file.name, 'Pass --out DIR for a folder you can write', {
      overwrite: values.force === true,
      ...(file.mode === undefined ? {} : { mode: file.mode }),
    });
    io.log(terminalLine(`Wrote ${file.path}`));
  }
  io.log('Next: fill in .env (or targets.yaml and its tokens), then run npx --no-install ticketing-conformance');
  return 0;
}
