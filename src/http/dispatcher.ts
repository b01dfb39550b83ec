import { TLSSocket } from 'node:tls';
import { Agent, buildConnector, EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import type { Config } from '../config/settings.js';
import { MAX_HEADER_BYTES } from '../exchange/header-bounds.js';

/** How the transport connects: the fields that are settings are typed as the settings table reads them. */
export interface TransportOptions
  extends Pick<Config, 'timeoutMs' | 'concurrency'>, Partial<Pick<Config, 'ca' | 'insecure' | 'cert' | 'key' | 'keyPassphrase'>> {
  /** Route requests through HTTPS_PROXY/HTTP_PROXY unless NO_PROXY excludes the target. */
  proxyFromEnvironment?: boolean;
  /** Told the SHA-256 fingerprint of each TLS certificate the target presents on a direct connection, and its host. */
  onTlsCertificate?(fingerprint: string, host: string): void;
  /** Told the TLS error a connection ended with (a target's alert), which undici reports only as the socket closing. */
  onTlsError?(error: Error, host: string): void;
  /** Told each time a direct connection to the target is made (its TLS handshake done, over https), and its host. */
  onConnected?(host: string): void;
  /**
   * How long an idle connection is kept when the target does not say (Keep-Alive: timeout=N), and the most it is kept
   * when it does; a target's own word, less a margin, is kept to otherwise. undici's defaults (4 s) when not given.
   */
  keepIdleMs?: number;
}

/** The host a connection goes to, as the connector and a base URL both name it: name and port, the default port written. */
export function connectionHost(protocol: string, hostname: string, port: string): string {
  const name = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return `${name}:${port === '' ? (protocol === 'https:' ? 443 : 80) : port}`;
}

type ConnectionWatch = Pick<TransportOptions, 'onTlsCertificate' | 'onTlsError' | 'onConnected'>;

/**
 * Watches each connection as it opens: that it was made, its certificate, so the fingerprint costs no request of its
 * own, and the alert a target may end it with after the handshake (TLS 1.3 sends "certificate required" then).
 */
function watching(
  connect: buildConnector.connector,
  { onTlsCertificate, onTlsError, onConnected }: ConnectionWatch,
): buildConnector.connector {
  return (connectOptions, callback) =>
    connect(connectOptions, (...args) => {
      const socket = args[1];
      const host = connectionHost(connectOptions.protocol, connectOptions.hostname, connectOptions.port);
      if (socket) onConnected?.(host);
      if (socket instanceof TLSSocket) {
        const fingerprint = socket.getPeerCertificate().fingerprint256;
        if (fingerprint && onTlsCertificate) onTlsCertificate(fingerprint, host);
        if (onTlsError) {
          socket.once('error', (error: Error & { code?: unknown }) => {
            if (typeof error.code === 'string' && error.code.startsWith('ERR_SSL_')) onTlsError(error, host);
          });
        }
      }
      callback(...args);
    });
}

/**
 * What every TLS connection is opened with: the CAs trusted, and the client certificate with its key, as decrypted
 * once when the settings were read (the passphrase only for a key that was not).
 */
export function clientTlsOptions(options: Pick<TransportOptions, 'ca' | 'insecure' | 'cert' | 'key' | 'keyPassphrase'>): {
  ca?: string;
  rejectUnauthorized?: false;
  cert?: string;
  key?: string;
  passphrase?: string;
} {
  const decrypted = options.key?.decrypted;
  return {
    ...(options.ca ? { ca: options.ca.pem } : {}),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
    ...(options.cert && options.key ? { cert: options.cert.pem, key: decrypted ?? options.key.pem } : {}),
    ...(options.keyPassphrase !== undefined && decrypted === undefined ? { passphrase: options.keyPassphrase } : {}),
  };
}

/** HTTP/1.1 only, the protocol of the API document's requests; the bundled command line leaves undici's HTTP/2 out. */
const tlsOf = (options: TransportOptions): ReturnType<typeof clientTlsOptions> & { allowH2: false } => ({
  allowH2: false,
  ...clientTlsOptions(options),
});

/** How a direct connection to the target is opened: its time-out, and the TLS trust and client certificate asked for. */
const directConnector = (options: TransportOptions): buildConnector.connector =>
  buildConnector({ timeout: options.timeoutMs, ...tlsOf(options) });

/**
 * Opens one direct connection to the origin as the dispatcher would, and closes it: the SHA-256 fingerprint of the
 * certificate it presented over https, none over http. Rejects with what the connection met (refused, certificate).
 */
export function openConnection(options: TransportOptions, origin: URL): Promise<string | undefined> {
  const connect = directConnector(options);
  const hostname = origin.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
    connect({ host: origin.host, hostname, protocol: origin.protocol, port }, (error, socket) => {
      if (error || !socket) {
        reject(error ?? new Error(`no connection to ${origin.host}`));
        return;
      }
      const fingerprint = socket instanceof TLSSocket ? socket.getPeerCertificate().fingerprint256 : undefined;
      socket.destroy();
      resolve(fingerprint);
    });
  });
}

/**
 * Whether the environment names a proxy, as EnvHttpProxyAgent reads it when built: without one, it sends every request
 * directly, only after parsing each request's origin to decide so.
 */
export const proxyInEnvironment = (): boolean =>
  [process.env.http_proxy, process.env.HTTP_PROXY, process.env.https_proxy, process.env.HTTPS_PROXY].some(Boolean);

/**
 * The undici dispatcher: time-outs per phase, a bounded pool, the TLS trust asked for, the client certificate a target
 * may ask for, and proxies from the environment.
 */
export function createDispatcher(options: TransportOptions): Dispatcher {
  const tls = tlsOf(options);
  const direct = directConnector(options);
  const agentOptions = {
    connect: options.onTlsCertificate || options.onTlsError || options.onConnected ? watching(direct, options) : direct,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: options.concurrency,
    maxHeaderSize: MAX_HEADER_BYTES,
    ...(options.keepIdleMs === undefined ? {} : { keepAliveTimeout: options.keepIdleMs, keepAliveMaxTimeout: options.keepIdleMs }),
  };
  if (!options.proxyFromEnvironment || !proxyInEnvironment()) return new Agent(agentOptions);
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
