import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Matrix } from '../src/report/matrix/types.js';
import type { RecordingFile } from '../src/record/recording-file.js';
import { echoTarget, type EchoTarget } from './helpers/echo-targets.js';
import { fileResources } from './helpers/file-resources.js';
import { execCli, repoRoot, runCli, type CliOutput, type CliRun } from './helpers/run-cli.js';
import { tokenFormsIn } from './helpers/token-forms.js';

// A run and --compare-to against echoing targets: test/token-safety.test.ts ("what a target echoes is redacted at
// capture, in every form"). Here: every other command that writes files.

const TOKENS = { a: 'Matrix/Target+A-4c1e9d', b: 'matrix-target-b-5e1f0a' };
/** An Authorization value a file a command reads may hold: a command that knows no token still keeps it out of its files. */
const CREDENTIAL = Buffer.from(`${TOKENS.b}:x`).toString('base64');
const AUTHORIZATION = `Authorization: Basic ${CREDENTIAL}`;

const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();
let work = '';
let matrixRun: CliRun;
let targets: EchoTarget[] = [];

/** Every file under a folder, as text. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => ({
        path: join(entry.parentPath, entry.name),
        text: await readFile(join(entry.parentPath, entry.name), 'utf8'),
      })),
  );
}

/** The forms of any token, and the credential, that the files under dir or the command's output hold. */
async function secretsIn(dir: string, output?: CliOutput): Promise<string[]> {
  const text = [output?.stdout ?? '', output?.stderr ?? '', ...(await filesUnder(dir)).map((file) => file.text)].join('\n');
  return [...tokenFormsIn(text, TOKENS.a), ...tokenFormsIn(text, TOKENS.b), ...(text.includes(CREDENTIAL) ? [CREDENTIAL] : [])];
}

beforeAll(async () => {
  work = await tempFolder('conformance-artifact-leaks-');
  // Two targets of one matrix, each echoing its own token in another form.
  targets = [await echoTarget(TOKENS.a, 'base64 one byte in'), await echoTarget(TOKENS.b, 'the whole Authorization value, JSON-escaped')];
  for (const target of targets) cleanUpAfterAll(target.close);
  const targetsFile = join(work, 'targets.json');
  await writeFile(
    targetsFile,
    JSON.stringify({
      targets: targets.map((target, index) => ({ name: `echo-${index}`, baseUrl: target.url, tokenEnv: `LEAK_TOKEN_${index}` })),
    }),
  );
  // As one shard of one, so that merge can take its matrix.json. The real process: the tokens are in its own
  // environment, and what it prints is the binary's own stdout and stderr.
  matrixRun = await runCli(['--targets', targetsFile, '--shard', '1/1'], { LEAK_TOKEN_0: TOKENS.a, LEAK_TOKEN_1: TOKENS.b });
  cleanUpAfterAll(matrixRun.cleanup);
});

describe('a command that writes files never writes a secret into one', () => {
  test('matrix: two targets echoing their tokens; no file of the matrix or of either target holds a form of either', async () => {
    expect({ code: matrixRun.code, stderr: matrixRun.stderr }).toEqual({ code: 0, stderr: '' });
    const files = (await filesUnder(matrixRun.outDir)).map((file) => file.path.slice(matrixRun.outDir.length + 1)).sort();
    expect(files).toEqual(
      expect.arrayContaining(['matrix.json', 'matrix.md', 'matrix.html', 'targets/echo-0/report.json', 'targets/echo-1/recording.json']),
    );
    expect(await secretsIn(matrixRun.outDir, matrixRun)).toEqual([]);
    expect(await readFile(join(matrixRun.outDir, 'targets/echo-0/recording.json'), 'utf8')).toContain('<redacted>');
  });

  test('merge: a shard matrix.json edited to hold an Authorization value; the merged matrix holds it redacted and says so, exit 2', async () => {
    const dir = join(work, 'merge');
    await mkdir(dir);
    const matrix = JSON.parse(await readFile(join(matrixRun.outDir, 'matrix.json'), 'utf8')) as Matrix;
    const [first] = matrix.targets;
    if (!first) throw new Error('the matrix has no target');
    // Shown in matrix.json and, for a target that needs attention, in the Markdown and HTML views too.
    Object.assign(first, { summary: `the target said ${AUTHORIZATION}`, exitCode: 1, verdict: 'not-conformant' });
    await writeFile(join(dir, 'matrix.json'), JSON.stringify(matrix));
    const merged = join(dir, 'merged');
    // The real process, for one command given a file holding a credential: the binary's stdout and stderr lack it.
    const run = await execCli(['merge', join(dir, 'matrix.json'), '--out', merged], dir);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: '' });
    expect(run.stdout).toContain('HARNESS_SECRET_LEAK');
    expect(await secretsIn(merged, run)).toEqual([]);
    const written = await readdir(merged);
    expect(written.filter((name) => name.startsWith('matrix.')).sort()).toEqual(['matrix.html', 'matrix.json', 'matrix.md']);
    const json = JSON.parse(await readFile(join(merged, 'matrix.json'), 'utf8')) as Matrix;
    expect(json.errors.map((error) => error.message)).toEqual([
      'the matrix would have contained an Authorization value, so every view shows it redacted',
    ]);
  });

  test('judge: a recording edited to hold an Authorization value in an answer; no report holds it, and the redaction is said', async () => {
    const dir = join(work, 'judge');
    await mkdir(dir);
    const recording = JSON.parse(
      await readFile(join(repoRoot, 'test/fixtures/recordings/reference.recording.json'), 'utf8'),
    ) as RecordingFile;
    const answer = recording.runs[0]?.exchanges.find((exchange) => exchange.key.startsWith('valid /api/selfservice/type'));
    if (!answer || !('response' in answer)) throw new Error('the recording has no self-service answer');
    answer.response.bodyText = `{"status":"success","message":null,"data":[],"debug":"${AUTHORIZATION}"}`;
    await writeFile(join(dir, 'hostile.recording.json'), JSON.stringify(recording));
    const out = join(dir, 'out');
    const run = await inProcess.exec(['judge', join(dir, 'hostile.recording.json'), '--out', out]);
    expect(await secretsIn(out, run)).toEqual([]);
    expect(run.code).toBe(2);
    const report = await readFile(join(out, 'report.md'), 'utf8').catch(() => '');
    expect(`${run.stdout}\n${report}`).toMatch(/the report would have contained an Authorization value/);
  });

  test('history: a run folder named with an Authorization value; history.html, which would show it, is refused with exit 2', async () => {
    const runs = join(work, 'history-runs');
    const folder = join(runs, AUTHORIZATION);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'report.json'), await readFile(join(matrixRun.outDir, 'targets/echo-0/report.json')));
    const out = join(work, 'history-out');
    const run = await inProcess.exec(['history', runs, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'HARNESS_SECRET_LEAK: history.html would have contained an Authorization value, so it was not written. This is a bug in the suite; report it without the file',
    );
    expect(await secretsIn(out)).toEqual([]);
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  test('baseline: a --reason pasted with an Authorization value is not written into baseline.json', async () => {
    const out = join(work, 'baseline.json');
    // A matrix with a failure, so that the baseline has a known failure to give the reason of.
    const matrix = JSON.parse(await readFile(join(matrixRun.outDir, 'matrix.json'), 'utf8')) as Matrix;
    const [first] = matrix.targets;
    const [requirement] = Object.keys(first?.verdicts ?? {});
    if (!first || !requirement) throw new Error('the matrix has no verdict');
    first.verdicts[requirement] = 'fail';
    const from = join(work, 'failing-matrix.json');
    await writeFile(from, JSON.stringify(matrix));
    const args = ['baseline', '--from', from, '--owner', 'ops', '--expires', '2099-01-01', '--out', out];
    const run = await inProcess.exec([...args, '--reason', `rejected with ${AUTHORIZATION}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^HARNESS_SECRET_LEAK: .*baseline\.json would have contained an Authorization value, so it was not written/);
    expect(await readFile(out, 'utf8').catch(() => 'absent')).toBe('absent');
    // The same command with a plain reason writes the file.
    expect((await inProcess.exec([...args, '--reason', 'known since the upgrade'])).code).toBe(0);
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ schemaVersion: 1 });
  });
});
