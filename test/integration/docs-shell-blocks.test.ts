import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference-server/server.js';
import { cliEnv, COMPILED_CLI, repoRoot } from '../helpers/run-cli.js';
import { removeFolder, SAFETY_NET_MS, TEST_SAFETY_NET_MS } from '../helpers/safety-net.js';

/**
 * Every shell block of README.md and docs/*.md runs as written, so that no page can drift from the product. A block
 * that cannot run here says so in the page, on the line before it: `<!-- not run: why -->`; it is listed as a skipped
 * test with that reason. A block whose line before is `<!-- file: NAME -->` is a file the page's commands read: it is
 * written as NAME into the folder they run in.
 *
 * The pages speak of a deployment; here one reference server stands for every address they name, and one token for
 * every token variable (the fills below). Each block runs in a folder of its own that looks like a checkout (its
 * entries linked to this one) and holds what the pages assume an earlier run left: reports/ of a finished run, and
 * nightly-reports/ with two nights of it.
 */

const TOKEN = 'docs-blocks-token-4e1a9c';
/** The token variables the pages use: the product's own, and those the targets files name. */
const TOKEN_VARIABLES = ['CONFORMANCE_TOKEN', 'PROD_TOKEN', 'STAGING_TOKEN'];
/** Blocks run at once: each starts a few Node processes, and the machine may be busy. */
const PARALLEL = 3;

interface Block {
  /** page:line of the opening fence. */
  where: string;
  page: string;
  text: string;
  notRun?: string;
  file?: string;
}

/** How each placeholder of the pages is filled: every example address is the reference server, every "…" a variable. */
function fill(text: string, baseUrl: string): string {
  return text
    .replaceAll(/https:\/\/[\w.-]*example(?:\.com)?(?:\/[\w/-]*)?/g, baseUrl)
    .replaceAll('http://127.0.0.1:8080', baseUrl)
    .replaceAll(/\breference-token\b/g, TOKEN)
    .replaceAll(/\b([A-Z][A-Z_]*)=(?:…|\.\.\.)(?=\s)/g, '$1="$$$1"');
}

const SHELL = /^```(?:sh|bash|shell)$/;
const MARKER = /^<!-- (not run|file): (.+?) -->$/;

function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(repoRoot, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let at = 0; at < lines.length; at += 1) {
    const fence = lines[at] ?? '';
    if (!fence.startsWith('```')) continue;
    const end = closing(lines, at);
    const marker = MARKER.exec(lines[at - 1] ?? '');
    const text = lines.slice(at + 1, end).join('\n');
    const where = `${page}:${at + 1}`;
    if (marker?.[1] === 'file') blocks.push({ where, page, text, file: marker[2] });
    else if (SHELL.test(fence)) blocks.push({ where, page, text, ...(marker?.[1] === 'not run' ? { notRun: marker[2] } : {}) });
    at = end;
  }
  return blocks;
}

function closing(lines: string[], open: number): number {
  const end = lines.findIndex((line, index) => index > open && line.startsWith('```'));
  if (end < 0) throw new Error(`an unclosed code block at line ${open + 1}`);
  return end;
}

const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const blocks = pages.flatMap(blocksOf);
const shellBlocks = blocks.filter((block) => block.file === undefined);

let server: RunningReferenceServer | undefined;
let work = '';
/** A folder put first on the blocks' PATH, holding the npx below. */
let shims = '';
const outcomes = new Map<string, { code: number | null; output: string }>();

/** A folder that looks like this checkout (each entry linked, not copied) with what the pages assume was run before. */
async function workspace(block: Block, fixture: string, baseUrl: string): Promise<string> {
  const folder = await mkdtemp(join(work, 'block-'));
  const files = blocks.filter((each) => each.page === block.page && each.file !== undefined);
  // A file of the page is the folder's own: written through a link, it would overwrite the checkout's.
  const own = new Set(['reports', ...files.map((file) => file.file)]);
  for (const name of (await readdir(repoRoot)).filter((entry) => !entry.startsWith('.') && !own.has(entry)))
    await symlink(join(repoRoot, name), join(folder, name));
  await cp(fixture, join(folder, 'reports'), { recursive: true });
  for (const night of ['night-1', 'night-2']) {
    await mkdir(join(folder, 'nightly-reports', night), { recursive: true });
    await cp(join(fixture, 'report.json'), join(folder, 'nightly-reports', night, 'report.json'));
  }
  for (const file of files) await writeFile(join(folder, file.file ?? ''), `${fill(file.text, baseUrl)}\n`, { flag: 'wx' });
  return folder;
}

/**
 * No command of the pages may fetch code from the npm registry: every block runs with the registry at a closed port
 * and npm offline, so that an npx or npm line that would install something fails instead.
 */
const REGISTRY_UNREACHABLE = { npm_config_registry: 'http://127.0.0.1:9', npm_config_offline: 'true' };

/**
 * `npx --no-install ticketing-conformance` (or `npx --no`, `npm exec --no --`) runs the compiled command straight,
 * without npx finding it first: that npx finds the package's command is what the package and git-install tests check,
 * and npx costs a Node start of its own on every line of every page. A bare `npx ticketing-conformance`, which would ask
 * the registry wherever the package is not installed, fails the block. Any other npx line goes to the machine's npx.
 */
async function writeNpxShim(folder: string): Promise<void> {
  const npx = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'npx'))
    .find((candidate) => existsSync(candidate));
  if (!npx) throw new Error('npx is not on PATH');
  const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  const shim = join(folder, 'npx');
  await writeFile(
    shim,
    [
      '#!/usr/bin/env bash',
      'if [ "${1-}" = ticketing-conformance ]; then',
      '  echo "npx ticketing-conformance without --no-install would fetch the package from the registry where it is not installed" >&2',
      '  exit 97',
      'fi',
      `if [ "\${1-}" = --no-install ] || [ "\${1-}" = --no ]; then`,
      `  if [ "\${2-}" = ticketing-conformance ]; then shift 2; exec ${quote(process.execPath)} ${quote(COMPILED_CLI)} "$@"; fi`,
      'fi',
      `exec ${quote(npx)} "$@"`,
      '',
    ].join('\n'),
  );
  await chmod(shim, 0o755);
}

function runBlock(text: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const env = cliEnv({ ...Object.fromEntries(TOKEN_VARIABLES.map((name) => [name, TOKEN])), ...REGISTRY_UNREACHABLE });
  env.PATH = `${shims}${delimiter}${env.PATH ?? ''}`;
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-e', '-o', 'pipefail', '-c', text],
      { cwd, env, timeout: SAFETY_NET_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'conformance-docs-blocks-'));
  shims = join(work, 'shims');
  await mkdir(shims);
  await writeNpxShim(shims);
  server = await startReferenceServer({ token: TOKEN });
  const baseUrl = server.url;
  const fixture = join(work, 'fixture-reports');
  const run = await runBlock(`npx --no-install ticketing-conformance --base-url ${baseUrl} --token ${TOKEN} --out ${fixture}`, work);
  if (run.code !== 0) throw new Error(`the run the pages assume could not be made:\n${run.output}`);
  const queue = shellBlocks.filter((block) => block.notRun === undefined);
  const worker = async (): Promise<void> => {
    for (let block = queue.shift(); block; block = queue.shift()) {
      const folder = await workspace(block, fixture, baseUrl);
      outcomes.set(block.where, await runBlock(fill(block.text, baseUrl), folder));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}, TEST_SAFETY_NET_MS);

afterAll(async () => {
  await server?.close();
  if (work) await removeFolder(work);
});

test('the pages have shell blocks to run, and every block that is not run says why', () => {
  expect(shellBlocks.filter((block) => block.notRun === undefined).length).toBeGreaterThan(10);
  for (const block of shellBlocks.filter((each) => each.notRun !== undefined))
    expect(block.notRun?.length, block.where).toBeGreaterThan(10);
});

for (const block of shellBlocks) {
  if (block.notRun !== undefined) {
    test.skip(`${block.where} is not run: ${block.notRun}`, () => undefined);
    continue;
  }
  test(`${block.where} runs as written and exits 0`, () => {
    const outcome = outcomes.get(block.where);
    expect(outcome, 'the block did not run').toBeDefined();
    expect(outcome?.code, `${block.text}\n---\n${outcome?.output ?? ''}`).toBe(0);
  });
}
