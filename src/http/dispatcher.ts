import { TLSSocket } from 'node:tls';
import { Agent, buildConnector, EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import type { Config } from '../config/settings.js';

/** How the transport connects: the fields that are settings are typed as the settings table reads them. */
export interface TransportOptions extends Pick<Config, 'timeoutMs' | 'concurrency'>, Partial<Pick<Config, 'ca' | 'insecure'>> {
  /** Route requests through HTTPS_PROXY/HTTP_PROXY unless NO_PROXY excludes the target. */
  proxyFromEnvironment?: boolean;
  /** Told the SHA-256 fingerprint of each TLS certificate the target presents on a direct connection. */
  onTlsCertificate?(fingerprint: string): void;
}

/** Reads the certificate off each TLS connection as it opens, so the fingerprint costs no request of its own. */
function notingCertificates(connect: buildConnector.connector, note: (fingerprint: string) => void): buildConnector.connector {
  return (connectOptions, callback) =>
    connect(connectOptions, (...args) => {
      const socket = args[1];
      if (socket instanceof TLSSocket) {
        const fingerprint = socket.getPeerCertificate().fingerprint256;
        if (fingerprint) note(fingerprint);
      }
      callback(...args);
    });
}

/** Far more than any API answer needs, small enough that a flood of headers is refused early. */
export const MAX_HEADER_BYTES = 64 * 1024;

/** The undici dispatcher: time-outs per phase, a bounded pool, the TLS trust asked for, and proxies from the environment. */
export function createDispatcher(options: TransportOptions): Dispatcher {
  const tls = { ...(options.ca ? { ca: options.ca.pem } : {}), ...(options.insecure ? { rejectUnauthorized: false } : {}) };
  const direct = buildConnector({ timeout: options.timeoutMs, ...tls });
  const agentOptions = {
    connect: options.onTlsCertificate ? notingCertificates(direct, options.onTlsCertificate) : direct,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: options.concurrency,
    maxHeaderSize: MAX_HEADER_BYTES,
  };
  if (!options.proxyFromEnvironment) return new Agent(agentOptions);
  // Through a proxy, the connection to the target is built from requestTls, not from connect.
  return new EnvHttpProxyAgent({
    ...agentOptions,
    requestTls: { timeout: options.timeoutMs, ...tls },
    proxyTls: { timeout: options.timeoutMs },
    // The client that asks the proxy for a tunnel would otherwise wait minutes for a proxy that never answers CONNECT.
    clientFactory: (origin, clientOptions) =>
      new Pool(origin, { ...clientOptions, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs }),
  });
}
