import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { SETTINGS, type Setting } from '../src/config/settings.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';
import { userEnv } from './helpers/user-env.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}
interface Action {
  name?: unknown;
  description?: unknown;
  inputs?: Record<string, { description?: unknown; required?: unknown; default?: unknown }>;
  outputs?: Record<string, { description?: unknown; value?: unknown }>;
  runs?: { using?: unknown; steps?: Step[] };
}

const action = parse(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as Action;
const steps = action.runs?.steps ?? [];
const conformanceStep = steps.find((step) => step.id === 'conformance');

test('action.yml has the metadata GitHub requires: a name, a description and a composite run of steps', () => {
  expect(typeof action.name).toBe('string');
  expect(typeof action.description).toBe('string');
  expect(action.runs?.using).toBe('composite');
  expect(steps.length).toBeGreaterThan(0);
  for (const step of steps) {
    // A step either uses an action or runs a script; a composite action's run step must name its shell.
    expect(Boolean(step.uses) !== Boolean(step.run), JSON.stringify(step)).toBe(true);
    if (step.run) expect(step.shell, step.name).toBe('bash');
  }
});

test('action.yml takes base-url, token, strict and baseline, each described, the token and address required', () => {
  const inputs = action.inputs ?? {};
  for (const name of ['base-url', 'token', 'strict', 'baseline']) {
    expect(typeof inputs[name]?.description, name).toBe('string');
  }
  expect(inputs['base-url']?.required).toBe(true);
  expect(inputs.token?.required).toBe(true);
  for (const [name, input] of Object.entries(inputs)) {
    // GitHub passes every input as a string: a default of another type would not be what the step sees.
    if (input.default !== undefined) expect(typeof input.default, name).toBe('string');
  }
});

test('action.yml gives the outputs verdict and report-path, each taken from the run step', () => {
  const outputs = action.outputs ?? {};
  expect(Object.keys(outputs).sort()).toEqual(['report-path', 'verdict']);
  for (const [name, output] of Object.entries(outputs)) {
    expect(typeof output.description, name).toBe('string');
    expect(output.value).toBe(`\${{ steps.conformance.outputs.${name} }}`);
    expect(conformanceStep?.run).toContain(`printf '${name}<<%s\\n%s\\n%s\\n' "$delimiter"`);
  }
});

test('every flag and setting the action passes to the suite is one of its options, and the token goes by environment only', () => {
  const script = conformanceStep?.run ?? '';
  const flags = [...script.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((match) => match[1]);
  expect(flags.length).toBeGreaterThan(0);
  const known = Object.values(SETTINGS).map((spec: Setting<unknown>) => spec.flag);
  expect(flags.filter((flag) => !known.includes(flag ?? ''))).toEqual([]);
  expect(flags).not.toContain('token');
  const suiteVariables = Object.keys(conformanceStep?.env ?? {}).filter((name) => name.startsWith('CONFORMANCE_'));
  const knownVariables = Object.values(SETTINGS).map((spec: Setting<unknown>) => spec.env);
  expect(suiteVariables.filter((name) => !knownVariables.includes(name))).toEqual([]);
  expect(conformanceStep?.env?.[SETTINGS.token.env]).toBe('${{ inputs.token }}');
});

test('every input of the action reaches the run step', () => {
  const env = JSON.stringify(conformanceStep?.env ?? {});
  for (const name of Object.keys(action.inputs ?? {})) expect(env, name).toContain(`inputs.${name} }}`);
});

interface CachingStep extends Step {
  if?: string;
  with?: Record<string, string>;
}

test('a job builds the suite only when the cache has no copy, and runs the copy the cache restores', () => {
  const all = steps as CachingStep[];
  const cache = all.find((step) => step.uses?.startsWith('actions/cache@'));
  const build = all.find((step) => step.run?.includes('npm ci'));
  expect(cache?.with?.path).toBe('${{ runner.temp }}/ticketing-conformance');
  expect(build?.if).toBe(`steps.${cache?.id ?? '?'}.outputs.cache-hit != 'true'`);
  expect(build?.run).toContain('--prefix "$RUNNER_TEMP/ticketing-conformance" --omit=dev');
  expect(conformanceStep?.run).toContain('"$RUNNER_TEMP/ticketing-conformance/node_modules/.bin/ticketing-conformance"');
  // The key names the action's files, so a new version of the action never runs an old cached copy.
  const key = all.find((step) => cache?.with?.key === `\${{ steps.${step.id ?? '?'}.outputs.key }}`);
  expect(key?.run).toContain('sha256sum');
});

describe('the outputs come from the report this run wrote, and the verdict is one of three words', () => {
  const { tempFolder } = fileResources();

  /**
   * The run step as the runner runs it, with a stand-in for the suite that writes `writes` as report.json (unless
   * undefined) and exits with `exit`, over an output folder that already holds `stale` as report.json.
   */
  async function runStep(options: {
    stale?: string;
    writes?: string;
    exit: number;
    inputs?: Record<string, string>;
  }): Promise<{ code: number; outputs: string; stderr: string }> {
    const work = await tempFolder('conformance-action-');
    const bin = join(work, 'ticketing-conformance', 'node_modules', '.bin');
    await mkdir(bin, { recursive: true });
    await writeFile(
      join(bin, 'ticketing-conformance'),
      '#!/usr/bin/env bash\nif [ -n "${WRITES+set}" ]; then mkdir -p "$OUT" && printf \'%s\' "$WRITES" > "$OUT/report.json"; fi\nexit "$EXIT"\n',
      { mode: 0o755 },
    );
    const inputs: Record<string, string> = {
      ...Object.fromEntries(Object.entries(action.inputs ?? {}).map(([name, input]) => [name, String(input.default ?? '')])),
      'base-url': 'https://help.example.com',
      token: 'action-token-6d1e',
      ...options.inputs,
    };
    // What the runner does with the step's env: each ${{ inputs.NAME }} becomes the input's value.
    const env = Object.fromEntries(
      Object.entries(conformanceStep?.env ?? {}).map(([name, value]) => [
        name,
        value.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, input: string) => inputs[input] ?? ''),
      ]),
    );
    const workspace = join(work, 'workspace');
    if (options.stale !== undefined) {
      await mkdir(join(workspace, env.OUT ?? ''), { recursive: true });
      await writeFile(join(workspace, env.OUT ?? '', 'report.json'), options.stale);
    }
    await mkdir(workspace, { recursive: true });
    const outputs = join(work, 'github-output');
    await writeFile(outputs, '');
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((done) => {
      execFile(
        'bash',
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', conformanceStep?.run ?? 'false'],
        {
          cwd: workspace,
          env: {
            ...userEnv,
            ...env,
            RUNNER_TEMP: work,
            GITHUB_OUTPUT: outputs,
            EXIT: String(options.exit),
            ...(options.writes === undefined ? {} : { WRITES: options.writes }),
          },
        },
        (error, _stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
      );
    });
    return { code, outputs: await readFile(outputs, 'utf8'), stderr };
  }

  /** The outputs a GITHUB_OUTPUT file sets, read as the runner reads it: NAME=VALUE lines, or NAME<<DELIMITER up to DELIMITER. */
  function outputsSet(text: string): Record<string, string>[] {
    const set: Record<string, string>[] = [];
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index] ?? '';
      if (line === '') continue;
      const multiLine = /^([^=<]+)<<(.+)$/.exec(line);
      if (multiLine) {
        const end = lines.indexOf(multiLine[2] ?? '', index + 1);
        set.push({ [multiLine[1] ?? '']: lines.slice(index + 1, end).join('\n') });
        index = end;
      } else {
        const cut = line.indexOf('=');
        set.push({ [line.slice(0, cut)]: line.slice(cut + 1) });
      }
    }
    return set;
  }

  const outputsOf = (verdict: string): Record<string, string>[] => [
    { verdict },
    { 'report-path': `${String(action.inputs?.out?.default)}/report.json` },
  ];

  test.each([
    ['a stale report, the run writing none', 'inconclusive', { stale: '{"verdict":"conformant"}', exit: 2 }],
    [
      'a stale report whose verdict holds lines of its own',
      'inconclusive',
      { stale: JSON.stringify({ verdict: 'conformant\nreport-path=/etc/passwd\ndeployed=true' }), exit: 2 },
    ],
    ['a report this run wrote', 'not-conformant', { stale: '{"verdict":"conformant"}', writes: '{"verdict":"not-conformant"}', exit: 1 }],
    [
      'a verdict that is not one of the three words',
      'inconclusive',
      { writes: JSON.stringify({ verdict: 'conformant\ndeployed=true' }), exit: 0 },
    ],
    ['a report that is not JSON', 'inconclusive', { writes: '{"verdict": "conf', exit: 0 }],
  ])('%s: verdict=%s', async (_name, verdict, options) => {
    const step = await runStep(options);
    expect(outputsSet(step.outputs)).toEqual(outputsOf(verdict));
    expect(step.code).toBe(options.exit);
  });

  test('each run writes its outputs with a delimiter of its own, random and long', async () => {
    const delimiters = await Promise.all(
      [1, 2].map(async () => /^verdict<<(.+)$/m.exec((await runStep({ writes: '{"verdict":"conformant"}', exit: 0 })).outputs)?.[1] ?? ''),
    );
    expect(delimiters[0]?.length).toBeGreaterThanOrEqual(32);
    expect(delimiters[0]).not.toBe(delimiters[1]);
  });

  const singleLine = Object.keys(action.inputs ?? {});
  test.each(singleLine.flatMap((input) => ['\n', '\r'].map((lineBreak) => [input, lineBreak] as const)))(
    'the input %s with a line break (%j) is refused in one line, before the suite runs, and sets no output',
    async (input, lineBreak) => {
      const value = `${input === 'out' ? 'reports' : 'value-9c1f'}${lineBreak}verdict=conformant`;
      const step = await runStep({ writes: '{"verdict":"conformant"}', exit: 0, inputs: { [input]: value } });
      expect(step.code).toBe(2);
      expect(step.outputs).toBe('');
      expect(step.stderr.trim().split('\n')).toEqual([`::error::the input ${input} holds a line break; give it on one line`]);
    },
  );
});
