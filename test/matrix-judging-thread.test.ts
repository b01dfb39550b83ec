import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { MAX_BATCH } from '../src/judge/judge-queue.js';
import type { JudgeInput } from '../src/judge/spec-runner.js';
import { runMatrix } from '../src/pipeline/matrix.js';
import { judgePass, passFacts, recordPass, startJudge, type Judge, type Pass } from '../src/pipeline/pipeline.js';
import {
  TARGETS_DIR,
  writeTargetRecording,
  writeTargetReports,
  type FleetReports,
  type TargetReports,
  type WrittenTarget,
} from '../src/pipeline/target-reports.js';
import type { MatrixTarget } from '../src/report/matrix/types.js';
import type { Report } from '../src/report/model/types.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { validator } from '../src/validators/schemas.js';
import { echoTarget } from './helpers/echo-targets.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';

// A matrix's targets are diagnosed, built and written in the judging thread (src/pipeline/in-judging-thread.ts); these
// drive that thread through the pipeline's own functions, against a target that echoes its token back.
const TOKEN = 'thread-written-token-9Rv4';
const { cleanUpAfterAll, tempFolder } = fileResources();
const scanner = createSecretScanner([TOKEN]);
const judge = startJudge({ timeoutMs: SAFETY_NET_MS });
cleanUpAfterAll(() => judge.close());
let pass: Pass;
/** The same target recorded by a scanner that knows the token, as a matrix records: the echo redacted as it came in. */
let screenedPass: Pass;
let echoingUrl = '';

beforeAll(async () => {
  const echoing = await echoTarget(TOKEN, 'base64 one byte in');
  cleanUpAfterAll(echoing.close);
  echoingUrl = echoing.url;
  const options = loadConfig([], {}, join(repoRoot, 'no-such.env'));
  // Recorded by a scanner that does not know the token: the echo is still in the recording, for the report's build to screen.
  pass = await recordPass({ name: 'echoing', baseUrl: echoing.url, token: TOKEN, options }, createSecretScanner([]));
  screenedPass = await recordPass({ name: 'echoing', baseUrl: echoing.url, token: TOKEN, options }, scanner);
});

function orderFor(out: string, name: string, recorded = pass, reports: FleetReports['reports'] = ['json']): TargetReports {
  const fleet: FleetReports = {
    id: randomUUID(),
    out,
    reports,
    newFolders: true,
    secrets: { tokens: [TOKEN], passwords: [], clientKeys: [] },
  };
  const facts = passFacts(recorded);
  return { fleet, name, position: 4, facts, ...(recorded.recording ? { recording: recorded.recording } : {}) };
}

/** A matrix's pass: it ends when its answers are in. */
const answered = (recorded: Pass): Pass => ({ ...recorded, finishedAt: new Date() });

/** What a report says of the target, without the times of the pass that differ from one writing to the next. */
function judgedPart({ verdict, exitCode, summary, totals, requirements, diagnoses, exchanges, errors }: Report): unknown {
  return { verdict, exitCode, summary, totals, requirements, diagnoses, exchanges, errors };
}

test("the judging thread writes a target's report, screened for the fleet's token and on its schema, and hands back only its row and the names of its files", async () => {
  const out = await tempFolder('thread-written-');
  const { judged } = await judgePass(pass, judge, orderFor(out, 'echoing'));
  // The scenarios stayed in the thread that judged them.
  expect(judged.scenarios).toEqual([]);
  const text = await readFile(join(out, TARGETS_DIR, 'echoing', 'report.json'), 'utf8');
  const report = JSON.parse(text) as Report;
  expect(validator('report')(report)).toBe(true);
  // The echoed token was in the recording, and the thread's scanner, made from the fleet's secrets, took it out.
  expect(scanner.find(JSON.stringify(pass.recording))).toBeDefined();
  expect(text).toContain('<redacted>');
  expect(scanner.find(text)).toBeUndefined();
  expect(judged.finished).toEqual<WrittenTarget>({
    row: expect.objectContaining<Partial<MatrixTarget>>({
      name: 'echoing',
      position: 4,
      reportDir: 'targets/echoing',
      verdict: report.verdict,
      exitCode: report.exitCode,
    }) as MatrixTarget,
    // Named for the matrix's list: the target's folder, made new, holds no list of its own.
    files: ['targets/echoing/report.json'],
  });
  expect(await readdir(join(out, TARGETS_DIR, 'echoing'))).toEqual(['report.json']);
});

test('the same pass written on the main thread gives the same report: one pipeline, wherever it runs', async () => {
  const out = await tempFolder('thread-or-main-');
  await judgePass(pass, judge, orderFor(out, 'in-thread'));
  const order = orderFor(out, 'on-main');
  const { judged } = await judgePass(pass, judge);
  expect(judged.finished).toBeUndefined();
  const { row } = await writeTargetReports(order, judged, scanner);
  const read = async (name: string): Promise<Report> =>
    JSON.parse(await readFile(join(out, TARGETS_DIR, name, 'report.json'), 'utf8')) as Report;
  const [inThread, onMain] = [await read('in-thread'), await read('on-main')];
  expect(judgedPart(inThread)).toEqual(judgedPart(onMain));
  expect(row).toEqual(expect.objectContaining({ name: 'on-main', verdict: inThread.verdict }));
});

test('a target the thread cannot write comes back judged, and writing it on the main thread fails as it would have alone', async () => {
  const out = await tempFolder('thread-unwritable-');
  // Something that is not a folder stands where the target's folder goes.
  await mkdir(join(out, TARGETS_DIR), { recursive: true });
  await writeFile(join(out, TARGETS_DIR, 'blocked'), 'not a folder');
  const order = orderFor(out, 'blocked');
  const { judged } = await judgePass(pass, judge, order);
  expect(judged.finished).toBeUndefined();
  expect(judged.scenarios.length).toBeGreaterThan(5);
  await expect(writeTargetReports(order, judged, scanner)).rejects.toThrow(/EEXIST/);
  // The thread still writes the next target it is given.
  const next = await judgePass(pass, judge, orderFor(out, 'next'));
  expect(next.judged.finished).toEqual({
    row: expect.objectContaining({ name: 'next' }) as MatrixTarget,
    files: ['targets/next/report.json'],
  });
});

test('while a whole batch waits to be judged, the matrix writes the next targets on the main thread, and only while it does', async () => {
  const dir = await tempFolder('thread-behind-');
  const names = ['first', 'second', 'third'];
  await writeFile(
    join(dir, 'targets.json'),
    JSON.stringify(names.map((name) => ({ name, baseUrl: echoingUrl, tokenEnv: 'BEHIND_TOKEN' }))),
  );
  const out = join(dir, 'out');
  const env = { BEHIND_TOKEN: TOKEN };
  const config = loadConfig(
    ['--targets', join(dir, 'targets.json'), '--out', out, '--reports', 'json', '--target-concurrency', '1'],
    env,
    join(dir, '.env'),
  );
  // A judge that says a batch waits for the first two targets it is handed, and none for the third.
  const handed: JudgeInput[] = [];
  const behind: Judge = {
    judge: (input) => {
      handed.push(input);
      return judge.judge(input);
    },
    waitingTargets: () => (handed.length < 2 ? MAX_BATCH : 0),
  };
  const { matrix } = await runMatrix(config, loadTargets(config, env, join(dir, '.env')), undefined, {}, { judge: behind });
  expect(handed.map((input) => input.finish !== undefined)).toEqual([false, false, true]);
  expect(matrix.targets.map((target) => target.name)).toEqual(names);
  for (const name of names) {
    const report = JSON.parse(await readFile(join(out, TARGETS_DIR, name, 'report.json'), 'utf8')) as Report;
    expect(validator('report')(report)).toBe(true);
    expect(matrix.targets.find((target) => target.name === name)?.verdict).toBe(report.verdict);
  }
});

test("a new target folder's recording.json and .har are written as its answers are in; the judging thread writes the rest with the recording's times", async () => {
  const out = await tempFolder('recorded-first-');
  const recorded = answered(screenedPass);
  const order = orderFor(out, 'recorded-first', recorded, ['json', 'recording']);
  const sent = await writeTargetRecording(order, scanner);
  const recordingFiles = ['targets/recorded-first/recording.json', 'targets/recorded-first/recording.har'];
  expect(sent.recordingWritten).toEqual({ files: recordingFiles, refused: [] });
  const folder = join(out, TARGETS_DIR, 'recorded-first');
  expect((await readdir(folder)).sort()).toEqual(['recording.har', 'recording.json']);
  const { judged } = await judgePass(recorded, judge, sent);
  expect(judged.finished).toEqual<WrittenTarget>({
    row: expect.objectContaining<Partial<MatrixTarget>>({ name: 'recorded-first' }) as MatrixTarget,
    files: ['targets/recorded-first/report.json', ...recordingFiles],
  });
  const report = JSON.parse(await readFile(join(folder, 'report.json'), 'utf8')) as Report;
  const recording = JSON.parse(await readFile(join(folder, 'recording.json'), 'utf8')) as { startedAt: string; finishedAt: string };
  // One pass, one time: an offline judge of the recording gives the report's content hash again (test/matrix.test.ts).
  expect({ startedAt: report.startedAt, finishedAt: report.finishedAt }).toEqual({
    startedAt: recording.startedAt,
    finishedAt: recorded.finishedAt?.toISOString(),
  });
  expect(report.errors).toEqual([]);
});

test('a recording the screen refuses is left unwritten, and the report written in the judging thread names it as a run on one thread would', async () => {
  const out = await tempFolder('recording-refused-');
  // Recorded by a scanner that did not know the token: the echoed header is still in the recording.
  const recorded = answered(pass);
  const sent = await writeTargetRecording(orderFor(out, 'refused-first', recorded, ['json', 'recording']), scanner);
  expect(sent.recordingWritten?.files).toEqual([]);
  expect(sent.recordingWritten?.refused.map((error) => error.code)).toEqual(['HARNESS_SECRET_LEAK', 'HARNESS_SECRET_LEAK']);
  await judgePass(recorded, judge, sent);
  const whole = orderFor(out, 'refused-whole', recorded, ['json', 'recording']);
  const { judged } = await judgePass(recorded, judge);
  await writeTargetReports(whole, judged, scanner);
  const read = async (name: string): Promise<Report> =>
    JSON.parse(await readFile(join(out, TARGETS_DIR, name, 'report.json'), 'utf8')) as Report;
  const [split, alone] = [await read('refused-first'), await read('refused-whole')];
  // The two files refused, besides the report's own note of what it redacted.
  expect(split.errors.filter((error) => /^recording\.(json|har) would have contained/.test(error.message)).length).toBe(2);
  expect(split.errors).toEqual(alone.errors);
  expect(await readdir(join(out, TARGETS_DIR, 'refused-first'))).toEqual(['report.json']);
});

test('the recording is left to the judging thread where it cannot be written first: the folder not new, the recording not chosen, its place taken', async () => {
  const out = await tempFolder('recording-not-first-');
  const recorded = answered(screenedPass);
  const notNew = orderFor(out, 'not-new', recorded, ['json', 'recording']);
  const notChosen = orderFor(out, 'not-chosen', recorded, ['json']);
  await mkdir(join(out, TARGETS_DIR), { recursive: true });
  await writeFile(join(out, TARGETS_DIR, 'blocked'), 'not a folder');
  const blocked = orderFor(out, 'blocked', recorded, ['json', 'recording']);
  for (const order of [{ ...notNew, fleet: { ...notNew.fleet, newFolders: false } }, notChosen, blocked])
    expect(await writeTargetRecording(order, scanner)).toBe(order);
  expect((await readdir(join(out, TARGETS_DIR))).sort()).toEqual(['blocked']);
});
