import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, test } from 'vitest';
import { cli } from '../src/cli/cli.js';
import { processIo, type CommandIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { STARTER_TOKEN_VARIABLES, starterDotenv } from '../src/config/starter.js';
import { execCli, repoRoot } from './helpers/run-cli.js';
import { removeFolder } from './helpers/safety-net.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => removeFolder(folder)));
});

async function emptyFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'conformance-init-'));
  folders.push(folder);
  return folder;
}

/** Runs the command line in this process, keeping what it prints. */
async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { ...processIo(), log: (line) => out.push(line), error: (line) => err.push(line), env: {} };
  return { code: await cli(args, io), out, err };
}

/** The .env with every commented `# NAME=value` line switched on, as a user filling it in would. */
const filledIn = (dotenv: string): string => dotenv.replace(/^# ([A-Z][A-Z0-9_]*=)/gm, '$1');

test('init writes a .env the config loader reads, as written and filled in, and a targets.yaml the targets reader loads', async () => {
  const folder = await emptyFolder();
  const { code, out } = await run(['init', '--out', folder]);
  expect(code).toBe(0);
  expect(out).toContain(`Wrote ${join(folder, '.env')}`);
  const dotenvPath = join(folder, '.env');

  // As written, every line is a comment: the folder still tests the embedded reference server.
  expect(loadConfig([], {}, dotenvPath)).toMatchObject({ baseUrl: undefined, token: undefined });

  const dotenv = await readFile(dotenvPath, 'utf8');
  await writeFile(dotenvPath, filledIn(dotenv));
  const config = loadConfig([], {}, dotenvPath);
  expect(config).toMatchObject({ baseUrl: 'https://help.example.com/', token: 'paste-the-api-token-here', statusId: [1], out: 'reports' });

  // The targets file loads with the tokens its targets name, taken from the filled-in .env.
  const targets = loadTargets({ ...config, baseUrl: undefined, targets: join(folder, 'targets.yaml') }, {}, dotenvPath);
  expect(targets.map((target) => [target.name, target.baseUrl])).toEqual([
    ['production', 'https://help.example.com/'],
    ['staging', 'https://staging.help.example.com/'],
  ]);
  expect(targets.map((target) => target.tokenEnv)).toEqual([...STARTER_TOKEN_VARIABLES]);
  expect(await readFile(join(folder, 'targets.yaml'), 'utf8')).not.toMatch(/token:/i);
});

test('init overwrites nothing: one line, exit 2 and no file written, unless --force', async () => {
  const folder = await emptyFolder();
  await writeFile(join(folder, '.env'), 'CONFORMANCE_TOKEN=mine\n');
  const refused = await run(['init', '--out', folder]);
  expect(refused.code).toBe(2);
  expect(refused.err).toEqual([expect.stringContaining(`${join(folder, '.env')} already exists; nothing was written`)]);
  expect(refused.err[0]).toContain('--force');
  expect(await readFile(join(folder, '.env'), 'utf8')).toBe('CONFORMANCE_TOKEN=mine\n');
  await expect(readFile(join(folder, 'targets.yaml'), 'utf8')).rejects.toThrow('ENOENT');

  const forced = await run(['init', '--out', folder, '--force']);
  expect(forced.code).toBe(0);
  expect(await readFile(join(folder, '.env'), 'utf8')).toContain('# CONFORMANCE_TOKEN=');
  expect(await readFile(join(folder, 'targets.yaml'), 'utf8')).toContain('targets:');
});

test('init writes .env for its owner alone, also over an existing one with --force', async () => {
  const folder = await emptyFolder();
  expect((await run(['init', '--out', folder])).code).toBe(0);
  expect((await stat(join(folder, '.env'))).mode & 0o777).toBe(0o600);
  await chmod(join(folder, '.env'), 0o644);
  expect((await run(['init', '--out', folder, '--force'])).code).toBe(0);
  expect((await stat(join(folder, '.env'))).mode & 0o777).toBe(0o600);
});

test.each([
  ['.env', 'a symbolic link to a file elsewhere', 'it is a symbolic link, which is not followed'],
  ['targets.yaml', 'a symbolic link that leads nowhere', 'it is a symbolic link, which is not followed'],
  ['.env', 'a named pipe', 'it is a named pipe or a device, not a regular file'],
  ['targets.yaml', 'a folder', 'it is a folder'],
])('init --force refuses %s that is %s in one line, and writes nothing through it', async (name, what, reason) => {
  const folder = await emptyFolder();
  const elsewhere = await emptyFolder();
  const outside = join(elsewhere, 'precious.txt');
  if (what === 'a symbolic link to a file elsewhere') {
    await writeFile(outside, 'keep me\n');
    await symlink(outside, join(folder, name));
  } else if (what === 'a symbolic link that leads nowhere') {
    await symlink(outside, join(folder, name));
  } else if (what === 'a named pipe') {
    await promisify(execFile)('mkfifo', [join(folder, name)]);
  } else {
    await mkdir(join(folder, name));
  }
  // Without --force, anything at the path is left alone.
  expect((await run(['init', '--out', folder])).err).toEqual([expect.stringContaining('already exists; nothing was written')]);
  const forced = await run(['init', '--out', folder, '--force']);
  expect(forced.code).toBe(2);
  expect(forced.err).toHaveLength(1);
  expect(forced.err[0]).toContain(`HARNESS_ENVIRONMENT: ${name} cannot be written to ${join(folder, name)}: ${reason}`);
  expect(forced.err[0]).not.toContain('bug in the suite');
  if (what === 'a symbolic link to a file elsewhere') expect(await readFile(outside, 'utf8')).toBe('keep me\n');
  if (what === 'a symbolic link that leads nowhere') await expect(lstat(outside)).rejects.toThrow('ENOENT');
});

test('init without a terminal asks nothing and writes into the current folder', async () => {
  const folder = await emptyFolder();
  // execFile leaves the child's stdin an open pipe: a command that waited on a question would never end.
  const result = await execCli(['init'], folder);
  expect(result.code, result.stderr).toBe(0);
  expect(await readFile(join(folder, '.env'), 'utf8')).toContain('CONFORMANCE_BASE_URL');
  expect(await readFile(join(folder, 'targets.yaml'), 'utf8')).toContain('tokenEnv:');
});

test('--help lists init among the commands', async () => {
  const { code, out } = await run(['--help']);
  expect(code).toBe(0);
  expect(out.join('\n')).toMatch(/^ {7}ticketing-conformance init \[--out DIR\] /m);
});

test("the .env init writes holds every setting of the README's table, commented out under what it does", () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('The settings you will use most'), readme.indexOf('Flags beat environment variables'));
  const variables = [...table.matchAll(/^\| `--[^|]+\| `(CONFORMANCE_[A-Z_]+)/gm)].map((match) => match[1]);
  expect(variables.length).toBeGreaterThan(4);
  const lines = starterDotenv().split('\n');
  for (const variable of variables) {
    const at = lines.findIndex((line) => line.startsWith(`# ${variable}=`));
    expect(at, variable).toBeGreaterThan(0);
    expect(lines[at - 1], variable).toMatch(/^# \S/);
  }
});
