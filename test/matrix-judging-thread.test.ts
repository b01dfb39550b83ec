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
let echoingUrl = '';

beforeAll(async () => {
  const echoing = await echoTarget(TOKEN, 'base64 one byte in');
  cleanUpAfterAll(echoing.close);
  echoingUrl = echoing.url;
  const options = loadConfig([], {}, join(repoRoot, 'no-such.env'));
  // Recorded by a scanner that does not know the token: the echo is still in the recording, for the report's build to screen.
  pass = await recordPass({ name: 'echoing', baseUrl: echoing.url, token: TOKEN, options }, createSecretScanner([]));
});

function orderFor(out: string, name: string): TargetReports {
  const fleet: FleetReports = {
    id: randomUUID(),
    out,
    reports: ['json'],
    newFolders: true,
    secrets: { tokens: [TOKEN], passwords: [], clientKeys: [] },
  };
  return { fleet, name, position: 4, facts: passFacts(pass), ...(pass.recording ? { recording: pass.recording } : {}) };
}

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
