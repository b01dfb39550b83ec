import { execFile } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startReferenceServer } from '../src/reference-server/server.js';
import { mutualTlsFiles, startMutualTlsFront } from '../test/helpers/mutual-tls.js';
import { compile, compiledCli } from './bench/compile.js';
import { measure } from './bench/process-stats.js';

/**
 * npm run bench:client-key: a run of the compiled CLI against a target that asks for a client certificate, whose key
 * is encrypted at a costly setting (PBKDF2, 1,500,000 iterations). Prints what one decryption costs here, and the
 * run's exit, time and TLS handshakes.
 */
const TOKEN = 'bench-client-key-token-51d0';
const ITERATIONS = 1_500_000;

async function bench(): Promise<void> {
  await compile();
  const work = await mkdtemp(join(tmpdir(), 'bench-client-key-'));
  const reference = await startReferenceServer({ token: TOKEN });
  try {
    const files = await mutualTlsFiles(work);
    const costlyKey = join(work, 'client-costly.key');
    await promisify(execFile)('openssl', [
      ...['pkcs8', '-topk8', '-in', files.clientKeyFile, '-v2', 'aes-256-cbc', '-iter', String(ITERATIONS)],
      ...['-passout', `pass:${files.clientKeyPassphrase}`, '-out', costlyKey],
    ]);
    const pem = await readFile(costlyKey, 'utf8');
    const started = performance.now();
    createPrivateKey({ key: pem, passphrase: files.clientKeyPassphrase });
    console.log(`one decryption of the key (PBKDF2, ${ITERATIONS} iterations): ${(performance.now() - started).toFixed(0)} ms`);
    const front = await startMutualTlsFront(reference.url, files);
    try {
      const run = await measure(
        process.execPath,
        [
          compiledCli,
          ...['--base-url', front.url, '--token', TOKEN, '--ca', files.caFile, '--cert', files.clientCertFile, '--key', costlyKey],
          ...['--out', join(work, 'out')],
        ],
        { cwd: work, env: { ...process.env, CONFORMANCE_KEY_PASSPHRASE: files.clientKeyPassphrase }, timeoutMs: 300_000 },
      );
      const verdict = run.stdout.split('\n').find((line) => line.startsWith('Verdict')) ?? run.stderr.trim().split('\n')[0];
      console.log(
        `run: exit ${run.code} in ${(run.wallMs / 1000).toFixed(1)} s, ${front.handshakes} TLS handshakes for ${front.forwarded} requests; ${verdict ?? ''}`,
      );
    } finally {
      await front.close();
    }
  } finally {
    await reference.close();
    await rm(work, { recursive: true, force: true });
  }
}

await bench();
