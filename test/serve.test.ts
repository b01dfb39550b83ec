import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { variants } from '../src/reference-server/faults.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot, runCli } from './helpers/run-cli.js';
import { runServeCli, startServeCli } from './helpers/serve-cli.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';

const TOKEN = 'serve-token-91ab3e';
const { cleanUpAfterAll } = fileResources();

async function get(url: string, password: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${TOKEN}:${password}`).toString('base64')}` },
    signal: AbortSignal.timeout(SAFETY_NET_MS),
  });
  return { status: response.status, body: await response.json() };
}

test('serve runs the reference server with a fault, a path prefix and latency, and stops on SIGTERM', async () => {
  const server = await startServeCli([
    '--port',
    '0',
    '--token',
    TOKEN,
    '--fault',
    'password-checked',
    '--path-prefix',
    '/support',
    '--latency-ms',
    '5',
  ]);
  cleanUpAfterAll(server.stop);
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/support$/);
  expect(server.output).not.toContain(TOKEN);

  const withX = await get(`${server.url}/api/ticket/status/1`, 'x');
  expect(withX).toMatchObject({ status: 200, body: { status: 'success', data: { id: 1, name: 'Open' } } });
  const withOtherPassword = await get(`${server.url}/api/ticket/status/1`, 'z');
  expect(withOtherPassword.status).toBe(401);

  expect(await server.stop()).toBe(0);
});

test('serve without a fault conforms: the suite passes against it', async () => {
  const server = await startServeCli(['--port', '0', '--token', TOKEN]);
  cleanUpAfterAll(server.stop);
  const run = await runCli(['--base-url', server.url, '--token', TOKEN]);
  await run.cleanup();
  expect(run.code).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
});

test('an unknown fault name is one line that lists the valid names, and exit 2', async () => {
  const run = await runServeCli(['--fault', 'no-such-fault']);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^CONFIG_INVALID: --fault "no-such-fault" is not in the fault catalog\. Valid names: /);
  for (const variant of variants) expect(lines[0]).toContain(variant.name);
});

test.concurrent.each([
  [['--port', '70000'], /^CONFIG_INVALID: --port "70000"/],
  [['--latency-ms=-1'], /^CONFIG_INVALID: --latency-ms "-1"/],
  [['--path-prefix', 'support'], /^CONFIG_INVALID: --path-prefix "support"/],
  [['--no-such-flag'], /^CONFIG_UNKNOWN_OPTION: /],
])('serve %j is refused with one line and exit 2', async (args, message) => {
  const run = await runServeCli(args);
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toMatch(message);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
});

test('serve --help lists every fault and quirk with its summary', async () => {
  const run = await runServeCli(['--help']);
  expect(run.code).toBe(0);
  for (const variant of variants) expect(run.stdout).toContain(`${variant.kind}: ${variant.summary}`);
});

test('npm run conformance is the command itself, and npm run reference-server its serve subcommand', () => {
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.conformance).toBe('node bin/ticketing-conformance.js');
  expect(scripts['reference-server']).toBe('node bin/ticketing-conformance.js serve');
});
