import { describe, expect, test } from 'vitest';
import { FormAutomaton } from '../src/secrets/automaton.js';
import { CanonicalReader, SECRET_NAMES, secretForms, type SecretForm, type SecretName } from '../src/secrets/forms.js';

/**
 * The screen steps plain ASCII through its table, hands escapes and characters beyond ASCII to the CanonicalReader, and
 * skips what no form it looks for can start in; an automaton too large for a table reads every unit through the reader
 * and skips alike. Both must find what reading every unit and stepping through the trie finds, in any text, whatever
 * secrets they look for.
 */
const TOKEN = 'Sup3r/Secret+Token-93f1c2';
const ASCII_SECRETS: [string, SecretName][] = [
  [TOKEN, 'the API token'],
  ['p4ss\\w0rd&more"%zz<x>', 'the password'],
  ['MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'the client key'],
];
/** A password spelling escapes (%41 is A, &amp; is &): looked for too, as it stands and as they spell it, never written whole here. */
const ESCAPES_SPELLED = 'p%41ss\\w&amp;rd-77';

/** A small seeded generator, so a failure names a text that can be made again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const hex4 = (code: number): string => code.toString(16).padStart(4, '0');
const base64At = (secret: string, offset: number): string => Buffer.from(`${'ab'.slice(0, offset)}${secret}:x`).toString('base64');

/** Each way a target could write a secret, the one the scanner's forms stand for. */
const writers: Record<string, (secret: string, next: () => number) => string> = {
  verbatim: (secret) => secret,
  'upper case': (secret) => secret.toUpperCase(),
  // A character reference's name keeps its case (&amp; and &AMP; are references, &AmP; is not).
  'mixed case': (secret, next) =>
    secret
      .split(/(&\w+;)/)
      .map((piece) =>
        piece.startsWith('&') ? piece : [...piece].map((char) => (next() < 0.5 ? char.toUpperCase() : char.toLowerCase())).join(''),
      )
      .join(''),
  'JSON-escaped': (secret) => JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
  'JSON \\u escapes, some': (secret, next) =>
    [...secret]
      .map((char) =>
        next() < 0.5
          ? [...char].map((unit) => `\\u${next() < 0.5 ? hex4(unit.charCodeAt(0)) : hex4(unit.charCodeAt(0)).toUpperCase()}`).join('')
          : JSON.stringify(char).slice(1, -1),
      )
      .join(''),
  'percent-encoded': (secret) => encodeURIComponent(secret),
  'every byte percent-encoded, lower case': (secret) =>
    [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
  'HTML references': (secret, next) =>
    [...secret].map((char) => (next() < 0.5 ? `&#${char.codePointAt(0)};` : `&#x${(char.codePointAt(0) ?? 0).toString(16)};`)).join(''),
  'UTF-8 read as Latin-1': (secret) => Buffer.from(secret).toString('latin1'),
  'UTF-16LE read as Latin-1': (secret) => Buffer.from(secret, 'utf16le').toString('latin1'),
  'UTF-16BE read as Latin-1': (secret) => Buffer.from(secret, 'utf16le').swap16().toString('latin1'),
  hex: (secret, next) => (next() < 0.5 ? Buffer.from(secret).toString('hex') : Buffer.from(secret).toString('hex').toUpperCase()),
  base64: (secret, next) => base64At(secret, Math.floor(next() * 3)),
  base64url: (secret, next) => Buffer.from(`${'ab'.slice(0, Math.floor(next() * 3))}${secret}`).toString('base64url'),
  'hex of base64': (secret, next) => Buffer.from(base64At(secret, Math.floor(next() * 3))).toString('hex'),
};

interface Screens {
  secrets: [string, SecretName][];
  /** The ways of writing them that the screen looks for (see writers). */
  screenedWriters: string[];
  stepped: FormAutomaton;
  readByUnit: FormAutomaton;
}

/** The mark of the first state that has one, every unit of the text read and stepped through the trie: nothing skipped. */
function firstMarkOfEveryUnit(automaton: FormAutomaton, text: string, marks: Uint8Array | Int32Array): number {
  const reader = new CanonicalReader();
  let state = 0;
  for (let index = 0; index < text.length;) {
    index = reader.read(text, index);
    for (const byte of reader.bytes.subarray(0, reader.count)) {
      state = automaton.step(state, byte);
      if (marks[state] !== 0) return marks[state] ?? 0;
    }
  }
  return 0;
}

function screens(secrets: [string, SecretName][], alsoLookedFor: [string, SecretName][] = [], screenedWriters?: string[]): Screens {
  const forms: SecretForm[] = [...secrets, ...alsoLookedFor].flatMap(([secret, name]) => secretForms(secret, name));
  return {
    secrets,
    screenedWriters: screenedWriters ?? Object.keys(writers),
    stepped: new FormAutomaton(forms),
    readByUnit: new FormAutomaton(forms, 0),
  };
}

const SCREENS: Record<string, Screens> = {
  'one token': screens([[TOKEN, 'the API token']]),
  // The suite's own words may hold it: only its forms that are no words (UTF-16, hex, 8 characters or more) are screened.
  'a token that is an ordinary word': screens(
    [['data', 'the API token']],
    [],
    ['UTF-16LE read as Latin-1', 'UTF-16BE read as Latin-1', 'hex', 'hex of base64'],
  ),
  'a token of the characters JSON is written with': screens([['{"a": [1, 2.5]}, ok', 'the API token']]),
  'ASCII secrets': screens(ASCII_SECRETS, [[ESCAPES_SPELLED, 'the password']]),
  // Characters of two and three bytes: such a token's forms take fewer characters than bytes.
  'a token beyond ASCII': screens([['Schlüssel-鍵-ñ-9f3a-ωmega', 'the API token']]),
  // Capitals beyond ASCII: percent-encoded, their bytes are not folded as the characters are (Ω is %CE%A9, ω %CF%89).
  'a token with capitals beyond ASCII': screens([['ΩMEGA-Schlüssel-Ü-9f3a', 'the API token']]),
  'secrets beyond ASCII too': screens([...ASCII_SECRETS, ['Schlüssel-ñ-9f3a-ωmega', 'the API token']], [[ESCAPES_SPELLED, 'the password']]),
};

/** Text around the secrets: ASCII, escapes whole and cut, characters beyond ASCII, pieces and near misses of the secrets. */
const NOISE = [
  'a',
  'Z',
  '0',
  '9',
  ' ',
  '"',
  ':',
  ',',
  '{',
  '}',
  '/',
  '+',
  '=',
  '-',
  '_',
  '\n',
  '\\',
  '\\"',
  '\\\\',
  '\\/',
  '\\n',
  '\\u',
  '\\u00',
  '\\u0041',
  '\\uD83D\\uDE00',
  '\\ud800',
  '\\x',
  '%',
  '%2',
  '%2F',
  '%zz',
  '%C3%BC',
  '&',
  '&amp;',
  '&#',
  '&#47;',
  '&#x2f;',
  '&sol;',
  '&uuml;',
  '&nosuch;',
  '&#99999999;',
  'é',
  'Ü',
  'ß',
  'İ',
  'Ω',
  '\u00a0',
  '😀',
  '\ud800',
  '\udc00',
  '\u0000',
  TOKEN.slice(0, 12),
  TOKEN.slice(3),
  TOKEN.slice(0, -1),
  TOKEN.toLowerCase().slice(0, -1),
  ESCAPES_SPELLED.slice(0, -1),
  'pass\\w&rd-7',
  'dat',
  'DATA',
  '6461746',
  '{"a": [1, 2.5]}',
  Buffer.from(TOKEN).toString('hex').slice(0, 20),
  Buffer.from(TOKEN).toString('base64').slice(0, 18),
];

interface Generated {
  text: string;
  /** Whether a whole secret was written into it. */
  holdsSecret: boolean;
}

function generated(seed: number, { secrets, screenedWriters }: Screens): Generated {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const noise = (): string => Array.from({ length: Math.floor(next() * 24) }, () => pick(NOISE)).join('');
  let text = noise();
  let holdsSecret = false;
  for (let piece = Math.floor(next() * 3); piece > 0; piece -= 1) {
    const [secret] = pick(secrets);
    const written = writers[pick(screenedWriters)]?.(secret, next) ?? secret;
    // A secret cut short is no secret. A whole one follows a space, since an escape cut in two before it would take
    // its first characters for the rest of the escape (%2 before 5375… reads %25): no way of writing it survives that.
    const whole = next() < 0.7;
    text += whole ? ` ${written}` : written.slice(0, Math.floor(next() * written.length));
    holdsSecret ||= whole;
    text += noise();
  }
  return { text, holdsSecret };
}

describe.each(Object.keys(SCREENS))('looking for %s', (screen) => {
  const screens = SCREENS[screen] as Screens;
  const { secrets, screenedWriters, stepped, readByUnit } = screens;

  test('the table, the trie and every unit stepped agree on thousands of generated texts, and find every whole secret written', () => {
    let holding = 0;
    for (let seed = 1; seed <= 3000; seed += 1) {
      const { text, holdsSecret } = generated(seed, screens);
      const found = firstMarkOfEveryUnit(readByUnit, text, readByUnit.screened);
      const holds = firstMarkOfEveryUnit(readByUnit, text, readByUnit.longest) > 0;
      const screen = (automaton: FormAutomaton): unknown => ({
        seed,
        text,
        found: automaton.firstScreened(text, new CanonicalReader()),
        holds: automaton.holdsForm(text, new CanonicalReader()),
      });
      expect(screen(stepped)).toEqual({ seed, text, found, holds });
      expect(screen(readByUnit)).toEqual({ seed, text, found, holds });
      if (holdsSecret) {
        holding += 1;
        expect({ seed, text, found: found > 0 }).toEqual({ seed, text, found: true });
      }
    }
    // The generator writes whole secrets often enough for the comparison to mean something.
    expect(holding).toBeGreaterThan(1000);
  });

  test.each(screenedWriters)('a secret written as %s is found by the table and by the trie, at any place', (writer) => {
    const next = random(7);
    for (const [secret, name] of secrets) {
      const written = writers[writer]?.(secret, next) ?? '';
      for (const text of [written, `{"echo":"${written}"}`, `\\"${written}%`, `&amp;${written}\\u00`, `é%25${written}😀\\`]) {
        for (const automaton of [stepped, readByUnit]) {
          const found = SECRET_NAMES[automaton.firstScreened(text, new CanonicalReader()) - 1];
          expect({ writer, text, found, holds: automaton.holdsForm(text, new CanonicalReader()) }).toEqual({
            writer,
            text,
            found: name,
            holds: true,
          });
        }
      }
    }
  });
});
