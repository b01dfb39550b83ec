import { X509Certificate } from 'node:crypto';
import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { MIN_TOKEN_LENGTH } from '../secrets/forms.js';
import { createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { readBoundedText } from '../files/bounded-file.js';

/** Where a value was given, as a message names it: a flag (or its variable), or a field of a target in a targets file. */
export interface Place {
  /** --status-id, or target "eu" statusId. */
  name: string;
  /** How to give a good value there: "--status-id 1 or set CONFORMANCE_STATUS_ID", "statusId: 1 in the targets file". */
  example: string;
  /** The API tokens of the invocation, which no message may quote. */
  tokens: readonly (string | undefined)[];
}

/** The secrets of an invocation as given, which no message may quote. */
export interface Secrets {
  tokens: readonly (string | undefined)[];
  passwords: readonly (string | undefined)[];
  passphrases: readonly (string | undefined)[];
}

/** Reads the text of one setting into its value, or throws the one ConfigError that names it and the fix. */
export type Parser<T> = (raw: string, place: Place) => T;

/** The range a whole-number setting accepts, inclusive. */
export interface Bounds {
  min: number;
  max: number;
}

/** Shard `index` of `count` (1-based), as in --shard 2/4. */
export interface Shard {
  index: number;
  count: number;
}

const MAX_SHARDS = 10_000;

/** The last scanner built, and for which tokens: the settings of one command line share their tokens. */
let lastScanner: { key: string; scanner: SecretScanner } | undefined;

/** A scanner of the command's tokens, built once for all the settings that check against them. */
function scannerOf(tokens: readonly (string | undefined)[]): SecretScanner {
  const known = tokens.filter((token): token is string => token !== undefined);
  const key = JSON.stringify(known);
  if (lastScanner?.key !== key) lastScanner = { key, scanner: createSecretScanner(known) };
  return lastScanner.scanner;
}

/** How long a quoted value may be: what a person reads in one line. A longer one is cut, its length given. */
export const MAX_QUOTED_CHARS = 200;

const cut = (value: string): string =>
  value.length > MAX_QUOTED_CHARS ? `${value.slice(0, MAX_QUOTED_CHARS)}…" (${value.length} characters)` : `${value}"`;

/** A quoted value longer than a cut one (which ends in an ellipsis past the characters kept). */
const LONG_QUOTED = new RegExp(`"([^"]{${MAX_QUOTED_CHARS + 2},})"`, 'g');

/**
 * A setting's message as it may be shown: a value holding a secret of the invocation (an API token, the password, the
 * key's passphrase) is not quoted, whatever else it holds, nor is any secret left in it; a long value is cut.
 */
function screenedText(message: string, raw: string, scanner: SecretScanner): string {
  const secret = scanner.find(raw);
  const shown =
    secret !== undefined
      ? message.replaceAll(`"${raw}"`, `(not quoted: it holds ${secret})`).replaceAll(raw, `(not quoted: it holds ${secret})`)
      : raw.length > MAX_QUOTED_CHARS
        ? message.replaceAll(`"${raw}"`, `"${cut(raw)}`)
        : message;
  // What a parser quoted of a part of the value: an item of a list, a path.
  return readableQuotes(scanner.redact(shown));
}

/** A word longer than a cut one: a path or a value a message gives without quotes. */
const LONG_WORD = new RegExp(`[^\\s"]{${MAX_QUOTED_CHARS + 2},}`, 'g');

/** A message with every value it quotes, and every word, cut to what a person reads, its length given. */
export const readableQuotes = (message: string): string =>
  message
    .replace(LONG_QUOTED, (_quoted, value: string) => `"${cut(value)}`)
    .replace(LONG_WORD, (word) => `${word.slice(0, MAX_QUOTED_CHARS)}… (${word.length} characters)`);

const given = (values: readonly (string | undefined)[]): string[] => values.filter((value): value is string => value !== undefined);

/** A scanner of the secrets of an invocation, to screen what a message would show. */
export const secretsScanner = (secrets: Secrets): SecretScanner =>
  createSecretScanner(given(secrets.tokens), given(secrets.passwords), given(secrets.passphrases));

/**
 * Reads a setting's text with its parser: the one way every setting is read, from a flag, a variable, .env or a
 * targets file, so that no message of any of them quotes a secret or a value too long to read.
 */
export function parseSetting<T>(parse: Parser<T>, raw: string, place: Place, secrets: Secrets): T {
  try {
    return parse(raw, place);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const scanner = secretsScanner(secrets);
    throw new ConfigError(
      error.code as ConstructorParameters<typeof ConfigError>[0],
      screenedText(error.message, raw, scanner),
      screenedText(error.hint, raw, scanner),
    );
  }
}

export const text: Parser<string> = (raw) => raw;

/** A folder to write to: any path but a blank one. */
export const folder: Parser<string> = (raw, { name, example }) => {
  if (raw.trim() === '') throw new ConfigError('CONFIG_INVALID', `${name} is empty`, `Pass a folder, e.g. ${example}`);
  return raw;
};

/** A switch given in a variable: 1, true or yes (in any case) turn it on, anything else leaves it off. */
export const switchedOn: Parser<boolean> = (raw) => ['1', 'true', 'yes'].includes(raw.toLowerCase());

/** Comma-separated names, blanks dropped. */
export const names: Parser<readonly string[]> = (raw) =>
  raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

export function wholeNumber({ min, max }: Bounds): Parser<number> {
  return (raw, { name, example }) => {
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      throw new ConfigError('CONFIG_INVALID', `${name} "${raw}" is not a whole number from ${min} to ${max}`, `Pass e.g. ${example}`);
    }
    return Number(raw);
  };
}

/**
 * A comma-separated list whose items each go through `item`: no blank item, no item twice, at most `most` of them.
 * `same` says when two items are one (two locale codes differing only in case are).
 */
export function listOf<T>(item: Parser<T>, most: number, same: (a: T, b: T) => boolean = (a, b) => a === b): Parser<readonly T[]> {
  return (raw, place) => {
    const texts = raw.split(',').map((text) => text.trim());
    if (texts.some((text) => text === '')) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `${place.name} "${raw}" has an empty item`,
        `Pass items separated by single commas, e.g. ${place.example}`,
      );
    }
    if (texts.length > most) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `${place.name} "${raw}" lists ${texts.length} items, more than ${most}`,
        `Pass at most ${most}; test more in several runs, or as a matrix of targets`,
      );
    }
    const items = texts.map((text) => item(text, place));
    const twice = items.findIndex((value, index) => items.findIndex((other) => same(value, other)) !== index);
    if (twice !== -1) {
      throw new ConfigError('CONFIG_INVALID', `${place.name} "${raw}" lists ${texts[twice]} twice`, 'Pass each item once');
    }
    return items;
  };
}

/**
 * A list of numbers in ascending order, whatever order it was given in: a run of --status-id 5,1 is the run of 1,5,
 * since the first of the list serves the credential checks.
 */
export function ascending(list: Parser<readonly number[]>): Parser<readonly number[]> {
  return (raw, place) => [...list(raw, place)].sort((a, b) => a - b);
}

export const locale: Parser<string> = (raw, { name }) => {
  if (!/^[A-Za-z]{2}$/.test(raw)) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${name} "${raw}" is not a two-letter language code`,
      `Pass a code like fr, as in the status' translations[].locale`,
    );
  }
  return raw;
};

/**
 * Where a token holds what a copy or a file adds to it, in words that never quote it: a line break or another control
 * character, a space at either end, or an invisible character. Sent as it is, the API refuses it, and one of its near
 * misses (the token with its last character dropped) may be served instead.
 */
function strayCharacters(token: string): string | undefined {
  if (/[\r\n]\s*$/.test(token)) return 'ends with a line break';
  // Stryker disable next-line Regex: any control character is named alike
  if (/[\u0000-\u001f\u007f]/.test(token)) return 'holds a control character (a line break, a tab)';
  if (/^\s|\s$/.test(token)) return 'starts or ends with a space';
  if (/\p{Cf}/u.test(token)) return 'holds an invisible character (a zero-width space or a byte order mark, as a page or a chat adds)';
  return undefined;
}

/** An API token, checked without ever being quoted. */
export const apiToken: Parser<string> = (raw, { name, example }) => {
  if (raw.trim() === '') throw new ConfigError('CONFIG_INVALID', `${name} is empty`, `Pass the API token with ${example}`);
  if (raw.includes(':')) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${name} contains ":", which a Basic user name cannot hold`,
      'Pass the token alone; the password part goes in --password',
    );
  }
  const stray = strayCharacters(raw);
  if (stray) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${name} ${stray}, which no API token holds (copied with the end of its line, or from a file?)`,
      "Pass the token without it: tr -d ' \\r\\n' < token.txt prints a token file without its line breaks and spaces",
    );
  }
  if ([...raw].length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${name} is shorter than ${MIN_TOKEN_LENGTH} characters, too short to be told from ordinary text and kept out of every report`,
      `Check the value: API tokens are far longer. Pass the whole token with ${example}`,
    );
  }
  return raw;
};

/** The password part, which the API ignores: never a token, which every curl line of every report would then print. */
export const password: Parser<string> = (raw, { name, tokens }) => {
  if (scannerOf(tokens).find(raw) !== undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${name} holds the API token`,
      `The API ignores the password part: leave ${name} out, or pass any other value`,
    );
  }
  return raw;
};

/** A PEM file the suite was given, read within bounds: its path, resolved for the report, and its text. */
export interface PemFile {
  path: string;
  pem: string;
}

/**
 * A client key, read and checked: with its PEM as unencrypted PKCS#8, decrypted once before any request, so that no
 * TLS connection decrypts it again (at a costly setting, seconds each, on the event loop).
 */
export interface ClientKeyFile extends PemFile {
  decrypted?: string;
}

/** The text of the file named by raw, which must hold a PEM certificate; messages name the file, never its content. */
function certificateFile(raw: string, name: string, hint: string): PemFile {
  const pem = readBoundedText(raw, (reason) => new ConfigError('CONFIG_INVALID', `${name} "${raw}" ${reason}`, hint));
  try {
    new X509Certificate(pem);
  } catch {
    throw new ConfigError('CONFIG_INVALID', `${name} "${raw}" holds no PEM certificate`, hint);
  }
  return { path: resolve(raw), pem };
}

/** CA certificates to trust instead of the system's: the file's path, for the report, and its PEM text. */
export const caFile: Parser<PemFile> = (raw, { name }) =>
  certificateFile(raw, name, "Pass a readable PEM file holding the CA certificate that signed the target's certificate");

/** The client certificate presented to a target that asks for one (mutual TLS). */
export const clientCertificateFile: Parser<PemFile> = (raw, { name }) =>
  certificateFile(raw, name, 'Pass a readable PEM file holding the client certificate (-----BEGIN CERTIFICATE-----)');

const KEY_BEGIN = /-----BEGIN (?:RSA |EC |DSA |ENCRYPTED )?PRIVATE KEY-----/g;
const KEY_END = /-----END (?:RSA |EC |DSA |ENCRYPTED )?PRIVATE KEY-----/g;

/**
 * The first private key block of a PEM text: its first BEGIN line to the first END line after it. Found by two scans,
 * each once through the text: one pattern spanning both lines tries every BEGIN line against the rest of the text,
 * which a file of BEGIN lines alone makes quadratic.
 */
function privateKeyBlock(pem: string): string | undefined {
  KEY_BEGIN.lastIndex = 0;
  const begin = KEY_BEGIN.exec(pem);
  if (begin === null) return undefined;
  // Something between the two lines, as a key has.
  KEY_END.lastIndex = begin.index + begin[0].length + 1;
  const end = KEY_END.exec(pem);
  return end === null ? undefined : pem.slice(begin.index, end.index + end[0].length);
}

/** The private key of the client certificate: checked against the certificate once both are read (clientIdentity). */
export const clientKeyFile: Parser<ClientKeyFile> = (raw, { name }) => {
  const hint = 'Pass a readable PEM file holding the private key of the client certificate (-----BEGIN PRIVATE KEY-----)';
  const pem = readBoundedText(raw, (reason) => new ConfigError('CONFIG_INVALID', `${name} "${raw}" ${reason}`, hint));
  const block = privateKeyBlock(pem);
  if (block === undefined) throw new ConfigError('CONFIG_INVALID', `${name} "${raw}" holds no PEM private key`, hint);
  // Only the key: whatever else the file holds (a certificate, comments) is not sent.
  return { path: resolve(raw), pem: block };
};

export const shard: Parser<Shard> = (raw, { name }) => {
  const match = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${name} "${raw}" is not I/N with 1 <= I <= N`,
      `Pass e.g. ${name} 2/4 for the second of four shards`,
    );
  }
  return { index, count };
};

/** A rate of requests, as Schemathesis writes it: N/s, N/m, N/h or N/d, with the time between two requests it leaves. */
export interface Rate {
  /** As given, for messages and the report: 5/s. */
  text: string;
  /** The time from one request to the next: the period over the count, so the requests are spaced evenly. */
  intervalMs: number;
}

const RATE_PERIODS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Most requests a second the suite can space out: a millisecond apart. */
const MOST_PER_SECOND = 1000;

export const rate: Parser<Rate> = (raw, { name, example }) => {
  const match = /^(\d{1,9})\/([smhd])$/.exec(raw.trim());
  const count = Number(match?.[1]);
  const periodMs = RATE_PERIODS_MS[match?.[2] ?? ''];
  if (!match || periodMs === undefined || count < 1 || count * (1000 / periodMs) > MOST_PER_SECOND) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${name} "${raw}" is not a rate of requests such as 5/s or 100/m (from 1/d to ${MOST_PER_SECOND}/s)`,
      `Pass a count and a unit (s a second, m a minute, h an hour, d a day), as in 5/s or 100/m: ${example}`,
    );
  }
  return { text: `${count}/${match[2]}`, intervalMs: periodMs / count };
};

/** The address of a server to test, whose token is given with `token` (a flag and its variable). */
export function serverUrl(token: { flag: string; env: string }): Parser<string> {
  return (raw, { name, tokens }) => checkedUrl(raw, name, `--${token.flag} or ${token.env}`, tokens);
}

/**
 * A URL as a message may quote it: without its user name and password (up to the last @, since a password typed
 * unencoded may hold / ? or #), without its query and fragment (an API key may be there), and without any token in it.
 */
function quotableUrl(raw: string, scanner: SecretScanner): string {
  return scanner.redact(raw.replace(/^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)?[/\\]*).*@/s, '$1<credentials>@').replace(/([?#]).*$/s, '$1…'));
}

/** The address parsed, an http(s) one with a port a server can listen on. */
function httpUrl(raw: string, flag: string, quoted: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" is not a URL`,
      `Pass the address the API is served at, e.g. ${flag} https://help.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" is not an http(s) address`,
      `Pass the address the API is served at, e.g. ${flag} https://help.example.com`,
    );
  }
  // Port 0 is no server's: every request would fail to connect, and the run end with nothing judged.
  if (url.port === '0') {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" has port 0, which no server listens on`,
      `Pass the port the API is served on, e.g. ${flag} https://help.example.com:8443, or none for the scheme's default`,
    );
  }
  return url;
}

function checkedUrl(raw: string, flag: string, tokenSource: string, tokens: readonly (string | undefined)[]): string {
  const scanner = scannerOf(tokens);
  const quoted = quotableUrl(raw, scanner);
  const url = httpUrl(raw, flag, quoted);
  if (url.username || url.password) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} carries credentials`,
      `Remove them from the URL and pass the token with ${tokenSource}`,
    );
  }
  if (url.search || url.hash) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quotableUrl(`${url.origin}${url.pathname}`, scanner)}" has a query or fragment`,
      'Pass only the scheme, host and path prefix, e.g. https://example.com/support',
    );
  }
  // A path that starts with // (or /\, read the same way) names a host: joined with an API path it would take every
  // request, and the token, there. A stray slash from joining "$HOST/" and "/support" looks just like it.
  if (url.pathname.startsWith('//')) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" has a path starting with two slashes, which would send requests and the token to another host`,
      `Remove the extra slash: ${flag} ${quotableUrl(`${url.origin}/${url.pathname.replace(/^\/+/, '')}`, scanner)}`,
    );
  }
  // In the address, the token would be printed and written wherever the address is, in every report.
  if (scanner.find(url.toString()) !== undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} holds the API token`,
      `Remove it from the URL; pass the token with ${tokenSource} only`,
    );
  }
  return url.toString();
}
