import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { copyFile, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { run } from '../../src/index.js';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { fileResources } from '../helpers/file-resources.js';
import { repoRoot } from '../helpers/run-cli.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'recordings');
const VITEST = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
const TSX = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');

const { cleanUpAfterAll, tempFolder } = fileResources();
// Where allure-vitest writes when a test does not say: a folder of the tests', never the checkout's reports/.
const ALLURE_ELSEWHERE = mkdtempSync(join(tmpdir(), 'specs-allure-'));
cleanUpAfterAll(() => rm(ALLURE_ELSEWHERE, { recursive: true, force: true }));

/** The environment of a developer's shell: none of the self-test run's own Vitest or suite settings. */
function shellEnv(extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('VITEST') && !name.startsWith('CONFORMANCE_') && name !== 'NODE_OPTIONS' && name !== 'CI',
  );
  return { ...Object.fromEntries(inherited), NO_COLOR: '1', ALLURE_RESULTS_DIR: ALLURE_ELSEWHERE, ...extra } as Record<string, string>;
}

interface Output {
  code: number;
  out: string;
}

function exec(args: string[], env: Record<string, string> = {}): Promise<Output> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: repoRoot, env: shellEnv(env), timeout: SAFETY_NET_MS }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout + stderr }),
    );
  });
}

const specs = (args: string[], recording?: string, env: Record<string, string> = {}): Promise<Output> =>
  exec([VITEST, 'run', '--config', 'vitest.specs.config.ts', ...args], {
    ...env,
    ...(recording ? { CONFORMANCE_RECORDING: recording } : {}),
  });

/** Vitest's summary lines, e.g. "Tests  1 failed | 17 passed (18)". */
const testsLine = (out: string): string => (/^\s*Tests\s+(.*)$/m.exec(out)?.[1] ?? '').trim();

test('npx vitest --config vitest.specs.config.ts judges the kept recording of the reference server: every scenario passes', async () => {
  const result = await specs([]);
  expect(result.code, result.out).toBe(0);
  // The two scenarios of --profile official-client are skipped by name: the kept recording was made without it.
  expect(testsLine(result.out)).toMatch(/^\d+ passed \| 2 skipped \(\d+\)$/);
});

test('a recording of a broken server fails its scenario with the requirement, expected and actual', async () => {
  const result = await specs([], join(FIXTURES, 'colour-missing.recording.json'));
  expect(result.code).toBe(1);
  expect(testsLine(result.out)).toMatch(/^1 failed \| \d+ passed/);
  expect(result.out).toContain('STATUS-COLOUR: data.colour has the documented type');
  expect(result.out).toMatch(/Actual: +data\.colour: absent/);
});

test('-t REQUIREMENT-ID runs only the scenarios that judge it; --tags-filter does the same by tag', async () => {
  const named = await specs(['-t', 'AUTH-TOKEN-ACCEPTED'], join(FIXTURES, 'colour-missing.recording.json'));
  expect(named.code, named.out).toBe(0);
  expect(testsLine(named.out)).toMatch(/^1 passed \| \d+ skipped/);
  const failing = await specs(['-t', 'STATUS-COLOUR'], join(FIXTURES, 'colour-missing.recording.json'));
  expect(failing.code).toBe(1);
  expect(testsLine(failing.out)).toMatch(/^1 failed \| \d+ skipped/);
  const tagged = await specs(['--tags-filter', 'AUTH-MISSING-HEADER-REFUSED'], join(FIXTURES, 'colour-missing.recording.json'));
  expect(testsLine(tagged.out)).toMatch(/^1 passed \| \d+ skipped/);
  // Where the valid token is refused too, the refusal proves nothing: the scenario is skipped, not passed.
  const uncontrolled = await specs(
    ['--tags-filter', 'AUTH-MISSING-HEADER-REFUSED'],
    join(FIXTURES, 'authorization-stripped.recording.json'),
  );
  expect(testsLine(uncontrolled.out)).toMatch(/^\d+ skipped/);
});

test('npm run specs -- --recording FILE passes the recording and Vitest options through', async () => {
  const result = await exec([TSX, 'scripts/specs.ts', '--recording', join(FIXTURES, 'colour-missing.recording.json'), '--run']);
  expect(result.code).toBe(1);
  expect(testsLine(result.out)).toMatch(/^1 failed \| \d+ passed/);
  const missing = await exec([TSX, 'scripts/specs.ts', '--recording']);
  expect(missing.code).toBe(2);
  expect(missing.out.trim()).toMatch(/^CONFIG_INVALID: --recording needs a file/);
});

/** Allure's result files (allure-vitest's), by test name: status and the first line of its message. */
async function allureResults(dir: string): Promise<Map<string, { status: string; message: string }>> {
  const results = new Map<string, { status: string; message: string }>();
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('-result.json'))) {
    const result = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
      name: string;
      status: string;
      statusDetails?: { message?: string };
    };
    results.set(result.name, { status: result.status, message: result.statusDetails?.message ?? '' });
  }
  return results;
}

test('allure-vitest writes Allure results as any Vitest project has them, each test as the gate has its requirement', async () => {
  const dir = await tempFolder('specs-allure-');
  const failing = await specs([], join(FIXTURES, 'colour-missing.recording.json'), { ALLURE_RESULTS_DIR: join(dir, 'must') });
  expect(failing.code).toBe(1);
  const must = await allureResults(join(dir, 'must'));
  expect(must.size).toBeGreaterThan(10);
  const colour = [...must].filter(([name]) => name.includes('STATUS-COLOUR'));
  expect(colour.map(([, result]) => result.status)).toEqual(['failed']);
  expect([...must].filter(([, result]) => result.status === 'failed')).toHaveLength(1);
});

test('a broken SHOULD is a warning under plain Vitest as in the gate: skipped with the failure, failed only under CONFORMANCE_STRICT', async () => {
  // ENV-NO-BOM is a SHOULD: a byte-order mark before the JSON warns without --strict and fails the run with it.
  const dir = await tempFolder('specs-should-');
  const token = 'should-fixture-token-7c1d';
  const server = await startReferenceServer({ token, variants: ['utf8-bom'] });
  cleanUpAfterAll(() => server.close());
  await run({ baseUrl: server.url, token, out: join(dir, 'run'), reports: 'json,recording' });
  const recording = join(dir, 'run', 'recording.json');

  const lenient = await specs([], recording, { ALLURE_RESULTS_DIR: join(dir, 'lenient') });
  expect(lenient.code, lenient.out).toBe(0);
  const warned = [...(await allureResults(join(dir, 'lenient')))].filter(([name]) => name.includes('ENV-NO-BOM'));
  expect(warned.map(([, result]) => result.status)).toEqual(['skipped']);
  // Vitest's verbose reporter shows the warning as the skip's note.
  const verbose = await specs(['--reporter', 'verbose'], recording);
  expect(verbose.out).toMatch(/ENV-NO-BOM[^\n]*\[warning, a failure only with --strict \(CONFORMANCE_STRICT=1\): ENV-NO-BOM/);

  const strict = await specs([], recording, { ALLURE_RESULTS_DIR: join(dir, 'strict'), CONFORMANCE_STRICT: '1' });
  expect(strict.code).toBe(1);
  expect(strict.out).toContain('ENV-NO-BOM');
  const failed = [...(await allureResults(join(dir, 'strict')))].filter(([, result]) => result.status === 'failed');
  expect(failed.map(([name]) => name).join()).toContain('ENV-NO-BOM');
  expect(failed).toHaveLength(1);
});

test('a file that is not a recording stops plain Vitest with the one line judge gives', async () => {
  const result = await specs([], join(repoRoot, 'package.json'));
  expect(result.code).not.toBe(0);
  expect(result.out).toContain('HARNESS_RECORDING_UNREADABLE');
  expect(result.out).toContain('is not a recording of ticketing-conformance');
});

test('watch mode judges a changed recording again', async () => {
  const dir = await tempFolder('specs-watch-');
  const recording = join(dir, 'recording.json');
  await copyFile(join(FIXTURES, 'reference.recording.json'), recording);
  const child = spawn(process.execPath, [VITEST, '--watch', '--config', 'vitest.specs.config.ts'], {
    cwd: repoRoot,
    env: shellEnv({ CONFORMANCE_RECORDING: recording }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stopped = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  cleanUpAfterAll(async () => {
    child.kill();
    await stopped;
  });
  let out = '';
  const summaries = (): string[] => [...out.matchAll(/^\s*Tests\s+(.*)$/gm)].map((match) => (match[1] ?? '').trim());
  const waitFor = async (count: number): Promise<void> => {
    for (let waited = 0; summaries().length < count && waited < SAFETY_NET_MS; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await waitFor(1);
  expect(summaries()[0], out).toMatch(/^\d+ passed \| 2 skipped \(\d+\)$/);
  await copyFile(join(FIXTURES, 'colour-missing.recording.json'), recording);
  await waitFor(2);
  expect(summaries()[1], out).toMatch(/^1 failed \| \d+ passed/);
  child.kill();
  await stopped;
});

test('the CLI judges with the runner plain Vitest runs: both are pinned to one release, and one copy is installed', async () => {
  const { createRequire } = await import('node:module');
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // The specs' test() registers with @vitest/runner: under plain Vitest it must be the copy Vitest collects from.
  expect(manifest.dependencies['@vitest/runner']).toBe(manifest.dependencies.vitest);
  expect(manifest.dependencies.vitest).toMatch(/^\d+\.\d+\.\d+$/);
  const ours = createRequire(join(repoRoot, 'package.json')).resolve('@vitest/runner');
  const vitests = createRequire(join(repoRoot, 'node_modules', 'vitest', 'package.json')).resolve('@vitest/runner');
  expect(vitests).toBe(ours);
});
