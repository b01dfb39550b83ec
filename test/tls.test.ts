import { beforeAll, describe, expect, test } from 'vitest';
import { expectSettledRun } from './helpers/expect-run.js';
import { selfSignedReference, type HostileTarget } from './helpers/hostile-targets.js';
import { fileResources } from './helpers/file-resources.js';
import { runCli } from './helpers/run-cli.js';
import { selfSignedCertificate, type SelfSigned } from './helpers/self-signed.js';

const TOKEN = 'tls-token-9a3f0c61';
let certificate: SelfSigned;
const { inProcess, cleanUpAfterAll } = fileResources();
beforeAll(async () => {
  certificate = await selfSignedCertificate();
  cleanUpAfterAll(certificate.cleanup);
});

async function target(): Promise<HostileTarget> {
  const started = await selfSignedReference(TOKEN, certificate);
  cleanUpAfterAll(started.close);
  return started;
}

describe.concurrent('a self-signed certificate', () => {
  test('is refused by default, and the origin is not tried again', async () => {
    const front = await target();
    const run = await inProcess.run(['--base-url', front.url, '--token', TOKEN]);
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, {
      exit: 2,
      code: 'HARNESS_TLS',
      line: /TLS failed for GET .*self-signed certificate/,
      token: TOKEN,
      servers: front.servers,
    });
    expect(run.stdout).toMatch(/--ca FILE/);
    // The certificate is the origin's: once refused, no further connection is tried beyond the first wave (at most --concurrency).
    expect(front.front.connections).toBeLessThanOrEqual(16);
  });

  test('is trusted with --ca naming it', async () => {
    const front = await target();
    const run = await inProcess.run(['--base-url', front.url, '--token', TOKEN, '--ca', certificate.certPath]);
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: front.servers });
    expect(run.report?.options.ca).toBe(certificate.certPath);
    expect(run.report?.warnings).toBeUndefined();
  });

  test('is trusted by the doctor with --ca naming it, as by a run', async () => {
    const front = await target();
    const run = await inProcess.run(['doctor', '--base-url', front.url, '--token', TOKEN, '--ca', certificate.certPath]);
    cleanUpAfterAll(run.cleanup);
    expect(run.stdout).toContain('Verdict: no problem found in the hosting stack');
    expect(run.code).toBe(0);
  });

  test('is accepted when NODE_TLS_REJECT_UNAUTHORIZED=0, as loudly as with --insecure', async () => {
    // The real CLI: Node's TLS reads the variable from the process's own environment, not from the command's settings.
    const front = await target();
    const run = await runCli(['--base-url', front.url, '--token', TOKEN], { NODE_TLS_REJECT_UNAUTHORIZED: '0' });
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: front.servers });
    const warning =
      /WARNING TLS_NOT_VERIFIED: NODE_TLS_REJECT_UNAUTHORIZED=0 is set: the TLS certificate of 127\.0\.0\.1:\d+ is not verified/;
    expect(run.stderr).toMatch(warning);
    expect(run.stdout).toMatch(warning);
    expect(run.report?.warnings?.map((entry) => entry.code)).toEqual(['TLS_NOT_VERIFIED']);
  });

  test('is accepted with --insecure, loudly, in the terminal and the report', async () => {
    const front = await target();
    const run = await inProcess.run(['--base-url', front.url, '--token', TOKEN, '--insecure']);
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: front.servers });
    const warning = /WARNING TLS_NOT_VERIFIED: --insecure: the TLS certificate of 127\.0\.0\.1:\d+ is not verified/;
    expect(run.stderr).toMatch(warning);
    expect(run.stdout).toMatch(warning);
    expect(run.report?.warnings?.map((entry) => entry.code)).toEqual(['TLS_NOT_VERIFIED']);
    expect(run.report?.options.insecure).toBe(true);
    const markdown = (await run.files()).find((file) => file.path.endsWith('report.md'))?.content.toString();
    expect(markdown).toMatch(/\*\*Warning\*\* \(TLS_NOT_VERIFIED\)/);
  });
});
