import { beforeAll, describe, test } from 'vitest';
import { variants } from '../src/reference-server/faults.js';
import { startReferenceServer, type ReferenceServerOptions } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import type { CliRun } from './helpers/run-cli.js';
import { ALL_QUIRKS_AT_ONCE, expectConformant } from './helpers/variant-expectations.js';

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
  'all quirks at once': { options: { variants: ALL_QUIRKS_AT_ONCE } },
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
