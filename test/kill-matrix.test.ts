import { beforeAll, describe, expect, test } from 'vitest';
import { catalog } from '../src/requirements/catalog.js';
import { variants } from '../src/reference-server/faults.js';
import { expectedFronts, expectedKills, expectedWarnings } from '../src/reference-server/kills.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import type { CliRun } from './helpers/run-cli.js';
import { expectFaultCaught, expectFrontNamed, expectWarned } from './helpers/variant-expectations.js';

const TOKEN = 'kill-matrix-token-5f1c9a';

const faults = variants.filter((variant) => variant.kind === 'fault');
const warnings = variants.filter((variant) => variant.kind === 'warning');
const fronts = variants.filter((variant) => variant.kind === 'front');

const { inProcess, cleanUpAfterAll } = fileResources();

type Runner = (args: string[]) => Promise<CliRun>;

/** A run against the reference server with one variant: the real CLI, or the run command in this process. */
async function runAgainst(name: string, run: Runner): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, variants: [name] });
  cleanUpAfterAll(server.close);
  const result = await run(['--base-url', server.url, '--token', TOKEN]);
  cleanUpAfterAll(result.cleanup);
  return result;
}

/** Every variant is recorded once, all at once, and the recordings judged together by one spec runner. */
let runOf: (name: string) => Promise<CliRun>;
beforeAll(async () => {
  const started = startAll(
    [...faults, ...warnings, ...fronts].map(({ name }) => [name, () => runAgainst(name, (args) => inProcess.run(args))]),
  );
  runOf = started.outcome;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

describe('every fault of the reference server is caught, and only where it breaks a rule', () => {
  test.each(faults.map((fault) => [fault.name]))('%s', async (name) => expectFaultCaught(await runOf(name), name));
});

describe('every variant that breaks only a SHOULD is warned about, and the run still passes', () => {
  test.each(warnings.map((variant) => [variant.name]))('%s', async (name) => expectWarned(await runOf(name), name));
});

describe('every front that answers instead of the API gives no verdict, its cause named, and nothing passed', () => {
  test.each(fronts.map((variant) => [variant.name]))('%s', async (name) => expectFrontNamed(await runOf(name), name));
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
