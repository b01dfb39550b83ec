import { expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { fileResources } from '../helpers/file-resources.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';
import { expectFaultCaught, expectWarned, verdicts } from '../helpers/variant-expectations.js';

const TOKEN = 'kill-matrix-token-5f1c9a';
const { inProcess, cleanUpAfterAll } = fileResources();

/** A run against the reference server with one variant, by the given runner. */
async function runAgainst(name: string, run: (args: string[]) => Promise<CliRun>): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, variants: [name] });
  cleanUpAfterAll(server.close);
  const result = await run(['--base-url', server.url, '--token', TOKEN]);
  cleanUpAfterAll(result.cleanup);
  return result;
}

// A fault (exit 1) and a warning (exit 0 with its warn): a front's exit 2 is checked end to end by the unhappy path.
test.concurrent.each([
  ['wrong-token-accepted', expectFaultCaught],
  ['utf8-bom', expectWarned],
] as const)('the real CLI, end to end, catches what the shared spec runner catches: %s', async (name, expectCaught) => {
  const [real, inThisProcess] = await Promise.all([
    runAgainst(name, (args) => runCli(args)),
    runAgainst(name, (args) => inProcess.run(args, {})),
  ]);
  expectCaught(real, name);
  expect(verdicts(real.report)).toEqual(verdicts(inThisProcess.report));
});
