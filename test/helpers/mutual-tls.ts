import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SAFETY_NET_MS } from './safety-net.js';

/** A throwaway CA, a server certificate for 127.0.0.1 and a client certificate it signed, as files and as PEM. */
export interface MutualTlsFiles {
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  /** The client key encrypted with clientKeyPassphrase. */
  encryptedClientKeyFile: string;
  clientKeyPassphrase: string;
  /** A private key that is not the client certificate's. */
  otherKeyFile: string;
  /** The client key's PEM, for a test to look for in what a run wrote. */
  clientKeyPem: string;
}

const openssl = (args: string[]): Promise<unknown> => promisify(execFile)('openssl', args, { timeout: SAFETY_NET_MS });

/** Makes the files with openssl in dir (a folder the caller removes). */
export async function mutualTlsFiles(dir: string): Promise<MutualTlsFiles> {
  const at = (name: string): string => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await openssl(['req', '-x509', ...ec, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '1', '-subj', '/CN=conformance test CA']);
  const signed = async (name: string, keyArgs: string[], subject: string, extension?: string): Promise<void> => {
    await openssl(['req', ...keyArgs, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`), '-subj', subject]);
    const extensionArgs: string[] = [];
    if (extension) {
      await writeFile(at(`${name}.ext`), `${extension}\n`);
      extensionArgs.push('-extfile', at(`${name}.ext`));
    }
    await openssl([
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-set_serial',
      '1',
      '-days',
      '1',
      '-out',
      at(`${name}.pem`),
      ...extensionArgs,
    ]);
  };
  await signed('server', ec, '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1');
  // RSA, as most client certificates are: its PEM body runs to many lines, each of which a target could echo.
  await signed('client', ['-newkey', 'rsa:2048', '-nodes'], '/CN=conformance-client', 'extendedKeyUsage=clientAuth');
  const clientKeyPassphrase = 'unlock-9f27c4e1b8';
  await openssl([
    'pkey',
    '-in',
    at('client.key'),
    '-aes256',
    '-passout',
    `pass:${clientKeyPassphrase}`,
    '-out',
    at('client-encrypted.key'),
  ]);
  return {
    caFile: at('ca.pem'),
    serverCertFile: at('server.pem'),
    serverKeyFile: at('server.key'),
    clientCertFile: at('client.pem'),
    clientKeyFile: at('client.key'),
    encryptedClientKeyFile: at('client-encrypted.key'),
    clientKeyPassphrase,
    otherKeyFile: at('server.key'),
    clientKeyPem: await readFile(at('client.key'), 'utf8'),
  };
}

export interface MutualTlsFront {
  url: string;
  /** Requests that reached the origin, each with a client certificate the CA signed. */
  forwarded: number;
  /** TLS handshakes completed with a client certificate: one per connection the client opened. */
  handshakes: number;
  close(): Promise<void>;
}

/**
 * An https server on 127.0.0.1 that takes only connections with a client certificate its CA signed, and passes their
 * requests to an http origin. With echo, it writes that text back in a header and at the end of every body, as a
 * debugging front that dumps what it was given would.
 */
export async function startMutualTlsFront(origin: string, files: MutualTlsFiles, echo?: string): Promise<MutualTlsFront> {
  const target = new URL(origin);
  const state = { forwarded: 0, handshakes: 0 };
  const server = createServer(
    {
      key: await readFile(files.serverKeyFile, 'utf8'),
      cert: await readFile(files.serverCertFile, 'utf8'),
      ca: await readFile(files.caFile, 'utf8'),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (incoming, outgoing) => {
      state.forwarded += 1;
      // Plain bodies, so that an echo added to one leaves it readable.
      const headers = { ...incoming.headers };
      delete headers['accept-encoding'];
      const forwarded = request(
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
        (answer) => {
          if (echo === undefined) {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
            return;
          }
          const answerHeaders = { ...answer.headers, 'x-debug-echo': echo.replace(/\s+/g, '') };
          delete answerHeaders['content-length'];
          outgoing.writeHead(answer.statusCode ?? 502, answerHeaders);
          answer.pipe(outgoing, { end: false });
          answer.on('end', () => outgoing.end(`\n${JSON.stringify({ debug: echo })}`));
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    },
  );
  server.on('secureConnection', () => (state.handshakes += 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get forwarded() {
      return state.forwarded;
    },
    get handshakes() {
      return state.handshakes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
