import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ALIASES, commands } from '../src/cli/commands/index.js';
import { ConfigError } from '../src/errors.js';
import { repoRoot } from './helpers/run-cli.js';
import { processIo } from '../src/cli/io.js';

/** A mistyped flag of each command, and the flag it meant. */
const MISTYPED: [string, string, string][] = [
  ['run', '--timout-ms', 'timeout-ms'],
  ['serve', '--latncy-ms', 'latency-ms'],
  ['doctor', '--base-ur', 'base-url'],
  ['verify', '--expct', 'expect'],
  ['baseline', '--ownr', 'owner'],
  ['compare', '--diferent-targets', 'different-targets'],
  ['merge', '--otu', 'out'],
  ['history', '--ot', 'out'],
  ['exporter', '--min-intervl', 'min-interval'],
  ['judge', '--quite', 'quiet'],
  ['init', '--forse', 'force'],
];

test('every command is in the table', () => {
  expect(MISTYPED.map(([command]) => command).sort()).toEqual(Object.keys(commands).sort());
});

test('every alias names a command', () => {
  expect(Object.values(ALIASES).filter((command) => !(command in commands))).toEqual([]);
});

test.each(MISTYPED)('%s %s is refused by the one command-line reader, naming the flag meant', async (command, flag, meant) => {
  const load = commands[command];
  if (!load) throw new Error(`no command ${command}`);
  const refusal = await (
    await load()
  )([flag, 'x'], processIo()).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(ConfigError);
  const line = (refusal as ConfigError).oneLine();
  expect(line).toContain(`CONFIG_UNKNOWN_OPTION: the ${command === 'run' ? '' : `${command} `}command line could not be read`);
  expect(line).toContain(`Unknown option '${flag}'. Did you mean --${meant}?`);
  expect(line.split('\n')).toHaveLength(1);
});

test('the exporter reads run options with the same reader, and refuses those of a single run', async () => {
  const exporter = await commands.exporter?.();
  await expect(exporter?.(['--targets', 'x.yaml', '--timeout-ms', '0'], processIo())).rejects.toThrow(
    '--timeout-ms "0" is not a whole number',
  );
  await expect(exporter?.(['--targets', 'x.yaml', '--out', 'reports'], processIo())).rejects.toThrow(
    '--out does not apply to the exporter',
  );
  await expect(exporter?.(['--listen'], processIo())).rejects.toThrow("Option '--listen <value>' argument missing");
});

test('no code but the one reader parses a command line', () => {
  const sources = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const parsers = sources.filter((file) => /\bparseArgs\(|process\.argv/.test(readFileSync(join(repoRoot, 'src', file), 'utf8')));
  expect(parsers.sort()).toEqual(['cli/main.ts', 'config/command-line.ts']);
  // A command reads flags through the reader, never by walking argv itself.
  const commandFiles = readdirSync(join(repoRoot, 'src', 'cli', 'commands')).map((file) => join(repoRoot, 'src', 'cli', 'commands', file));
  for (const file of commandFiles) expect(readFileSync(file, 'utf8'), file).not.toMatch(/argv\[|argv\.(includes|indexOf|slice)/);
});

test('a word every object has is not a command: it is read as options of a run', async () => {
  const { cli } = await import('../src/cli/cli.js');
  const errors: string[] = [];
  const code = await cli(['constructor'], { ...processIo(), log: () => undefined, error: (line) => errors.push(line) });
  expect(code).toBe(2);
  expect(errors.join('\n')).toContain('CONFIG_');
});
