import { mayNameCredential, REDACTED } from '../exchange/credential-fields.js';
import { nearMissSecrets } from '../exchange/credentials.js';
import { FormAutomaton } from './automaton.js';
import { CanonicalReader, isOrdinaryWord, isPlainAscii, MIN_TOKEN_LENGTH, SECRET_NAMES, secretForms } from './forms.js';
import { redactNamedValues } from './named-values.js';

/**
 * An Authorization (or Proxy-Authorization) value that carries a credential: a scheme, then a token-like string
 * (a JSON-escaped `\/` included, so no tail of it is left behind).
 * Placeholders such as <redacted> or <API_TOKEN>, and the deliberately malformed values the suite sends, do not match.
 */
const AUTHORIZATION_VALUE = /(authorization[\s"':=]{1,6}(?:basic|bearer|digest|token|negotiate)\s+)([A-Za-z0-9._~+/=\\-]{6,})/i;
const EVERY_AUTHORIZATION_VALUE = new RegExp(AUTHORIZATION_VALUE.source, 'gi');

interface Match {
  from: number;
  to: number;
  base64: boolean;
}

const BASE64_CHAR = /[A-Za-z0-9+/_=-]/;
const BASE64_LETTER = /[A-Za-z0-9+/_-]/;

export interface SecretScanner {
  /** Names what secret the text holds (never the secret itself), or undefined: the screen of what the suite writes. */
  find(text: string): string | undefined;
  /**
   * The text with every form of every secret, the credential of any Authorization value and the value of anything
   * named as a credential (see redactNamedValues) replaced by <redacted>.
   */
  redact(text: string): string;
  /**
   * Whether redact leaves the text as it is, told in one pass: it holds no form of a secret and no word of a
   * credential's name. Texts joined by line breaks hold nothing when none of them does, so one pass may tell for many.
   */
  holdsNothing(text: string): boolean;
}

/**
 * What a client key (mutual TLS) is looked for as: each line of its PEM body, since a target that echoes the key, whole
 * or cut, in PEM or as one base64 string, JSON-escaped or encoded again, writes these lines; and its passphrase.
 */
export function clientKeySecrets({
  key,
  keyPassphrase,
}: {
  key?: { pem: string; decrypted?: string } | undefined;
  keyPassphrase?: string | undefined;
}): string[] {
  // The key as read and, if it was encrypted, as decrypted for the connections.
  const lines = `${key?.pem ?? ''}\n${key?.decrypted ?? ''}`
    .split(/\r?\n/)
    .map((line) => line.trim())
    // The armour and the headers of an encrypted key (Proc-Type, DEK-Info) are the same in every key.
    .filter((line) => line !== '' && !line.startsWith('-----') && !line.includes(':'));
  return [...lines, ...(keyPassphrase === undefined ? [] : [keyPassphrase])];
}

/**
 * One matcher over every form of every (distinct) token, password and piece of a client key (see clientKeySecrets):
 * verbatim in any letter case, JSON-escaped, URL-encoded, HTML-escaped, as UTF-8 bytes read as Latin-1, as UTF-16
 * bytes, hex, base64 or base64url at any of the three offsets, and hex of that base64. Linear in the text whatever the
 * number of secrets. A password or a piece of a key shorter than a token may be is not looked for: the default password
 * is a single letter, the last line of a key's body may be a few characters.
 */
export function createSecretScanner(
  tokens: readonly string[],
  passwords: readonly string[] = [],
  clientKeys: readonly string[] = [],
): SecretScanner {
  const automaton = automatonOfSecrets(tokens, passwords, clientKeys);
  // One reader for every search: a search runs to its end before the next begins, and most texts searched are short.
  const reader = new CanonicalReader();
  const holdsForm = (text: string): boolean => automaton.maxLength > 0 && automaton.holdsForm(text, reader);
  return {
    find(text) {
      const screened = automaton.maxLength === 0 ? 0 : automaton.firstScreened(text, reader);
      return SECRET_NAMES[screened - 1] ?? (AUTHORIZATION_VALUE.test(text) ? 'an Authorization value' : undefined);
    },
    holdsNothing(text) {
      return !mayNameCredential(text) && !holdsForm(text);
    },
    redact(text) {
      const clean = mayNameCredential(text) ? redactNamedValues(text).replace(EVERY_AUTHORIZATION_VALUE, `$1${REDACTED}`) : text;
      if (!holdsForm(clean)) return clean;
      let result = '';
      let at = 0;
      for (const span of spansToRedact(automaton, clean)) {
        result += clean.slice(at, span.from) + REDACTED;
        at = span.to;
      }
      return result + clean.slice(at);
    },
  };
}

/** One automaton over every form of every distinct secret the run sends. */
function automatonOfSecrets(tokens: readonly string[], passwords: readonly string[], clientKeys: readonly string[]): FormAutomaton {
  // The near misses the suite sends as wrong tokens hold all but one character of a token: they are secrets too, but
  // for a token that is an ordinary word, whose near misses are ordinary text (the token "data" would cut "dat").
  const distinct = [
    ...new Set(
      tokens.filter((token) => token.length > 0).flatMap((token) => (isOrdinaryWord(token) ? [token] : [token, ...nearMissSecrets(token)])),
    ),
  ];
  const others = (secrets: readonly string[]): string[] =>
    [...new Set(secrets)].filter((secret) => secret.length >= MIN_TOKEN_LENGTH && !distinct.includes(secret));
  return new FormAutomaton([
    ...distinct.flatMap((token) => secretForms(token, 'the API token')),
    ...others(passwords).flatMap((password) => secretForms(password, 'the password')),
    ...others(clientKeys).flatMap((piece) => secretForms(piece, 'the client key')),
  ]);
}

/** The spans of the text to redact, in order, overlapping ones merged. */
function spansToRedact(automaton: FormAutomaton, text: string): Match[] {
  const spans: Match[] = [];
  scanForms(automaton, text, (match) => {
    let { from, to } = match;
    if (match.base64) {
      // The character before the core may hold a few bits of the token, those after it the rest of the credential.
      if (from > 0 && BASE64_LETTER.test(text[from - 1] ?? '')) from -= 1;
      while (to < text.length && (BASE64_CHAR.test(text[to] ?? '') || text.startsWith('\\/', to))) to += text[to] === '\\' ? 2 : 1;
    }
    let last = spans[spans.length - 1];
    while (last && from <= last.to) {
      spans.pop();
      from = Math.min(from, last.from);
      to = Math.max(to, last.to);
      last = spans[spans.length - 1];
    }
    spans.push({ from, to, base64: match.base64 });
  });
  return spans;
}

/** Every form the automaton finds in the text, with where it began and ended there. */
function scanForms(automaton: FormAutomaton, text: string, onMatch: (match: Match) => void): void {
  const reader = new CanonicalReader();
  const { bytes } = reader;
  // Where each of the last maxLength canonical bytes started in the text.
  const size = 2 ** Math.ceil(Math.log2(Math.max(2, automaton.maxLength)));
  const starts = new Int32Array(size);
  const mask = size - 1;
  const { longest } = automaton;
  let state = 0;
  let count = 0;
  for (let index = 0; index < text.length;) {
    const from = index;
    const char = text.charCodeAt(index);
    // Most of a report is plain ASCII, read here without a call.
    let units = 1;
    if (isPlainAscii(char)) {
      bytes[0] = char >= 0x41 && char <= 0x5a ? char + 0x20 : char;
      index += 1;
    } else {
      index = reader.read(text, index);
      units = reader.count;
    }
    for (let unit = 0; unit < units; unit += 1) {
      starts[count & mask] = from;
      count += 1;
      state = automaton.step(state, bytes[unit] ?? 0);
      const length = longest[state] ?? 0;
      if (length > 0) onMatch({ from: starts[(count - length) & mask] ?? from, to: index, base64: automaton.base64[state] === 1 });
    }
  }
}

/**
 * A text a scanner has read and found free of every secret it knows. The text carries the proof, so what a build
 * screened is not read again by the writer: only the same scanner's screen vouches for it.
 */
export interface ClearedText {
  readonly text: string;
  /** The text as UTF-8, when its maker had it encoded already: what a writer writes, not encoding it again. */
  readonly bytes?: Uint8Array;
}

const clearers = new WeakMap<ClearedText, SecretScanner>();

/** The text, cleared (with its UTF-8, if given), or the name of the secret it holds (never the secret itself). */
export function clearedText(text: string, scanner: SecretScanner, bytes?: Uint8Array): ClearedText | { secret: string } {
  const secret = scanner.find(text);
  if (secret) return { secret };
  const cleared: ClearedText = Object.freeze(bytes ? { text, bytes } : { text });
  clearers.set(cleared, scanner);
  return cleared;
}

/** Whether scanner itself cleared the text: one cleared by another scanner, knowing other secrets, is read again. */
export function isClearedBy(cleared: ClearedText, scanner: SecretScanner): boolean {
  return clearers.get(cleared) === scanner;
}
