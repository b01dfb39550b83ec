import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { OPTIONS, type OptionSpec } from '../src/config/options.js';
import { repoRoot } from './helpers/run-cli.js';

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
    expect(conformanceStep?.run).toContain(`echo "${name}=`);
  }
});

test('every flag and setting the action passes to the suite is one of its options, and the token goes by environment only', () => {
  const script = conformanceStep?.run ?? '';
  const flags = [...script.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((match) => match[1]);
  expect(flags.length).toBeGreaterThan(0);
  const known = Object.values(OPTIONS).map((spec: OptionSpec) => spec.flag);
  expect(flags.filter((flag) => !known.includes(flag ?? ''))).toEqual([]);
  expect(flags).not.toContain('token');
  const suiteVariables = Object.keys(conformanceStep?.env ?? {}).filter((name) => name.startsWith('CONFORMANCE_'));
  const knownVariables = Object.values(OPTIONS).map((spec: OptionSpec) => spec.env);
  expect(suiteVariables.filter((name) => !knownVariables.includes(name))).toEqual([]);
  expect(conformanceStep?.env?.[OPTIONS.token.env]).toBe('${{ inputs.token }}');
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
