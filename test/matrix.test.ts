import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { validator } from '../src/validators/schemas.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Matrix } from '../src/report/matrix/types.js';
import type { Report } from '../src/report/model/types.js';
import { mergeMatrices } from '../src/pipeline/merge.js';
import { MANIFEST } from '../src/files/artifacts.js';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { runMatrix } from '../src/pipeline/matrix.js';
import { startJudge, type Judge } from '../src/pipeline/pipeline.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';
import { fileResources } from './helpers/file-resources.js';
import { unfrozenPaths } from './helpers/frozen.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();

interface LocalTarget {
  name: string;
  faults: string[];
}

/** One reference server per target, each with its own token, and the environment holding the tokens. */
async function serve(targets: LocalTarget[]): Promise<{ entries: object[]; env: Record<string, string>; tokens: string[] }> {
  const entries: object[] = [];
  const env: Record<string, string> = {};
  for (const [index, target] of targets.entries()) {
    const token = `matrix-token-${index}-${target.name}-6a1f`;
    const server = await startReferenceServer({ token, variants: target.faults });
    cleanUpAfterAll(server.close);
    const tokenEnv = `MATRIX_TOKEN_${index}`;
    env[tokenEnv] = token;
    entries.push({ name: target.name, baseUrl: server.url, tokenEnv });
  }
  return { entries, env, tokens: Object.values(env) };
}

/**
 * A targets file of local targets in a folder of its own, and the output folder beside it, for runs into the same
 * folder; entries may be written again with fewer of the targets.
 */
async function fleetFolder(
  prefix: string,
  targets: LocalTarget[],
): Promise<{ entries: object[]; env: Record<string, string>; dir: string; targets: string; out: string }> {
  const { entries, env } = await serve(targets);
  const dir = await tempFolder(prefix);
  const file = join(dir, 'targets.json');
  await writeFile(file, JSON.stringify(entries));
  return { entries, env, dir, targets: file, out: join(dir, 'out') };
}

/** The entries of the targets named, as a targets file holds them. */
const named = (entries: object[], name: string): object[] => entries.filter((entry) => (entry as { name: string }).name === name);

async function matrixOf(run: CliRun, dir = run.outDir): Promise<Matrix> {
  return JSON.parse(await readFile(join(dir, 'matrix.json'), 'utf8')) as Matrix;
}

type Runner = (args: string[], env: Record<string, string>) => Promise<CliRun>;

/** Writes the targets file in a folder of its own and runs the command on it, in this process unless told otherwise. */
async function runWithFile(
  name: string,
  content: string,
  env: Record<string, string>,
  extra: string[] = [],
  run: Runner = inProcess.run,
): Promise<CliRun> {
  const dir = await tempFolder('conformance-targets-');
  await writeFile(join(dir, name), content);
  const result = await run(['--targets', join(dir, name), ...extra], env);
  cleanUpAfterAll(result.cleanup);
  return result;
}

describe('a matrix of targets', () => {
  // The real process: no token in what the binary itself prints, and nothing on its stderr.
  test('two targets from YAML: one matrix, each its own reports, the worst exit code, no token anywhere', async () => {
    const { entries, env, tokens } = await serve([
      { name: 'good', faults: [] },
      { name: 'broken', faults: ['colour-missing'] },
    ]);
    const yaml = `targets:\n${entries.map((entry) => `  - ${JSON.stringify(entry)}`).join('\n')}\n`;
    const run = await runWithFile('targets.yaml', yaml, env, [], runCli);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const matrix = await matrixOf(run);
    expect(validator('matrix')(matrix)).toBe(true);
    expect(matrix.targets.map((target) => [target.name, target.verdict, target.exitCode])).toEqual([
      ['good', 'conformant', 0],
      ['broken', 'not-conformant', 1],
    ]);
    expect(matrix.targets[1]?.verdicts['STATUS-COLOUR']).toBe('fail');
    expect(matrix.exitCode).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((line) => /^\[\d\/2\] (good|broken): /.test(line))).toHaveLength(2);
    expect(lines.at(-1)).toBe('59 passed, 1 failed, 0 skipped, 14 info');
    const files = await run.files();
    const names = files.map((file) => file.path.slice(run.outDir.length + 1)).sort();
    for (const name of [
      'matrix.json',
      'matrix.md',
      'matrix.html',
      'targets/good/report.json',
      'targets/broken/junit.xml',
      'targets/good/recording.json',
      'targets/broken/recording.har',
    ])
      expect(names).toContain(name);
    // Each target's recording gives its verdict again, offline.
    const judged = await inProcess.exec([
      'judge',
      join(run.outDir, 'targets', 'broken', 'recording.json'),
      '--quiet',
      '--out',
      join(run.outDir, 'judged'),
    ]);
    expect(judged.code).toBe(1);
    expect(judged.stdout).toMatch(/Not conformant: 1 requirement\(s\) failed \(STATUS-COLOUR\)/);
    // The same report, to its content hash: the recording holds the times the target's report was built with.
    const contentOf = async (...path: string[]): Promise<string | undefined> =>
      (JSON.parse(await readFile(join(run.outDir, ...path), 'utf8')) as Report).integrity?.content;
    expect(await contentOf('judged', 'report.json')).toBe(await contentOf('targets', 'broken', 'report.json'));
    const html = files.find((file) => file.path.endsWith('matrix.html'))?.content.toString() ?? '';
    expect(html).toContain('targets/broken/report.');
    for (const file of files) for (const token of tokens) expect(file.content.toString('utf8')).not.toContain(token);
    for (const token of tokens) expect(run.stdout).not.toContain(token);
  });

  test("each target folder made new is on the matrix's list, whole, so a second run into the same folder removes what it does not write", async () => {
    const { env, targets, out } = await fleetFolder('conformance-matrix-again-', [{ name: 'good', faults: [] }]);
    const target = join(out, 'targets', 'good');
    const first = ['--targets', targets, '--out', out, '--quiet', '--reports', 'json,md,recording'];
    expect((await inProcess.exec(first, env)).code).toBe(0);
    // The folder holds the target's reports alone: the list of the matrix's folder names them and it.
    expect((await readdir(target)).sort()).toEqual(['recording.har', 'recording.json', 'report.json', 'report.md']);
    const list = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files: string[]; folders: string[] };
    expect(list.files).toEqual(expect.arrayContaining(['matrix.json', 'targets/good/report.json', 'targets/good/recording.har']));
    expect(list.folders.sort()).toEqual(['targets', 'targets/good']);
    expect((await inProcess.exec(['--targets', targets, '--out', out, '--quiet', '--reports', 'json'], env)).code).toBe(0);
    expect((await readdir(target)).sort()).toEqual(['report.json']);
  });

  test('a target no longer in the file loses its folder at the next run into the same folder; what another tool put there stays', async () => {
    const { entries, env, targets, out } = await fleetFolder('conformance-matrix-dropped-', [
      { name: 'kept', faults: [] },
      { name: 'dropped', faults: [] },
      { name: 'annotated', faults: [] },
    ]);
    expect((await inProcess.exec(['--targets', targets, '--out', out, '--quiet', '--reports', 'json'], env)).code).toBe(0);
    await writeFile(join(out, 'targets', 'annotated', 'notes.txt'), 'ours, not the suite’s');
    await writeFile(targets, JSON.stringify(named(entries, 'kept')));
    expect((await inProcess.exec(['--targets', targets, '--out', out, '--quiet', '--reports', 'json'], env)).code).toBe(0);
    // A report left from the earlier run would be read as today's by anyone browsing the folder, or by history.
    expect((await readdir(join(out, 'targets'))).sort()).toEqual(['annotated', 'kept']);
    expect(await readdir(join(out, 'targets', 'annotated'))).toEqual(['notes.txt']);
    expect(await readdir(join(out, 'targets', 'kept'))).toEqual(expect.arrayContaining(['report.json']));
  });

  test('a target its judging thread began to write but did not finish is written whole by the main thread', async () => {
    const { env, dir, targets, out } = await fleetFolder('conformance-matrix-begun-', [{ name: 'begun', faults: [] }]);
    const config = loadConfig(['--targets', targets, '--out', out, '--reports', 'json'], env, join(dir, '.env'));
    const inner = startJudge({ timeoutMs: SAFETY_NET_MS });
    cleanUpAfterAll(() => inner.close());
    // A thread that wrote part of the target's files and then failed: it hands back the scenarios, not the row.
    const begun: Judge = {
      async judge({ finish, ...input }) {
        expect(finish).toBeDefined();
        await mkdir(join(out, 'targets', 'begun'), { recursive: true });
        await writeFile(join(out, 'targets', 'begun', 'report.json'), '{"cut":');
        return inner.judge(input);
      },
    };
    const { matrix } = await runMatrix(config, loadTargets(config, env, join(dir, '.env')), undefined, {}, { judge: begun });
    expect(matrix.targets.map((target) => [target.name, target.exitCode])).toEqual([['begun', 0]]);
    const report = JSON.parse(await readFile(join(out, 'targets', 'begun', 'report.json'), 'utf8')) as { verdict: string };
    expect(report.verdict).toBe('conformant');
  });

  test('a matrix that fails after writing some targets still lists their folders, so the next run into the folder removes them', async () => {
    const { entries, env, dir, targets, out } = await fleetFolder('conformance-matrix-failed-', [
      { name: 'written', faults: [] },
      { name: 'blocked', faults: [] },
    ]);
    const config = loadConfig(['--targets', targets, '--out', out, '--reports', 'json'], env, join(dir, '.env'));
    const inner = startJudge({ timeoutMs: SAFETY_NET_MS });
    cleanUpAfterAll(() => inner.close());
    let firstWritten: () => void = () => undefined;
    const written = new Promise<void>((resolve) => (firstWritten = resolve));
    // Each target comes back unwritten, so the main thread writes it; once the first is written, a file stands where the
    // second's folder goes, and writing it fails the command.
    const failing: Judge = {
      async judge({ finish, ...input }) {
        // The matrix asked the judging thread to write the target; this one hands it back unwritten.
        expect(finish).toBeDefined();
        if (input.label === 'blocked') {
          await written;
          await writeFile(join(out, 'targets', 'blocked'), 'not a folder');
        }
        return inner.judge(input);
      },
    };
    await expect(
      runMatrix(config, loadTargets(config, env, join(dir, '.env')), undefined, { onTarget: () => firstWritten() }, { judge: failing }),
    ).rejects.toThrow();
    const list = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files: string[]; folders: string[] };
    expect(list.files).toEqual(['targets/written/report.json']);
    expect(list.folders.sort()).toEqual(['targets', 'targets/written']);
    await unlink(join(out, 'targets', 'blocked'));
    await writeFile(targets, JSON.stringify(named(entries, 'blocked')));
    expect((await inProcess.exec(['--targets', targets, '--out', out, '--quiet', '--reports', 'json'], env)).code).toBe(0);
    expect(await readdir(join(out, 'targets'))).toEqual(['blocked']);
  });

  test('each target has its progress line once, in the order written, before the matrix is summed up', async () => {
    const { entries, env } = await serve([
      { name: 'first', faults: [] },
      { name: 'second', faults: ['colour-missing'] },
      { name: 'third', faults: [] },
    ]);
    const run = await runWithFile('targets.json', JSON.stringify(entries), env);
    const lines = run.stdout.split('\n');
    const progress = lines.filter((line) => /^\[\d\/3\] /.test(line));
    expect(progress.map((line) => line.slice(0, 5))).toEqual(['[1/3]', '[2/3]', '[3/3]']);
    expect(progress.map((line) => /\] (\w+):/.exec(line)?.[1]).sort()).toEqual(['first', 'second', 'third']);
    expect(progress.find((line) => line.includes('] second:'))).toMatch(/: not-conformant, exit 1 \(.*\) -> targets\/second$/);
    expect(lines.findIndex((line) => line.startsWith('Matrix: '))).toBeGreaterThan(lines.indexOf(progress[2] ?? ''));
  });

  test('a target not conformant makes the matrix exit 1, whatever other targets could not be judged', async () => {
    const { entries, env } = await serve([{ name: 'broken', faults: ['colour-missing'] }]);
    const closed = await startReferenceServer({ token: 'unused' });
    await closed.close();
    const json = JSON.stringify([...entries, { name: 'gone', baseUrl: closed.url, tokenEnv: 'GONE_TOKEN' }]);
    const run = await runWithFile('targets.json', json, { ...env, GONE_TOKEN: 'gone-token-0000' });
    const matrix = await matrixOf(run);
    expect(matrix.targets.map((target) => target.exitCode)).toEqual([1, 2]);
    expect(matrix.exitCode).toBe(1);
    expect(run.code).toBe(1);
  });

  test('a target whose token variable is not set stops the run before any request, in one line', async () => {
    const run = await runWithFile(
      'targets.json',
      JSON.stringify([{ name: 'a', baseUrl: 'http://127.0.0.1:9', tokenEnv: 'NOT_SET_ANYWHERE' }]),
      {},
    );
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/^CONFIG_MISSING_TOKEN: no API token for target "a": NOT_SET_ANYWHERE is not set\. /);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('shards split the targets deterministically, and merging them gives the unsharded matrix', async () => {
    const { entries, env } = await serve([
      { name: 't1', faults: [] },
      { name: 't2', faults: ['status-ok'] },
      { name: 't3', faults: ['lang-ignored'] },
      { name: 't4', faults: [] },
      { name: 't5', faults: ['selfservice-open'] },
    ]);
    const json = JSON.stringify({ targets: entries });
    const [whole, ...shards] = await Promise.all([
      runWithFile('targets.json', json, env),
      runWithFile('targets.json', json, env, ['--shard', '1/2']),
      runWithFile('targets.json', json, env, ['--shard', '2/2']),
    ]);
    if (!whole) throw new Error('the unsharded run did not run');
    const [first, second] = await Promise.all(shards.map((run) => matrixOf(run)));
    expect(first?.targets.map((target) => target.name)).toEqual(['t1', 't3', 't5']);
    expect(second?.targets.map((target) => target.name)).toEqual(['t2', 't4']);
    expect(second?.shard).toEqual({ index: 2, count: 2, targetsInFile: 5 });

    const mergedDir = join(whole.outDir, '..', 'merged');
    const merge = await inProcess.exec([
      'merge',
      join(shards[1]?.outDir ?? '', 'matrix.json'),
      join(shards[0]?.outDir ?? '', 'matrix.json'),
      '--out',
      mergedDir,
    ]);
    const merged = await matrixOf(whole, mergedDir);
    const unsharded = await matrixOf(whole);
    const essence = (matrix: Matrix): unknown[] =>
      matrix.targets.map(({ name, verdict, exitCode, verdicts }) => ({ name, verdict, exitCode, verdicts }));
    expect(essence(merged)).toEqual(essence(unsharded));
    expect(merged.exitCode).toBe(unsharded.exitCode);
    expect(merge.code).toBe(unsharded.exitCode);
    expect(merged.mergedShards).toBe(2);
    expect(validator('matrix')(merged)).toBe(true);
    // Each target's reports stay in its shard's folder; the merged matrix points there.
    const t2 = merged.targets.find((target) => target.name === 't2');
    await expect(readFile(join(mergedDir, t2?.reportDir ?? '', 'report.json'), 'utf8')).resolves.toContain('"ENV-STATUS-SUCCESS"');

    const incomplete = await inProcess.exec(['merge', join(shards[0]?.outDir ?? '', 'matrix.json'), '--out', mergedDir]);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toContain('cannot merge: shard(s) 2 of 2 missing');

    // A matrix of version 1 says each target's verdicts, not what they were to its exit code: refused, not guessed at.
    const version1 = join(mergedDir, '..', 'version-1.json');
    // JSON leaves out what is undefined: the totals as version 1 had them.
    await writeFile(version1, JSON.stringify({ ...second, schemaVersion: 1, totals: { ...second?.totals, outcomes: undefined } }));
    const old = await inProcess.exec(['merge', join(shards[0]?.outDir ?? '', 'matrix.json'), version1, '--out', mergedDir]);
    expect(old.code).toBe(2);
    expect(old.stderr.trim()).toMatch(
      /^HARNESS_REPORT_UNREADABLE: \S*version-1\.json is a matrix\.json of schema version 1, which this suite \(\S+\) does not read: it reads version 2\. Run the targets again with this version \(every shard, to merge them\)$/,
    );
  });

  test('a run, each of its shards and their merge build the matrix once, frozen, and write it unchanged', async () => {
    const { entries, env } = await serve([
      { name: 'f1', faults: [] },
      { name: 'f2', faults: ['colour-missing'] },
      { name: 'f3', faults: [] },
    ]);
    const dir = await tempFolder('conformance-frozen-');
    await writeFile(join(dir, 'targets.json'), JSON.stringify(entries));
    const targets = ['--targets', join(dir, 'targets.json')];
    const runs = await Promise.all([
      inProcess.matrix(targets, env),
      inProcess.matrix([...targets, '--shard', '1/2'], env),
      inProcess.matrix([...targets, '--shard', '2/2'], env),
    ]);
    const mergedDir = join(dir, 'merged');
    const merge = await mergeMatrices(
      runs.slice(1).map((run) => join(run.outDir, 'matrix.json')),
      mergedDir,
    );
    const built = [...runs.map((run) => ({ matrix: run.matrix, dir: run.outDir })), { matrix: merge.matrix, dir: mergedDir }];
    expect(built.map(({ matrix }) => matrix.targets.map((target) => target.name))).toEqual([
      ['f1', 'f2', 'f3'],
      ['f1', 'f3'],
      ['f2'],
      ['f1', 'f2', 'f3'],
    ]);
    for (const { matrix, dir: out } of built) {
      expect(unfrozenPaths(matrix)).toEqual([]);
      expect(matrix.exitCode).toBe(matrix.targets.some((target) => target.name === 'f2') ? 1 : 0);
      // What is on disk is the matrix as built: its finish time included, nothing added by writing it.
      expect(JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(matrix)));
      expect(Date.parse(matrix.finishedAt) - Date.parse(matrix.startedAt)).toBe(matrix.durationMs);
    }
  });
});
