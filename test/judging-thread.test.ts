import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { classifyRecording } from '../src/classify/recording.js';
import { recordTarget } from '../src/record/recorder.js';
import { targetSettings } from '../src/pipeline/pipeline.js';
import { SpecRunner } from '../src/judge/spec-runner.js';
import { JudgeQueue } from '../src/judge/judge-queue.js';
import { profilerFlags } from '../src/judge/lasting-thread.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';

const TOKEN = 'judging-thread-token-7Hq2';
const { cleanUpAfterAll, tempFolder } = fileResources();

/** The strings a V8 heap snapshot holds that match `pattern`: what is still reachable once its collection ran. */
function stringsIn(snapshot: string, pattern: RegExp): Set<string> {
  const { strings } = JSON.parse(snapshot) as { strings: string[] };
  return new Set(strings.flatMap((text) => text.match(pattern) ?? []));
}

async function recordedReference() {
  const server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
  const config = loadConfig([], {}, join(repoRoot, 'no-such.env'));
  const settings = targetSettings({ baseUrl: server.url, token: TOKEN, options: config, embeddedReference: true }, new Date());
  const recording = await recordTarget(settings);
  return { settings, recording, classification: classifyRecording(recording, settings.statusId) };
}

test('the judging thread keeps no spec run but the latest: batch after batch, its memory holds one', async () => {
  const target = await recordedReference();
  const folder = await tempFolder('judging-thread-');
  const runner = await SpecRunner.start({ timeoutMs: SAFETY_NET_MS });
  cleanUpAfterAll(() => runner.close());
  // Each batch's target is named apart, and the name is in every test of its run: a run the thread still holds
  // leaves its name in the heap.
  for (let batch = 1; batch <= 7; batch += 1) {
    const judged = await runner.judge([{ ...target, label: `kept-batch-${batch}-of-7` }]);
    expect(judged.errors).toEqual([]);
    expect(judged.scenarios[0]?.length).toBeGreaterThan(0);
  }
  const path = join(folder, 'late.heapsnapshot');
  expect(await runner.writeHeapSnapshot(path)).toBe(path);
  const kept = stringsIn(await readFile(path, 'utf8'), /kept-batch-\d+-of-7/g);
  // The latest run's name shows that the search finds what the thread holds; no earlier run's is there.
  expect(kept).toContain('kept-batch-7-of-7');
  expect([...kept].filter((name) => name !== 'kept-batch-7-of-7' && name !== 'kept-batch-6-of-7')).toEqual([]);
});

test('the same spec files judge every batch: each run registers every scenario again, for its own targets', async () => {
  const target = await recordedReference();
  const runner = await SpecRunner.start({ timeoutMs: SAFETY_NET_MS });
  cleanUpAfterAll(() => runner.close());
  const first = await runner.judge([target]);
  const second = await runner.judge([
    { ...target, label: 'one' },
    { ...target, label: 'two' },
  ]);
  expect(second.errors).toEqual([]);
  const ids = (scenarios: { id: string }[] | undefined): string[] => (scenarios ?? []).map((scenario) => scenario.id).sort();
  expect(ids(first.scenarios[0]).length).toBeGreaterThan(5);
  expect(ids(second.scenarios[0])).toEqual(ids(first.scenarios[0]));
  expect(ids(second.scenarios[1])).toEqual(ids(first.scenarios[0]));
  expect(second.scenarios[1]?.every((scenario) => scenario.targetIndex === 1)).toBe(true);
});

test("the scenarios of a target hand back each exchange they name as one object, which crosses once; another target's is its own", async () => {
  const target = await recordedReference();
  const runner = await SpecRunner.start({ timeoutMs: SAFETY_NET_MS });
  cleanUpAfterAll(() => runner.close());
  const { scenarios, errors } = await runner.judge([target, target]);
  expect(errors).toEqual([]);
  const namings = (index: number) =>
    (scenarios[index] ?? [])
      .flatMap((scenario) => Object.entries(scenario.exchanges))
      .filter(([key]) => key === 'valid /api/ticket/status/1?');
  const [first, second] = [namings(0), namings(1)];
  expect(first.length).toBeGreaterThan(3);
  expect(new Set(first.map(([, exchange]) => exchange)).size).toBe(1);
  expect(new Set(second.map(([, exchange]) => exchange)).size).toBe(1);
  expect(second[0]?.[1]).not.toBe(first[0]?.[1]);
  expect(second[0]?.[1]).toEqual(first[0]?.[1]);
});

test('a runner closed while it judges answers the batch with a suite error; the queue judges the next batch afresh', async () => {
  const target = await recordedReference();
  const runner = await SpecRunner.start({ timeoutMs: SAFETY_NET_MS });
  const judging = runner.judge([target]);
  await runner.close();
  const judged = await judging;
  expect(judged.errors).toEqual([expect.objectContaining({ party: 'suite', message: expect.stringContaining('closed') })]);
  expect(judged.scenarios).toEqual([[]]);

  const queue = new JudgeQueue({ timeoutMs: SAFETY_NET_MS });
  cleanUpAfterAll(() => queue.close());
  const again = await queue.judge(target);
  expect(again.errors).toEqual([]);
  expect(again.scenarios.length).toBeGreaterThan(5);
});

test('a spec file that declares a test beside its scenarios is refused in every run, not judged in the first alone', async () => {
  const folder = await tempFolder('spec-file-');
  const runner = pathToFileURL(join(repoRoot, 'node_modules', '@vitest', 'runner', 'dist', 'index.js')).href;
  const scenarioModule = pathToFileURL(join(repoRoot, 'dist', 'src', 'judge', 'scenario.js')).href;
  const contextModule = pathToFileURL(join(repoRoot, 'dist', 'src', 'judge', 'context.js')).href;
  const scenario = `scenario({ id: 'fixture', requirements: ['ENV-JSON'], title: 'a fixture', run: async () => undefined });`;
  await writeFile(join(folder, 'scenarios-only.spec.js'), `import { scenario } from '${scenarioModule}';\n${scenario}\n`);
  await writeFile(
    join(folder, 'own-test.spec.js'),
    `import { test } from '${runner}';\nimport { scenario } from '${scenarioModule}';\n${scenario}\ntest('of its own', () => undefined);\n`,
  );
  // Two collections in one process, as the judging thread makes one per batch: what each file's collection says.
  const script = `
    import { collectTests } from '${runner}';
    import { provideSpecRun } from '${contextModule}';
    import { registerSpecFile } from '${scenarioModule}';
    const config = { root: '/', setupFiles: [], sequence: { seed: 0, hooks: 'stack', setupFiles: 'list' }, maxConcurrency: 1,
      testTimeout: 1000, hookTimeout: 1000, retry: 0, tags: [], strictTags: false };
    const files = ['scenarios-only', 'own-test'].map((name) => '${folder}/' + name + '.spec.js');
    for (const run of [1, 2]) {
      provideSpecRun({ specRunId: 'run ' + run, targets: [] });
      for (const file of await collectTests(files, { config, importFile: registerSpecFile })) {
        console.log(run, file.name.split('/').pop(), file.result?.errors?.[0]?.message ?? 'collected');
      }
    }
  `;
  const output = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: SAFETY_NET_MS }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    ),
  );
  const lines = output.trim().split('\n');
  expect(lines.filter((line) => line.includes('scenarios-only'))).toEqual([
    expect.stringMatching(/^1 .* collected$/),
    expect.stringMatching(/^2 .* collected$/),
  ]);
  expect(lines.filter((line) => line.includes('own-test'))).toEqual([
    expect.stringMatching(/^1 .*declares tests or suites of its own/),
    expect.stringMatching(/^2 .*declares tests or suites of its own/),
  ]);
});

test("the judging thread gets the profilers' flags with their values, however given, and no other flag", () => {
  const profiling = ['--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir=/tmp/profiles', '--heap-prof-dir', '/tmp/heap'];
  const diagnostics = ['--diagnostic-dir', '/tmp/diagnostics'];
  // A host program's own flags between them, a script among them, which would run again in the thread.
  const others = ['--input-type=module', '-e', 'doSomething()', '--max-old-space-size=64', '--require', 'x.cjs'];
  expect(profilerFlags([...profiling, ...others, ...diagnostics])).toEqual([...profiling, ...diagnostics]);
  expect(profilerFlags(others)).toEqual([]);
});

/** One test of Vitest's as a spec run settles it: its state, its error, and each result's checks. */
interface Ending {
  state: string;
  error?: string;
  message?: string;
  results: [string, string, string, boolean][][];
}

const outcome = (ok: boolean): string => `{ ok: ${ok}, description: 'a check', expected: 'what was wanted', actual: 'what came' }`;
const ENDINGS = [
  `scenario({ id: 'crashes', requirements: ['ENV-JSON', 'ENV-NO-BOM'], title: 't', run: async () => { throw new Error('boom'); } });`,
  `scenario({ id: 'skips', requirements: ['ENV-JSON'], title: 't', run: async ({ target, skip }) => { const answered = await target.status(); skip('nothing to judge', answered); } });`,
  `scenario({ id: 'checks-one', requirements: ['ENV-JSON', 'ENV-NO-BOM'], title: 't', run: async ({ target, check }) => { const answered = await target.status(); check['ENV-JSON'](${outcome(true)}, answered); } });`,
  `scenario({ id: 'must-fails', requirements: ['ENV-JSON'], title: 't', run: async ({ target, check }) => { const answered = await target.status(); check['ENV-JSON'](${outcome(false)}, answered); } });`,
  `scenario({ id: 'should-fails', requirements: ['ENV-NO-BOM'], title: 't', run: async ({ target, check }) => { const answered = await target.status(); check['ENV-NO-BOM'](${outcome(false)}, answered); } });`,
  `scenario({ id: 'observes', requirements: ['ENV-JSON'], title: 't', run: async ({ target, observe }) => { const answered = await target.status(); observe['ENV-JSON']('seen', 'as it was', answered); } });`,
  // Skipped for the target of status 2 alone: a test of both targets is not skipped for one of them.
  `scenario({ id: 'skips-one', requirements: ['ENV-JSON'], title: 't', run: async ({ target, check, skip }) => { const answered = await target.status(); if (target.statusId === 2) skip('not status 2', answered); check['ENV-JSON'](${outcome(true)}, answered); } });`,
];

/**
 * Runs the scenarios of ENDINGS through Vitest's runner, in a process of its own, for a recording of the reference
 * server of each status given (labelled "status N" when there are several), with a test per scenario or per target.
 */
async function endingsOf(statusIds: number[], testPerScenario: boolean): Promise<Record<string, Ending>> {
  const folder = await tempFolder('scenario-endings-');
  const module = (path: string): string => pathToFileURL(join(repoRoot, ...path.split('/'))).href;
  await writeFile(
    join(folder, 'endings.spec.js'),
    [`import { scenario } from '${module('dist/src/judge/scenario.js')}';`, ...ENDINGS].join('\n'),
  );
  const script = `
    import { startTests } from '${module('node_modules/@vitest/runner/dist/index.js')}';
    import { provideSpecRun } from '${module('dist/src/judge/context.js')}';
    import { registerSpecFile } from '${module('dist/src/judge/scenario.js')}';
    import { startReferenceServer } from '${module('dist/src/reference-server/server.js')}';
    import { recordTarget } from '${module('dist/src/record/recorder.js')}';
    import { targetSettings } from '${module('dist/src/pipeline/pipeline.js')}';
    import { classifyRecording } from '${module('dist/src/classify/recording.js')}';
    import { loadConfig } from '${module('dist/src/config/load.js')}';
    const server = await startReferenceServer({ token: '${TOKEN}' });
    const targets = [];
    for (const statusId of ${JSON.stringify(statusIds)}) {
      const options = loadConfig(['--status-id', String(statusId)], {}, '${join(folder, 'no-such.env')}');
      const settings = targetSettings({ baseUrl: server.url, token: '${TOKEN}', options, embeddedReference: true }, new Date());
      const recording = await recordTarget(settings);
      const label = ${statusIds.length} > 1 ? { label: 'status ' + statusId } : {};
      targets.push({ settings, recording, classification: classifyRecording(recording, settings.statusId), ...label });
    }
    await server.close();
    provideSpecRun({ specRunId: 'endings', targets, testPerScenario: ${testPerScenario} });
    const config = { root: '/', setupFiles: [], sequence: { seed: 0, hooks: 'stack', setupFiles: 'list' }, maxConcurrency: 1,
      testTimeout: 5000, hookTimeout: 5000, retry: 0, tags: [], strictTags: false };
    const endings = {};
    await startTests(['${join(folder, 'endings.spec.js')}'], { config, importFile: registerSpecFile, onTaskFinished(test) {
      endings[test.name] = {
        state: test.result.state,
        error: test.result.errors?.[0]?.name,
        message: test.result.errors?.[0]?.message ?? test.result.note,
        results: test.meta.conformance.map(({ checks, exchanges }) =>
          checks.map((c) => [c.requirement, c.verdict, c.description, c.exchange !== undefined && c.exchange in exchanges])),
      };
    } });
    console.log(JSON.stringify(endings));
  `;
  const output = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: SAFETY_NET_MS }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    ),
  );
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Record<string, Ending>;
}

const crashed: Ending['results'][number] = [
  ['ENV-JSON', 'error', 'scenario crashes crashed: boom', false],
  ['ENV-NO-BOM', 'error', 'scenario crashes crashed: boom', false],
];
const checkedOne: Ending['results'][number] = [
  ['ENV-JSON', 'pass', 'a check', true],
  ['ENV-NO-BOM', 'skip', 'not judged in this scenario: see its other checks', false],
];

test("a scenario's every ending recorded for each requirement it lists, and the test's state the gate's", async () => {
  const endings = await endingsOf([1], false);
  const byScenario = Object.fromEntries(Object.entries(endings).map(([name, { message: _, ...ending }]) => [name.split(':')[0], ending]));
  expect(byScenario).toEqual({
    crashes: { state: 'fail', error: 'Error', results: [crashed] },
    skips: { state: 'skip', results: [[['ENV-JSON', 'skip', 'nothing to judge', true]]] },
    'checks-one': { state: 'pass', results: [checkedOne] },
    'must-fails': { state: 'fail', error: 'AssertionError', results: [[['ENV-JSON', 'fail', 'a check', true]]] },
    'should-fails': { state: 'skip', results: [[['ENV-NO-BOM', 'fail', 'a check', true]]] },
    observes: { state: 'pass', results: [[['ENV-JSON', 'info', 'seen', true]]] },
    'skips-one': { state: 'pass', results: [[['ENV-JSON', 'pass', 'a check', true]]] },
  });
});

test('a test per scenario judges every target of the run: its results theirs, its state the gate of them all, its failures named', async () => {
  const [together, apart] = await Promise.all([endingsOf([1, 2], true), endingsOf([1, 2], false)]);
  const testOf = (id: string): [string, Ending] => {
    const found = Object.entries(together).find(([name]) => name.startsWith(`${id}:`));
    if (!found) throw new Error(`no test of ${id}`);
    return found;
  };
  // One test for each scenario, named after it alone, and a result for each target in the order of the run.
  expect(Object.keys(together)).toHaveLength(ENDINGS.length);
  for (const [name, ending] of Object.entries(together)) {
    const [first, second] = ['status 1', 'status 2'].map((label) => apart[`${label} › ${name}`]?.results[0]);
    expect(ending.results, name).toEqual([first, second]);
  }
  expect(testOf('crashes')[1]).toMatchObject({ state: 'fail', error: 'Error', results: [crashed, crashed] });
  expect(testOf('checks-one')[1]).toMatchObject({ state: 'pass', results: [checkedOne, checkedOne] });
  expect(testOf('must-fails')[1]).toMatchObject({ state: 'fail', error: 'AssertionError' });
  expect(testOf('must-fails')[1].message).toMatch(
    /^status 1 › must-fails:.*\nENV-JSON: a check[\s\S]*\n\nstatus 2 › must-fails:.*\nENV-JSON: a check/,
  );
  expect(testOf('should-fails')[1]).toMatchObject({ state: 'skip' });
  expect(testOf('skips')[1]).toMatchObject({ state: 'skip' });
  expect(testOf('skips')[1].message).toMatch(/^status 1 › skips:.*: nothing to judge\nstatus 2 › skips:.*: nothing to judge$/);
  // Skipped for one target and judged for the other, the test is not a skip.
  expect(testOf('skips-one')[1]).toMatchObject({
    state: 'pass',
    results: [[['ENV-JSON', 'pass', 'a check', true]], [['ENV-JSON', 'skip', 'not status 2', true]]],
  });
});
