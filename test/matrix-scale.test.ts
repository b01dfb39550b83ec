import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { buildMatrix } from '../src/report/matrix/build.js';
import type { RunError } from '../src/errors.js';
import type { Matrix, MatrixTarget } from '../src/report/matrix/types.js';
import { MATRIX_OUTPUTS, writeMatrix } from '../src/report/write.js';
import { validator } from '../src/validators/schemas.js';
import { fileResources } from './helpers/file-resources.js';
import type { CliRun } from './helpers/run-cli.js';
import { removeFolder } from './helpers/safety-net.js';

/** More targets than one spec run judges, so the matrix's own spec runner takes several batches through its worker. */
const TARGETS = 40;
const GOOD_TOKEN = 'scale-good-token-51c9e2';
const BROKEN_TOKEN = 'scale-broken-token-0d7a44';

describe('a matrix of more targets than one batch', () => {
  const { inProcess, cleanUpAfterAll } = fileResources({ ownSpecRunner: true });
  let good: RunningReferenceServer | undefined;
  let broken: RunningReferenceServer | undefined;
  let run: CliRun | undefined;
  let commandStartedAt = 0;
  let matrix: Matrix | undefined;
  const names = Array.from({ length: TARGETS }, (_, index) => `site-${String(index + 1).padStart(2, '0')}`);
  /** Every third target is served by a server that leaves out the status colour, so its verdict is its own. */
  const isBroken = (index: number): boolean => index % 3 === 2;

  beforeAll(async () => {
    [good, broken] = await Promise.all([
      startReferenceServer({ token: GOOD_TOKEN }),
      startReferenceServer({ token: BROKEN_TOKEN, variants: ['colour-missing'] }),
    ]);
    cleanUpAfterAll(good.close);
    cleanUpAfterAll(broken.close);
    const dir = await mkdtemp(join(tmpdir(), 'conformance-scale-'));
    const entries = names.map((name, index) => ({
      name,
      baseUrl: (isBroken(index) ? broken : good)?.url,
      tokenEnv: isBroken(index) ? 'BROKEN_TOKEN' : 'GOOD_TOKEN',
    }));
    await writeFile(join(dir, 'targets.json'), JSON.stringify(entries));
    commandStartedAt = Date.now();
    run = await inProcess.run(['--targets', join(dir, 'targets.json'), '--target-concurrency', '8', '--reports', 'json,html,junit'], {
      GOOD_TOKEN,
      BROKEN_TOKEN,
    });
    cleanUpAfterAll(run.cleanup);
    await removeFolder(dir);
    matrix = JSON.parse(await readFile(join(run.outDir, 'matrix.json'), 'utf8')) as Matrix;
  });

  test('every target gets its own verdict, whatever batch judged it', () => {
    expect(run?.stderr).toBe('');
    expect(run?.code).toBe(1);
    const verdicts = matrix?.targets.map((target) => [target.name, target.verdict, target.verdicts['STATUS-COLOUR']]);
    expect(verdicts).toEqual(
      names.map((name, index) => [name, isBroken(index) ? 'not-conformant' : 'conformant', isBroken(index) ? 'fail' : 'pass']),
    );
  });

  test('matrix.json and matrix.md keep the order of the targets file', async () => {
    expect(matrix?.targets.map((target) => target.position)).toEqual(names.map((_, index) => index));
    const markdown = await readFile(join(run?.outDir ?? '', 'matrix.md'), 'utf8');
    const rows = markdown.split('\n').filter((line) => line.startsWith('| site-'));
    expect(rows.map((line) => line.split(' | ')[0]?.slice(2))).toEqual(names);
  });

  test('matrix.html lists the targets that need attention first, each kind in file order, with a filter', async () => {
    const html = await readFile(join(run?.outDir ?? '', 'matrix.html'), 'utf8');
    const rowNames = [...html.matchAll(/<tr class="[^"]*" data-name="([^"]+)"/g)].map((match) => match[1]);
    const failing = names.filter((_, index) => isBroken(index));
    const passing = names.filter((_, index) => !isBroken(index));
    expect(rowNames).toEqual([...failing, ...passing]);
    expect(html).toContain('id="show-attention"');
    expect(html).toMatch(/Need attention \(\d+\)/);
  });

  test('the duration covers the whole run, writing every report included, and the terminal says the same', async () => {
    if (!matrix || !run) throw new Error('the matrix run did not finish');
    const started = Date.parse(matrix.startedAt);
    const finished = Date.parse(matrix.finishedAt);
    expect(matrix.durationMs).toBe(finished - started);
    // The run starts with the command, after the test started it; it finishes after the last target's reports are written.
    expect(started).toBeGreaterThanOrEqual(commandStartedAt - 1000);
    const targetsDir = join(run.outDir, 'targets');
    const written = await Promise.all(
      (await readdir(targetsDir)).flatMap((name) =>
        ['report.json', 'report.html', 'junit.xml'].map(async (file) => (await stat(join(targetsDir, name, file))).mtimeMs),
      ),
    );
    expect(finished).toBeGreaterThanOrEqual(Math.floor(Math.max(...written)));
    expect(run.stdout).toContain(`${TARGETS} targets in ${matrix.durationMs} ms`);
  });
});

function row(name: string, position: number, summary = 'Conformant.'): MatrixTarget {
  return {
    name,
    position,
    baseUrl: `https://${name}.example`,
    verdict: 'conformant',
    exitCode: 0,
    summary,
    totals: { pass: 26, fail: 0, warn: 0, info: 0, skip: 0, error: 0, flaky: 0 },
    outcomes: { passed: 26, failed: 0, warned: 0, waived: 0, skipped: 0, observed: 0, unjudged: 0 },
    strict: false,
    waived: [],
    requests: 17,
    durationMs: 5,
    reportDir: `targets/${name}`,
    verdicts: { 'STATUS-COLOUR': 'pass' },
  };
}

function matrixOf(rows: MatrixTarget[], scanner = createSecretScanner([]), errors: RunError[] = []): Matrix {
  const at = new Date().toISOString();
  return buildMatrix(
    {
      suite: { name: 'ticketing-conformance', version: '0.0.0' },
      startedAt: at,
      finishedAt: at,
      durationMs: 0,
      targetConcurrency: 4,
      targets: rows,
      errors,
    },
    scanner,
  );
}

describe("the matrix's exit code, read as a run's", () => {
  const judged = (name: string, exitCode: 0 | 1 | 2, position: number): MatrixTarget => ({
    ...row(name, position),
    exitCode,
    verdict: exitCode === 0 ? 'conformant' : exitCode === 1 ? 'not-conformant' : 'inconclusive',
  });
  test.each<[string, (0 | 1 | 2)[], 0 | 1 | 2]>([
    ['every target conformant', [0, 0], 0],
    ['one not conformant', [0, 1], 1],
    ['one not conformant, another without a verdict: the fleet is not conformant', [2, 1, 0], 1],
    ['one without a verdict, the others conformant', [0, 2], 2],
  ])('%s', (_name, codes, expected) => {
    expect(matrixOf(codes.map((code, index) => judged(`t${index}`, code, index))).exitCode).toBe(expected);
  });

  test('a matrix that met an error of its own gives no verdict, whatever its targets', () => {
    const interrupted: RunError = {
      code: 'HARNESS_INTERRUPTED',
      message: 'the run was interrupted',
      hint: 'Run it again',
      party: 'environment',
    };
    expect(matrixOf([judged('broken', 1, 0)], createSecretScanner([]), [interrupted]).exitCode).toBe(2);
  });
});

describe('the leak scan of the matrix views, with a token per target', () => {
  const tokens = Array.from({ length: 300 }, (_, index) => `fleet-token-${index}-${(index * 7919).toString(36)}x`);
  const fleetScanner = createSecretScanner(tokens);
  const { tempFolder } = fileResources();

  test('one scanner finds any form of any of many tokens, and nothing in clean text', () => {
    const scanner = createSecretScanner([...tokens, ...tokens]);
    const last = tokens.at(-1) ?? '';
    expect(scanner.find(`prefix ${last} suffix`)).toBe('the API token');
    expect(scanner.find(`Basic ${Buffer.from(`${tokens[150]}:x`).toString('base64')}`)).toBe('the API token');
    expect(scanner.find(encodeURIComponent(`${tokens[7]}/`))).toBe('the API token');
    expect(scanner.find('fleet-token-12-not-one-of-them')).toBeUndefined();
    expect(createSecretScanner([]).find('anything')).toBeUndefined();
  });

  test('a matrix whose rows would show one token among hundreds is built with it redacted and says so; a clean one is written whole', async () => {
    const rows = tokens.map((_, index) => row(`target-${index}`, index));
    const basic = Buffer.from(`${tokens[211]}:x`).toString('base64');
    const leaky = rows.map((target, index) =>
      index === 211 ? { ...target, verdict: 'not-conformant' as const, exitCode: 1 as const, summary: `echoed ${basic}` } : target,
    );
    const cleanDir = await tempFolder('conformance-matrix-clean-');
    const leakDir = await tempFolder('conformance-matrix-leak-');

    const clean = matrixOf(rows, fleetScanner);
    const cleanWritten = await writeMatrix(clean, cleanDir, fleetScanner);
    expect(cleanWritten.map((path) => path.slice(cleanDir.length + 1))).toEqual(MATRIX_OUTPUTS);
    expect(clean.errors).toEqual([]);

    const leaking = matrixOf(leaky, fleetScanner);
    expect(leaking.errors.map((error) => [error.code, error.message])).toEqual([
      ['HARNESS_SECRET_LEAK', 'the matrix would have contained the API token, so every view shows it redacted'],
    ]);
    expect(leaking.exitCode).toBe(2);
    expect(Object.isFrozen(leaking.targets[211])).toBe(true);
    const written = await writeMatrix(leaking, leakDir, fleetScanner);
    expect(written.map((path) => path.slice(leakDir.length + 1))).toEqual(MATRIX_OUTPUTS);
    for (const name of MATRIX_OUTPUTS) {
      const text = await readFile(join(leakDir, name), 'utf8');
      expect({ name, found: fleetScanner.find(text) }).toEqual({ name, found: undefined });
      expect(text, name).toContain('the matrix would have contained the API token');
    }
  });

  test('a view that would still show a token is not written; the others are, and the writing ends in the leak', async () => {
    const dir = await tempFolder('conformance-matrix-one-');
    // Built with a scanner that knows none of the tokens; the base URL is in matrix.json only, not in the other views.
    const rows = tokens.map((_, index) =>
      index === 42 ? { ...row('target-42', 42), baseUrl: `https://x.example/${tokens[42]}` } : row(`target-${index}`, index),
    );
    const matrix = matrixOf(rows);
    await expect(writeMatrix(matrix, dir, fleetScanner)).rejects.toMatchObject({
      code: 'HARNESS_SECRET_LEAK',
      message: 'matrix.json would have contained the API token, so it was not written',
    });
    expect((await readdir(dir)).filter((name) => name.startsWith('matrix.')).sort()).toEqual(['matrix.html', 'matrix.md']);
    expect(matrix.errors).toEqual([]);
  });
  test('a token in a base URL or a name is redacted in the form the schema gives each, and matrix.json stays on its schema', async () => {
    const dir = await tempFolder('conformance-matrix-form-');
    const rows = tokens.map((_, index) =>
      index === 42
        ? { ...row('target-42', 42), baseUrl: `https://x.example/${tokens[42]}` }
        : index === 43
          ? row(`eu-${tokens[43]}`, 43)
          : row(`target-${index}`, index),
    );
    const matrix = matrixOf(rows, fleetScanner);
    expect([matrix.targets[42]?.baseUrl, matrix.targets[43]?.name]).toEqual(['https://x.example/%3Credacted%3E', 'target-44']);
    expect(matrix.errors.map((error) => error.code)).toEqual(['HARNESS_SECRET_LEAK']);
    await writeMatrix(matrix, dir, fleetScanner);
    const check = validator('matrix');
    expect(check(JSON.parse(await readFile(join(dir, 'matrix.json'), 'utf8'))), JSON.stringify(check.errors)).toBe(true);
  });
});
