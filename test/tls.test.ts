import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { SETTINGS } from '../src/config/settings.js';
import { loadTargets } from '../src/config/targets.js';
import { startExporter } from '../src/exporter/server.js';
import { samples, scrape } from './helpers/exporter.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { expectSettledRun } from './helpers/expect-run.js';
import { selfSignedReference, type HostileTarget } from './helpers/hostile-targets.js';
import { fileResources } from './helpers/file-resources.js';
import type { LoopbackServer } from './helpers/loopback-server.js';
import { mutualTlsFiles, startMutualTlsFront, type MutualTlsFiles, type MutualTlsFront } from './helpers/mutual-tls.js';
import { runCli, type CliRun } from './helpers/run-cli.js';
import { selfSignedCertificate, type SelfSigned } from './helpers/self-signed.js';

const TOKEN = 'tls-token-9a3f0c61';
let certificate: SelfSigned;
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();
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
    const run = await inProcess.run(['--base-url', front.url, '--token', TOKEN, '--insecure', '--reports', 'json,md']);
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

describe.concurrent('a target that requires a client certificate (mutual TLS)', () => {
  const MTLS_TOKEN = 'mtls-token-5e81d2a4';
  let files: MutualTlsFiles;
  beforeAll(async () => {
    files = await mutualTlsFiles(await tempFolder('conformance-mtls-'));
  });

  /** The reference server behind a front that takes only client certificates its CA signed; with echo, it writes that text back. */
  async function mutualTarget(echo?: string): Promise<{ front: MutualTlsFront; servers: LoopbackServer[] }> {
    const reference = await startReferenceServer({ token: MTLS_TOKEN });
    const front = await startMutualTlsFront(reference.url, files, echo);
    cleanUpAfterAll(() => reference.close());
    cleanUpAfterAll(front.close);
    return { front, servers: [] };
  }

  /** The lines of the client key's PEM body, each of which an echo of the key holds. */
  const keyLines = (): string[] => files.clientKeyPem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));

  async function outputsHolding(run: CliRun, secrets: readonly string[]): Promise<string[]> {
    const outputs = [
      { path: 'stdout', text: run.stdout },
      { path: 'stderr', text: run.stderr },
      ...(await run.files()).map((file) => ({ path: file.path, text: file.content.toString('utf8') })),
    ];
    return outputs.filter(({ text }) => secrets.some((secret) => text.includes(secret))).map(({ path }) => path);
  }

  test('cannot be judged without --cert and --key, and the refusal says so in one line', async () => {
    const { front } = await mutualTarget();
    const run = await inProcess.run(['--base-url', front.url, '--token', MTLS_TOKEN, '--ca', files.caFile]);
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, {
      exit: 2,
      code: 'HARNESS_TLS',
      line: /the target requires a client certificate \(mutual TLS\) and closed the connection for GET /,
      token: MTLS_TOKEN,
      servers: [],
    });
    expect(run.stdout).toContain('Pass the client certificate and its key with --cert FILE --key FILE');
    expect(front.forwarded).toBe(0);
  });

  /** A run's arguments with the client certificate and its key. */
  const withIdentity = (url: string): string[] => [
    ...['--base-url', url, '--token', MTLS_TOKEN, '--ca', files.caFile],
    ...['--cert', files.clientCertFile, '--key', files.clientKeyFile],
  ];

  test('passes with --cert and --key; the report names the certificate, never the key', async () => {
    const { front } = await mutualTarget();
    const run = await inProcess.run(withIdentity(front.url));
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: MTLS_TOKEN, servers: [] });
    expect(front.forwarded).toBeGreaterThan(0);
    expect(run.report?.options.cert).toBe(files.clientCertFile);
    expect(JSON.stringify(run.report?.options)).not.toContain(files.clientKeyFile);
    expect(await outputsHolding(run, keyLines())).toEqual([]);
  });

  test('passes with an encrypted key and its passphrase, all given by variables, none of it written', async () => {
    const { front } = await mutualTarget();
    const run = await inProcess.run(['--base-url', front.url, '--token', MTLS_TOKEN, '--ca', files.caFile], {
      CONFORMANCE_CERT: files.clientCertFile,
      CONFORMANCE_KEY: files.encryptedClientKeyFile,
      CONFORMANCE_KEY_PASSPHRASE: files.clientKeyPassphrase,
    });
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: MTLS_TOKEN, servers: [] });
    expect(await outputsHolding(run, [files.clientKeyPassphrase, ...keyLines()])).toEqual([]);
    // Connections are kept and reused: a handshake for each request at once, not for every request.
    expect(front.handshakes).toBeLessThanOrEqual(SETTINGS.concurrency.default);
    expect(front.forwarded).toBeGreaterThan(front.handshakes);
  });

  test('is judged by the doctor with --cert and --key, as by a run', async () => {
    const { front } = await mutualTarget();
    const run = await inProcess.run(['doctor', ...withIdentity(front.url)]);
    cleanUpAfterAll(run.cleanup);
    expect(run.stdout).toContain('Verdict: no problem found in the hosting stack');
    expect(run.code).toBe(0);
  });

  test('that echoes the client key back finds it in no file the run wrote and in no output', async () => {
    const { front } = await mutualTarget(files.clientKeyPem);
    const run = await inProcess.run(withIdentity(front.url));
    cleanUpAfterAll(run.cleanup);
    expect(front.forwarded).toBeGreaterThan(0);
    expect(run.report).toBeDefined();
    // The echo reached the records, redacted: the header is there, the key is not.
    const written = (await run.files()).map((file) => file.content.toString('utf8')).join('\n');
    expect(written).toContain('x-debug-echo');
    expect(await outputsHolding(run, keyLines())).toEqual([]);
  });

  test('is tested from a targets file whose target names its own certificate and key', async () => {
    const { front } = await mutualTarget();
    const targets = join(await tempFolder('conformance-mtls-targets-'), 'targets.json');
    const entry = { name: 'mtls', baseUrl: front.url, tokenEnv: 'MTLS_TOKEN', cert: files.clientCertFile, key: files.clientKeyFile };
    await writeFile(targets, JSON.stringify([entry]));
    const run = await inProcess.run(['--targets', targets, '--ca', files.caFile], { MTLS_TOKEN });
    cleanUpAfterAll(run.cleanup);
    expect(run.code).toBe(0);
    expect(front.forwarded).toBeGreaterThan(0);
    expect(await outputsHolding(run, keyLines())).toEqual([]);
  });

  test("an encrypted key is decrypted once, as the exporter's targets are read: its probes need the passphrase no more", async () => {
    const { front } = await mutualTarget();
    const dir = await tempFolder('conformance-mtls-exporter-');
    const targets = join(dir, 'targets.json');
    await writeFile(targets, JSON.stringify([{ name: 'mtls', baseUrl: front.url, tokenEnv: 'MTLS_TOKEN' }]));
    const env = { MTLS_TOKEN, CONFORMANCE_KEY_PASSPHRASE: files.clientKeyPassphrase };
    const flags = ['--targets', targets, '--ca', files.caFile, '--cert', files.clientCertFile, '--key', files.encryptedClientKeyFile];
    const entries = loadTargets(loadConfig(flags, env, join(dir, '.env')), env, join(dir, '.env'));
    // A connection that decrypted the key again would need the passphrase; this one would fail it.
    for (const { options } of entries) options.keyPassphrase = 'not-the-passphrase';
    const exporter = await startExporter({
      targets: entries,
      host: '127.0.0.1',
      port: 0,
      minIntervalMs: 0,
      defaultProbeTimeoutMs: SAFETY_NET_MS,
    });
    cleanUpAfterAll(exporter.close);
    const probe = await scrape(`${exporter.url}/probe?target=mtls`);
    expect(samples(probe.text).get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
    expect(front.handshakes).toBeLessThanOrEqual(SETTINGS.concurrency.default);
  });

  test.for([
    {
      given: "a key that is not the certificate's",
      flags: () => ['--cert', files.clientCertFile, '--key', files.otherKeyFile],
      line: /--key ".*server\.key" is not the private key of --cert ".*client\.pem"\. Pass the key the certificate was issued for/,
    },
    {
      given: 'a certificate without its key',
      flags: () => ['--cert', files.clientCertFile],
      line: /--cert is set without --key\. A client certificate goes with its private key/,
    },
    { given: 'a key without its certificate', flags: () => ['--key', files.clientKeyFile], line: /--key is set without --cert/ },
    {
      given: 'a certificate as the key',
      flags: () => ['--cert', files.clientCertFile, '--key', files.clientCertFile],
      line: /--key ".*client\.pem" holds no PEM private key/,
    },
    {
      given: 'an encrypted key without its passphrase',
      flags: () => ['--cert', files.clientCertFile, '--key', files.encryptedClientKeyFile],
      line: /--key ".*client-encrypted\.key" is encrypted\. Pass its passphrase with --key-passphrase/,
    },
  ])('refuses $given in one line, exit 2, before any request', async ({ flags, line }) => {
    const { front } = await mutualTarget();
    const run = await inProcess.run(['--base-url', front.url, '--token', MTLS_TOKEN, '--ca', files.caFile, ...flags()]);
    cleanUpAfterAll(run.cleanup);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(line);
    expect(front.forwarded).toBe(0);
    expect(await outputsHolding(run, keyLines())).toEqual([]);
  });
});
