import { beforeAll, describe, expect, test } from 'vitest';
import { variants } from '../src/reference-server/faults.js';
import { startReferenceServer, type ReferenceServerOptions } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'quirk-token-7d2e41';
const { inProcess, cleanUpAfterAll } = fileResources();

type Runner = (args: string[]) => Promise<CliRun>;
interface ConformantCase {
  options: Omit<ReferenceServerOptions, 'token'>;
  baseUrl?(url: string): string;
}

const quirks = variants.filter((variant) => variant.kind === 'quirk');
const cases: Record<string, ConformantCase> = {
  ...Object.fromEntries(quirks.map((quirk) => [quirk.name, { options: { variants: [quirk.name] } }])),
  'all quirks at once': {
    options: { variants: quirks.map((quirk) => quirk.name).filter((name) => name !== 'gzip' && name !== 'deflate') },
  },
  'IPv6 loopback': { options: { host: '::1' } },
  'a base URL with a path prefix and a trailing slash': { options: { pathPrefix: '/support' }, baseUrl: (url) => `${url}/` },
  'a base URL with a path prefix and no trailing slash': { options: { pathPrefix: '/support' } },
};

async function runAgainst({ options, baseUrl }: ConformantCase, run: Runner): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, ...options });
  cleanUpAfterAll(server.close);
  const result = await run(['--base-url', baseUrl ? baseUrl(server.url) : server.url, '--token', TOKEN]);
  cleanUpAfterAll(result.cleanup);
  return result;
}

function expectConformant(run: CliRun): void {
  const notPassing = (run.report?.requirements ?? [])
    .filter((result) => !['pass', 'info'].includes(result.verdict))
    .map((result) => `${result.id}: ${result.verdict}`);
  expect(notPassing).toEqual([]);
  expect(run.code).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
}

const verdicts = (report: Report | undefined): Record<string, string> =>
  Object.fromEntries((report?.requirements ?? []).map((result) => [result.id, result.verdict]));

/** Every server is recorded once, all at once, and the recordings judged together by one spec runner. */
let runOf: (name: string) => Promise<CliRun>;
beforeAll(async () => {
  const started = startAll(Object.entries(cases).map(([name, entry]) => [name, () => runAgainst(entry, (args) => inProcess.run(args))]));
  runOf = started.outcome;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

describe('unusual but conformant servers pass', () => {
  test.each(Object.keys(cases).map((name) => [name]))('%s', async (name) => expectConformant(await runOf(name)));
});

describe('the real CLI, end to end, passes them as the shared spec runner does', () => {
  test.concurrent.each([['all quirks at once']])('%s', async (name) => {
    const run = await runAgainst(cases[name] as ConformantCase, (args) => runCli(args));
    expectConformant(run);
    expect(verdicts(run.report)).toEqual(verdicts((await runOf(name)).report));
  });
});
