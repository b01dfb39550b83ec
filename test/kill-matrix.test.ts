import { afterAll, describe, expect, test } from 'vitest';
import { catalog } from '../src/requirements/catalog.js';
import { variants } from '../src/reference-server/faults.js';
import { expectedFronts, expectedKills, expectedWarnings } from '../src/reference-server/kills.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { COUNTS_LINE, failedRequirements, runCli, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'kill-matrix-token-5f1c9a';

const faults = variants.filter((variant) => variant.kind === 'fault');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

/** The real CLI against the reference server with one variant. */
async function runAgainst(name: string): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, variants: [name] });
  cleanups.push(server.close);
  const run = await runCli(['--base-url', server.url, '--token', TOKEN]);
  cleanups.push(run.cleanup);
  return run;
}

describe('every fault of the reference server is caught, and only where it breaks a rule', () => {
  test.concurrent.each(faults.map((fault) => [fault.name]))('%s', async (name) => {
    const run = await runAgainst(name);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.report?.verdict).toBe('not-conformant');
    expect(failedRequirements(run.report)).toEqual([...(expectedKills[name] ?? ['<no expectation written for this fault>'])].sort());
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(COUNTS_LINE);
  });
});

const warnings = variants.filter((variant) => variant.kind === 'warning');
describe('every variant that breaks only a SHOULD is warned about, and the run still passes', () => {
  test.concurrent.each(warnings.map((variant) => [variant.name]))('%s', async (name) => {
    const run = await runAgainst(name);
    expect(run.code).toBe(0);
    expect(run.report?.verdict).toBe('conformant');
    expect(failedRequirements(run.report)).toEqual([]);
    const warned = (run.report?.requirements ?? []).filter((result) => result.verdict === 'warn').map((result) => result.id);
    expect(warned.sort()).toEqual([...(expectedWarnings[name] ?? ['<no expectation written for this variant>'])].sort());
  });
});

const fronts = variants.filter((variant) => variant.kind === 'front');
describe('every front that answers instead of the API gives no verdict, its cause named, and nothing passed', () => {
  test.concurrent.each(fronts.map((variant) => [variant.name]))('%s', async (name) => {
    const run = await runAgainst(name);
    expect(run.code).toBe(2);
    expect(run.report?.verdict).toBe('inconclusive');
    expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual([expectedFronts[name]]);
    expect((run.report?.requirements ?? []).filter((result) => result.verdict === 'pass' || result.verdict === 'fail')).toEqual([]);
  });
});

test('every fault, warning and front in the catalog has an expectation, and every expectation a variant', () => {
  expect(Object.keys(expectedKills).sort()).toEqual(faults.map((fault) => fault.name).sort());
  expect(Object.keys(expectedWarnings).sort()).toEqual(warnings.map((variant) => variant.name).sort());
  expect(Object.keys(expectedFronts).sort()).toEqual(fronts.map((variant) => variant.name).sort());
});

test('every MUST requirement is killed by at least one fault', () => {
  const killed = new Set(Object.values(expectedKills).flat());
  const unkilled = catalog
    .filter((requirement) => requirement.level === 'MUST' && !killed.has(requirement.id))
    .map((requirement) => requirement.id);
  expect(unkilled).toEqual([]);
});
