import { expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { fileResources } from '../helpers/file-resources.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';
import { ALL_QUIRKS_AT_ONCE, expectConformant, verdicts } from '../helpers/variant-expectations.js';

const TOKEN = 'quirk-token-7d2e41';
const { inProcess, cleanUpAfterAll } = fileResources();

async function runAgainstAllQuirks(run: (args: string[]) => Promise<CliRun>): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, variants: ALL_QUIRKS_AT_ONCE });
  cleanUpAfterAll(server.close);
  const result = await run(['--base-url', server.url, '--token', TOKEN]);
  cleanUpAfterAll(result.cleanup);
  return result;
}

test('the real CLI, end to end, passes a server with every quirk at once as the shared spec runner does', async () => {
  const [real, inThisProcess] = await Promise.all([
    runAgainstAllQuirks((args) => runCli(args)),
    runAgainstAllQuirks((args) => inProcess.run(args)),
  ]);
  expectConformant(real);
  expect(verdicts(real.report)).toEqual(verdicts(inThisProcess.report));
});
