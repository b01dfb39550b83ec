import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TlsIdentity } from './loopback-server.js';
import { SAFETY_NET_MS, removeFolder } from './safety-net.js';

export interface SelfSigned extends TlsIdentity {
  /** The certificate as a file, to pass with --ca. */
  certPath: string;
  cleanup(): Promise<void>;
}

/** A throwaway self-signed certificate for 127.0.0.1, made with openssl at test time. */
export async function selfSignedCertificate(): Promise<SelfSigned> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  await promisify(execFile)(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { timeout: SAFETY_NET_MS },
  );
  return {
    key: await readFile(keyPath, 'utf8'),
    cert: await readFile(certPath, 'utf8'),
    certPath,
    cleanup: () => removeFolder(dir),
  };
}
