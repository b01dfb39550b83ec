import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { ConfigError } from '../errors.js';
import type { Config } from './settings.js';

/** The client certificate a target asking for one (mutual TLS) is shown, its key, and the key's passphrase. */
export type ClientIdentity = Pick<Config, 'cert' | 'key' | 'keyPassphrase'>;

type IdentityName = keyof ClientIdentity;

const BOTH = 'A client certificate goes with its private key: pass both --cert FILE and --key FILE, or neither';

/**
 * Both the certificate and its key or neither, the key readable and the certificate's own: one ConfigError before any
 * request. `named` says how the messages name each setting, `where` what they are said of (a target of a targets file).
 * No message quotes the key or its passphrase, only the files' paths. Gives back the key, decrypted for every
 * connection to use.
 */
export function checkClientIdentity(
  { cert, key, keyPassphrase }: ClientIdentity,
  named: (name: IdentityName) => string,
  where = '',
): ClientIdentity['key'] {
  if (cert && !key) throw new ConfigError('CONFIG_INVALID', `${where}${named('cert')} is set without ${named('key')}`, BOTH);
  if (key && !cert) throw new ConfigError('CONFIG_INVALID', `${where}${named('key')} is set without ${named('cert')}`, BOTH);
  if (!cert || !key) {
    if (keyPassphrase !== undefined) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `${where}${named('keyPassphrase')} is set without ${named('key')}`,
        'The passphrase unlocks the key of a client certificate: pass --cert FILE and --key FILE with it, or drop it',
      );
    }
    return key;
  }
  const privateKey = readableKey(key, keyPassphrase, `${where}${named('key')} "${key.path}"`, named('keyPassphrase'));
  if (!new X509Certificate(cert.pem).checkPrivateKey(privateKey)) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${where}${named('key')} "${key.path}" is not the private key of ${named('cert')} "${cert.path}"`,
      'Pass the key the certificate was issued for: `openssl x509 -noout -pubkey -in CERT` and `openssl pkey -pubout -in KEY` print the same public key',
    );
  }
  return { ...key, decrypted: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

function readableKey(
  key: NonNullable<ClientIdentity['key']>,
  passphrase: string | undefined,
  what: string,
  passphraseName: string,
): KeyObject {
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: *4,ENCRYPTED/.test(key.pem);
  if (encrypted && passphrase === undefined) {
    throw new ConfigError('CONFIG_INVALID', `${what} is encrypted`, `Pass its passphrase with ${passphraseName}`);
  }
  try {
    return createPrivateKey(passphrase === undefined ? key.pem : { key: key.pem, passphrase });
  } catch {
    // Node's own message is not quoted: it is OpenSSL's, and says nothing a user can act on that these do not.
    if (encrypted) {
      throw new ConfigError('CONFIG_INVALID', `${what} could not be decrypted with ${passphraseName}`, `Check ${passphraseName}`);
    }
    throw new ConfigError(
      'CONFIG_INVALID',
      `${what} holds no private key that can be read`,
      'Pass the PEM private key of the client certificate, unencrypted or with --key-passphrase',
    );
  }
}
