import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import type { Classification } from '../src/classify/types.js';
import type { TargetJudged } from '../src/judge/judge-queue.js';
import type { PassFacts } from '../src/pipeline/reporting.js';
import { startJudge } from '../src/pipeline/pipeline.js';
import type { Recording } from '../src/record/recording.js';
import { JUDGE_TIMEOUT_MS, readRecording, recordedChoices, recordingOfRun } from '../src/record/recording-file.js';
import type { DiagnosedPass } from '../src/report/model/types.js';
import { compile, root } from './bench/compile.js';

/**
 * npm run bench:classify [-- --against CHECKOUT] [--rounds N] [--passes N]: the CPU (process.cpuUsage) of what a
 * matrix's judging thread does for each target besides judging it: classifying its recording (classifyRecording) and
 * diagnosing what the judge found (diagnoseJudged: the checks folded per requirement, the causes named, the pass
 * assembled), over the recordings kept under test/fixtures/recordings/ (the reference server's among them), each judged
 * once beforehand. The compiled code of this checkout, and with --against that of another (built with npm run build),
 * loaded in one process and run in turn, round after round; medians printed a target, and whether both classified and
 * diagnosed every recording alike.
 */

interface Side {
  name: string;
  classifyRecording(recording: Recording, statusIds: readonly number[]): Classification;
  diagnoseJudged(facts: PassFacts, judged: TargetJudged): DiagnosedPass;
}

interface Input {
  file: string;
  recording: Recording;
  statusIds: readonly number[];
  facts: PassFacts;
  judged: TargetJudged;
}

async function sideOf(checkout: string, name: string): Promise<Side> {
  const compiled = (path: string): string => join(checkout, 'dist', 'src', path);
  const classify = (await import(compiled('classify/recording.js'))) as Pick<Side, 'classifyRecording'>;
  const reporting = (await import(compiled('pipeline/reporting.js'))) as Pick<Side, 'diagnoseJudged'>;
  return { name, classifyRecording: classify.classifyRecording, diagnoseJudged: reporting.diagnoseJudged };
}

/** Each kept recording's first run, judged once by this checkout's judge, with what its report says of it. */
async function inputs(): Promise<Input[]> {
  const folder = join(root, 'test', 'fixtures', 'recordings');
  const judge = startJudge({ timeoutMs: JUDGE_TIMEOUT_MS });
  try {
    const files = (await readdir(folder)).filter((name) => name.endsWith('.recording.json')).sort();
    return await Promise.all(
      files.map(async (name) => {
        const file = await readRecording(join(folder, name));
        const [run] = file.runs;
        if (!run) throw new Error(`${name} holds no run`);
        const recording = recordingOfRun(run);
        const choices = recordedChoices(file);
        const facts: PassFacts = {
          described: {
            suite: file.suite,
            target: { baseUrl: file.target.baseUrl, embeddedReference: file.target.embeddedReference },
            options: file.options,
            startedAt: new Date(run.startedAt),
          },
          finishedAt: new Date(file.finishedAt),
          limits: { deadlineMs: file.options.deadlineMs ?? JUDGE_TIMEOUT_MS },
          choices,
        };
        const judged = await judge.judge({ settings: choices, recording });
        return { file: name, recording, statusIds: choices.statusId, facts, judged };
      }),
    );
  } finally {
    await judge.close();
  }
}

/** CPU milliseconds a target of one pass over every input, `passes` times. */
function timed(work: (input: Input) => unknown, all: readonly Input[], passes: number): number {
  const started = process.cpuUsage();
  for (let pass = 0; pass < passes; pass += 1) for (const input of all) work(input);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / (passes * all.length);
}

const { values } = parseArgs({
  options: { against: { type: 'string' }, rounds: { type: 'string', default: '8' }, passes: { type: 'string', default: '500' } },
});

async function bench(): Promise<void> {
  await compile();
  const all = await inputs();
  const sides = [await sideOf(root, 'ours'), ...(values.against ? [await sideOf(resolve(values.against), 'against')] : [])];
  const [ours, other] = sides;
  if (ours && other) {
    for (const input of all) {
      const alike = (work: (side: Side) => unknown): boolean => isDeepStrictEqual(work(ours), work(other));
      if (!alike((side) => side.classifyRecording(input.recording, input.statusIds))) console.log(`${input.file}: classified otherwise`);
      // The diagnosis is made at a time of its own only where the pass has no finishing time, which each input has.
      if (!alike((side) => side.diagnoseJudged(input.facts, input.judged))) console.log(`${input.file}: diagnosed otherwise`);
    }
  }
  const figures = new Map(sides.map((side) => [side.name, { classify: [] as number[], diagnose: [] as number[] }]));
  const passes = Number(values.passes);
  for (let round = 0; round < Number(values.rounds); round += 1) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const own = figures.get(side.name);
      own?.classify.push(timed((input) => side.classifyRecording(input.recording, input.statusIds), all, passes));
      own?.diagnose.push(timed((input) => side.diagnoseJudged(input.facts, input.judged), all, passes));
    }
  }
  const median = (list: number[]): string => ([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN).toFixed(3);
  console.log(`${all.length} recordings (${all.map((input) => input.file).join(', ')}), ${values.rounds} rounds of ${passes} passes`);
  for (const [name, { classify, diagnose }] of figures) {
    console.log(`${name.padEnd(8)} classifyRecording ${median(classify)} ms a target, diagnoseJudged ${median(diagnose)} ms a target`);
  }
}

await bench();
