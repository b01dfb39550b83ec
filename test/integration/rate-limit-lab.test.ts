import { beforeAll, describe, expect, test } from 'vitest';
import { expectSettledRun } from '../helpers/expect-run.js';
import { fileResources } from '../helpers/file-resources.js';
import type { LimitReq } from '../lab/configs.js';
import { Lab } from '../lab/lab.js';
import { findLabTools } from '../lab/tools.js';

const TOKEN = 'rate-lab-token-3b9e51c2a7';
const { tools, missing } = findLabTools();
const absent = [...missing, ...(tools?.nginx ? [] : ['nginx'])];
const skipReason = `skipped: ${absent.join(', ')} not installed (.ci/setup.d/20-apache-php.sh installs them)`;

let lab: Lab | undefined;
const { inProcess, cleanUpAfterAll } = fileResources();

/**
 * The lab's front-controller site behind nginx's limit_req (5 requests a second, a burst of 3): the suite's first round
 * of 16 requests at once is past it, one request every half second is well within it however slow the machine.
 */
async function runAgainst(limitReq: LimitReq, args: string[] = []) {
  if (!lab) throw new Error('the lab did not start');
  const site = await lab.serve({
    name: `limit-req-${limitReq}`,
    server: { kind: 'nginx', site: 'front-controller', limitReq },
    htaccess: 'shipped',
    authorizationSources: ['PHP_AUTH_USER', 'HTTP_AUTHORIZATION'],
  });
  try {
    const run = await inProcess.run(['--base-url', site.url, '--token', TOKEN, ...args]);
    cleanUpAfterAll(run.cleanup);
    return { run, errorLog: await site.errorLog() };
  } finally {
    await site.stop();
  }
}

describe.skipIf(absent.length > 0)(
  absent.length === 0 ? "nginx's limit_req in front of PHP-FPM: a real rate limit" : `rate limit lab ${skipReason}`,
  { concurrent: true },
  () => {
    beforeAll(async () => {
      if (tools) lab = await Lab.start(tools, TOKEN);
      cleanUpAfterAll(async () => lab?.close());
    });

    test('without --rate-limit: no verdict, nginx named as rate limiting with its fix, nothing about the PHP pool', async () => {
      const { run, errorLog } = await runAgainst('every-client');
      await expectSettledRun(run, { exit: 2, token: TOKEN, servers: [] });
      expect(errorLog).toContain('limiting requests, excess');
      const diagnosis = run.report?.diagnoses.find((found) => found.id === 'rate-limited');
      expect(diagnosis?.summary, run.stdout).toMatch(/^nginx \(limit_req\) refused (some of )?the suite's requests for asking too fast/);
      expect(diagnosis?.advice.join(' ')).toMatch(/--rate-limit 2\/s.*geo and map/);
      expect(run.stdout + JSON.stringify(run.report)).not.toMatch(/pm\.max_children|--concurrency/);
    });

    test('with --rate-limit 2/s: its real verdict, conformant, nothing refused', async () => {
      const { run, errorLog } = await runAgainst('every-client', ['--rate-limit', '2/s']);
      await expectSettledRun(run, { exit: 0, token: TOKEN, servers: [] });
      expect(errorLog).not.toContain('limiting requests');
    });

    test("the diagnosis' own lines, the tester's address exempt: conformant without --rate-limit", async () => {
      const { run, errorLog } = await runAgainst('tester-exempt');
      await expectSettledRun(run, { exit: 0, token: TOKEN, servers: [] });
      expect(errorLog).not.toContain('limiting requests');
    });
  },
);
