import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './self-signed.js';

const OPENSSL = '/usr/bin/openssl';
export const opensslMissing: string | undefined = existsSync(OPENSSL) ? undefined : `${OPENSSL} is not installed`;

export interface TlsFront {
  url: string;
  /** The file to hand a client as NODE_EXTRA_CA_CERTS so it trusts the front. */
  certificateFile: string;
  /** SHA-256 fingerprint of the certificate, as openssl and Node print it. */
  fingerprint: string;
  close(): Promise<void>;
}

/**
 * An https server on 127.0.0.1 with a fresh self-signed certificate that passes every request to an http origin
 * and answers with the given Server header, as a web server in front of the application does.
 */
export async function startTlsFront(origin: string, serverHeader: string): Promise<TlsFront> {
  const identity = await selfSignedCertificate();
  const { key: keyPem, cert: certificatePem, certPath: certificateFile } = identity;
  const target = new URL(origin);
  const server = createServer({ key: keyPem, cert: certificatePem }, (incoming, outgoing) => {
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, server: serverHeader });
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    certificateFile,
    fingerprint: new X509Certificate(certificatePem).fingerprint256,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }).then(identity.cleanup),
  };
}
