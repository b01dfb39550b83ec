import { isCredentialName, REDACTED, redactedCredential } from '../exchange/credential-fields.js';
import { nearMissSecrets } from '../exchange/credentials.js';

/** Shorter than this, a token could not be told from ordinary text, and its base64 forms would be a letter or two. */
export const MIN_TOKEN_LENGTH = 4;

/**
 * An Authorization (or Proxy-Authorization) value that carries a credential: a scheme, then a token-like string
 * (a JSON-escaped `\/` included, so no tail of it is left behind).
 * Placeholders such as <redacted> or <API_TOKEN>, and the deliberately malformed values the suite sends, do not match.
 */
const AUTHORIZATION_VALUE = /(authorization[\s"':=]{1,6}(?:basic|bearer|digest|token|negotiate)\s+)([A-Za-z0-9._~+/=\\-]{6,})/i;
const EVERY_AUTHORIZATION_VALUE = new RegExp(AUTHORIZATION_VALUE.source, 'gi');

/**
 * A token that ordinary text could hold by chance: short, or made of letters alone, or of digits alone, or of words
 * joined by - _ . or a space (`data`, `Open`, `secret`, `ticket-status`). Such a token is still redacted wherever a
 * target writes it; the screen of what the suite writes does not look for its plain form, which the suite's own
 * words may hold, only for its encoded forms (hex, base64), which they never do.
 */
export function isOrdinaryWord(token: string): boolean {
  return token.length < 8 || /^(?:\p{L}+(?:[-_. ]\p{L}+)*|\p{N}+)$/u.test(token);
}

type FormKind = 'plain' | 'hex' | 'base64';

/** What the screen names when an artifact holds a secret, never the secret itself; the first is named before the others. */
const SECRET_NAMES = ['the API token', 'the password'] as const;
type SecretName = (typeof SECRET_NAMES)[number];

interface SecretForm {
  /** The form as canonical bytes (see canonicalUnits). */
  bytes: number[];
  kind: FormKind;
  /** The secret a suite artifact holding it leaks, or undefined when it is not a leak; redaction removes every form regardless. */
  screened?: SecretName;
}

const SCREENED_ENCODED_LENGTH = 8;

/** Folds one code point to lower case when that keeps it one code point, as the text and the forms both are. */
function foldCodePoint(codePoint: number): number {
  if (codePoint >= 0x41 && codePoint <= 0x5a) return codePoint + 0x20;
  if (codePoint < 0x80) return codePoint;
  const lower = String.fromCodePoint(codePoint).toLowerCase();
  const folded = lower.codePointAt(0) ?? codePoint;
  return lower.length === String.fromCodePoint(folded).length ? folded : codePoint;
}

const BACKSLASH = 0x5c;
const PERCENT = 0x25;
const AMPERSAND = 0x26;
/** HTML 4's names for U+00A0 to U+00FF, in order: what PHP's htmlentities writes for a Latin-1 letter, in every mode. */
const LATIN1_ENTITY_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para ' +
  'middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute ' +
  'Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute ' +
  'THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ' +
  'ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';
/** HTML5's names for ASCII characters, name=character: PHP's htmlentities with ENT_HTML5 writes `/` as &sol;, `+` as &plus;. */
const ASCII_ENTITIES =
  'Tab=\t NewLine=\n excl=! quot=" QUOT=" num=# dollar=$ percnt=% amp=& AMP=& apos=\' lpar=( rpar=) ast=* midast=* plus=+ ' +
  'comma=, period=. sol=/ colon=: semi=; lt=< LT=< equals== gt=> GT=> quest=? commat=@ lsqb=[ lbrack=[ bsol=\\ rsqb=] ' +
  'rbrack=] Hat=^ lowbar=_ UnderBar=_ grave=` lcub={ lbrace={ verbar=| vert=| VerticalLine=| rcub=} rbrace=}';
const NAMED_ENTITIES = new Map<string, number>([
  ...ASCII_ENTITIES.split(' ').map((entry): [string, number] => [entry.slice(0, -2), entry.charCodeAt(entry.length - 1)]),
  ...LATIN1_ENTITY_NAMES.split(' ').map((name, offset): [string, number] => [name, 0xa0 + offset]),
]);
const JSON_ESCAPES: Record<string, number> = { b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,15}));/y;

/** The code point an HTML or XML character reference stands for; undefined for a name it does not know. */
function entityCodePoint([, decimal, hex, name]: RegExpExecArray): number | undefined {
  const codePoint = decimal ? Number(decimal) : hex ? Number.parseInt(hex, 16) : NAMED_ENTITIES.get(name ?? '');
  return codePoint !== undefined && codePoint > 0x10ffff ? 0xfffd : codePoint;
}

/** Writes a code point as UTF-8 into bytes; returns how many it took. */
function utf8Into(codePoint: number, bytes: Uint8Array): number {
  if (codePoint < 0x80) {
    bytes[0] = codePoint;
    return 1;
  }
  if (codePoint < 0x800) {
    bytes[0] = 0xc0 | (codePoint >> 6);
    bytes[1] = 0x80 | (codePoint & 0x3f);
    return 2;
  }
  if (codePoint < 0x10000) {
    bytes[0] = 0xe0 | (codePoint >> 12);
    bytes[1] = 0x80 | ((codePoint >> 6) & 0x3f);
    bytes[2] = 0x80 | (codePoint & 0x3f);
    return 3;
  }
  bytes[0] = 0xf0 | (codePoint >> 18);
  bytes[1] = 0x80 | ((codePoint >> 12) & 0x3f);
  bytes[2] = 0x80 | ((codePoint >> 6) & 0x3f);
  bytes[3] = 0x80 | (codePoint & 0x3f);
  return 4;
}

/** The value of a hexadecimal digit, or -1. */
function hexDigit(char: number): number {
  if (char >= 0x30 && char <= 0x39) return char - 0x30;
  const lower = char | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** The value of the `digits` hexadecimal digits at index, or -1 when one is not a hexadecimal digit. */
function hexAt(text: string, index: number, digits: number): number {
  if (index + digits > text.length) return -1;
  let value = 0;
  for (let at = index; at < index + digits; at += 1) {
    const digit = hexDigit(text.charCodeAt(at));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** ASCII punctuation, which a backslash may escape (JSON's \/ and \", markdown's \|). */
const isPunctuation = (char: number): boolean =>
  (char >= 0x21 && char <= 0x2f) || (char >= 0x3a && char <= 0x40) || (char >= 0x5b && char <= 0x60) || (char >= 0x7b && char <= 0x7e);

/** Whether a character of text is one canonical byte as it stands: ASCII that starts no escape. */
const isPlainAscii = (char: number): boolean => char < 0x80 && char !== BACKSLASH && char !== PERCENT && char !== AMPERSAND;

/**
 * Reads a text as canonical bytes: JSON escapes (\/, \uXXXX, \"), markdown escapes (\|), URL encoding (%2f, %2F) and
 * HTML or XML character references (&#47;, &sol;, &amp;, &uuml;) decoded, letters folded to lower case, code points as UTF-8.
 * A secret written in any of those ways, or in a mix of them, is the same run of canonical bytes. One unit of the text
 * (a character or an escape) at a time, into fields that are reused, so a long text costs no allocation per character.
 */
class CanonicalReader {
  /** The canonical bytes of the last unit read, and how many. */
  readonly bytes = new Uint8Array(4);
  count = 0;

  /** Reads the unit at index; returns the index just past it. */
  read(text: string, index: number): number {
    const char = text.charCodeAt(index);
    if (isPlainAscii(char)) {
      this.bytes[0] = char >= 0x41 && char <= 0x5a ? char + 0x20 : char;
      this.count = 1;
      return index + 1;
    }
    if (char === BACKSLASH && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next === 0x75 /* u */) {
        let codePoint = hexAt(text, index + 2, 4);
        if (codePoint >= 0) {
          let end = index + 6;
          // A surrogate pair written as two escapes is one code point.
          if (codePoint >= 0xd800 && codePoint < 0xdc00 && text.startsWith('\\u', end)) {
            const low = hexAt(text, end + 2, 4);
            if (low >= 0xdc00 && low < 0xe000) {
              codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (low - 0xdc00);
              end += 6;
            }
          }
          this.codePoint(codePoint);
          return end;
        }
      }
      const escaped = JSON_ESCAPES[String.fromCharCode(next)];
      if (escaped !== undefined) {
        this.codePoint(escaped);
        return index + 2;
      }
      if (isPunctuation(next)) {
        this.codePoint(next);
        return index + 2;
      }
    } else if (char === PERCENT) {
      const rawByte = hexAt(text, index + 1, 2);
      if (rawByte >= 0) {
        this.bytes[0] = rawByte >= 0x41 && rawByte <= 0x5a ? rawByte + 0x20 : rawByte;
        this.count = 1;
        return index + 3;
      }
    } else if (char === AMPERSAND) {
      ENTITY.lastIndex = index;
      const entity = ENTITY.exec(text);
      const codePoint = entity ? entityCodePoint(entity) : undefined;
      if (entity && codePoint !== undefined) {
        this.codePoint(codePoint);
        return index + entity[0].length;
      }
    }
    const codePoint = text.codePointAt(index) ?? char;
    this.codePoint(codePoint);
    return index + (codePoint > 0xffff ? 2 : 1);
  }

  private codePoint(raw: number): void {
    this.count = utf8Into(foldCodePoint(raw), this.bytes);
  }
}

function canonicalBytes(text: string): number[] {
  const reader = new CanonicalReader();
  const bytes: number[] = [];
  for (let index = 0; index < text.length;) {
    index = reader.read(text, index);
    for (let byte = 0; byte < reader.count; byte += 1) bytes.push(reader.bytes[byte] ?? 0);
  }
  return bytes;
}

function foldedBytes(text: string): number[] {
  const scratch = new Uint8Array(4);
  const bytes: number[] = [];
  for (const char of text) {
    const count = utf8Into(foldCodePoint(char.codePointAt(0) ?? 0), scratch);
    for (let byte = 0; byte < count; byte += 1) bytes.push(scratch[byte] ?? 0);
  }
  return bytes;
}

/**
 * Base64 of the token where it starts 0, 1 or 2 bytes into a 3-byte group (as in `Basic base64(TOKEN:x)`, or after
 * any prefix), in both alphabets: only the characters that the token's bits alone decide, whatever surrounds it.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/** Every form in which a target could plausibly write a secret back, as canonical bytes; name is what the screen calls it. */
function secretForms(secret: string, name: SecretName): SecretForm[] {
  const plain = isOrdinaryWord(secret) ? undefined : name;
  const encoded = (length: number): SecretName | undefined => (length >= SCREENED_ENCODED_LENGTH ? name : undefined);
  const utf8 = Buffer.from(secret, 'utf8');
  const utf16 = Buffer.from(secret, 'utf16le');
  const forms: SecretForm[] = [
    // The secret as written, and the secret its escapes spell, for one that holds % \ or &.
    { bytes: canonicalBytes(secret), kind: 'plain', screened: plain },
    { bytes: foldedBytes(secret), kind: 'plain', screened: plain },
    // Its UTF-8 bytes taken one a character (a header value, a server that decodes credentials as Latin-1), and its
    // UTF-16 bytes in either order as a body read a byte a character holds them: no words of the suite's look so.
    { bytes: foldedBytes(utf8.toString('latin1')), kind: 'plain', screened: plain },
    { bytes: foldedBytes(utf16.toString('latin1')), kind: 'plain', screened: name },
    { bytes: foldedBytes(Buffer.from(utf16).swap16().toString('latin1')), kind: 'plain', screened: name },
    { bytes: foldedBytes(utf8.toString('hex')), kind: 'hex', screened: encoded(utf8.length * 2) },
    // Base64 of the secret, and of the secret as PHP's json_encode writes it (\/), as in a cookie holding encoded JSON.
    ...[...new Set([secret, secret.replaceAll('/', '\\/')])]
      .flatMap((text) => base64Cores(Buffer.from(text, 'utf8')))
      .map((core): SecretForm => ({ bytes: foldedBytes(core), kind: 'base64', screened: encoded(core.length) })),
    // The hex of an Authorization header that carries it in base64, as a dump of the raw request writes it.
    ...[...new Set(base64Cores(utf8))].map((core): SecretForm => {
      const hex = Buffer.from(core).toString('hex');
      return { bytes: foldedBytes(hex), kind: 'hex', screened: encoded(hex.length) };
    }),
  ];
  return forms.filter((form) => form.bytes.length >= 2);
}

/** Largest transition table (states × byte classes) built for a scanner; a larger automaton steps through its trie. */
const MAX_TABLE_ENTRIES = 1 << 21;

/**
 * The trie's edges (state and byte to the next state) in typed arrays, open-addressed: the forms of a fleet's tokens
 * make millions of edges, which a Map would hold at several times the memory.
 */
class EdgeTable {
  private fromState = new Int32Array(1024).fill(-1);
  private byteOf = new Uint8Array(1024);
  private toState = new Int32Array(1024);
  size = 0;

  private slot(state: number, byte: number): number {
    const mask = this.fromState.length - 1;
    let slot = (Math.imul(state, 0x9e3779b1) ^ Math.imul(byte + 1, 0x85ebca6b)) & mask;
    while (this.fromState[slot] !== -1 && (this.fromState[slot] !== state || this.byteOf[slot] !== byte)) slot = (slot + 1) & mask;
    return slot;
  }

  get(state: number, byte: number): number | undefined {
    const slot = this.slot(state, byte);
    return this.fromState[slot] === -1 ? undefined : this.toState[slot];
  }

  set(state: number, byte: number, target: number): void {
    // At most half full, so that a probe ends soon.
    if ((this.size + 1) * 2 > this.fromState.length) this.grow();
    const slot = this.slot(state, byte);
    if (this.fromState[slot] === -1) this.size += 1;
    this.fromState[slot] = state;
    this.byteOf[slot] = byte;
    this.toState[slot] = target;
  }

  /** Calls back for every edge, in no particular order. */
  forEach(callback: (state: number, byte: number, target: number) => void): void {
    for (let slot = 0; slot < this.fromState.length; slot += 1) {
      const state = this.fromState[slot] ?? -1;
      if (state !== -1) callback(state, this.byteOf[slot] ?? 0, this.toState[slot] ?? 0);
    }
  }

  private grow(): void {
    const old = { fromState: this.fromState, byteOf: this.byteOf, toState: this.toState };
    const capacity = old.fromState.length * 2;
    this.fromState = new Int32Array(capacity).fill(-1);
    this.byteOf = new Uint8Array(capacity);
    this.toState = new Int32Array(capacity);
    this.size = 0;
    for (let slot = 0; slot < old.fromState.length; slot += 1) {
      const state = old.fromState[slot] ?? -1;
      if (state !== -1) this.set(state, old.byteOf[slot] ?? 0, old.toState[slot] ?? 0);
    }
  }
}

/** Of two entries of FormAutomaton.screened, the one the screen names: the secret first in SECRET_NAMES. */
const firstNamed = (a: number, b: number): number => (a === 0 ? b : b === 0 ? a : Math.min(a, b));

/** An Aho-Corasick automaton over canonical bytes: one pass over a text finds every form of every token. */
class FormAutomaton {
  private readonly next = new EdgeTable();
  private fail = new Int32Array(1);
  /**
   * Per state, through the failure chain: the longest form ending there, the secret a screened form ending there
   * leaks (its index in SECRET_NAMES plus one, the lowest when several do; 0 for none), and whether a form is base64.
   */
  longest = new Int32Array(1);
  screened = new Uint8Array(1);
  base64 = new Uint8Array(1);
  private states = 1;
  readonly maxLength: number;
  /**
   * The whole automaton as a table, when it is small enough (one token's is): the state after each state and byte
   * class, failure links already followed, so a step is one lookup. Bytes that no form holds share class 0.
   */
  private table?: Int32Array;
  private readonly classOf = new Uint16Array(256);
  private classes = 1;

  constructor(forms: SecretForm[]) {
    const ends: { state: number; form: SecretForm }[] = [];
    for (const form of forms) {
      let state = 0;
      for (const byte of form.bytes) {
        if (this.classOf[byte] === 0) {
          this.classOf[byte] = this.classes;
          this.classes += 1;
        }
        let target = this.next.get(state, byte);
        if (target === undefined) {
          target = this.states;
          this.states += 1;
          this.next.set(state, byte, target);
        }
        state = target;
      }
      ends.push({ state, form });
    }
    this.longest = new Int32Array(this.states);
    this.screened = new Uint8Array(this.states);
    this.base64 = new Uint8Array(this.states);
    let maxLength = 0;
    for (const { state, form } of ends) {
      const length = form.bytes.length;
      maxLength = Math.max(maxLength, length);
      this.longest[state] = Math.max(this.longest[state] ?? 0, length);
      if (form.screened) this.screened[state] = firstNamed(this.screened[state] ?? 0, SECRET_NAMES.indexOf(form.screened) + 1);
      if (form.kind === 'base64') this.base64[state] = 1;
    }
    this.maxLength = maxLength;
    this.link();
  }

  /** Breadth-first failure links, each state's outputs merged with those of its failure state, and the table if it fits. */
  private link(): void {
    this.fail = new Int32Array(this.states);
    // Each state's children, one run of two typed arrays per state (firstChild[state] up to firstChild[state + 1]).
    const firstChild = new Int32Array(this.states + 1);
    this.next.forEach((state) => (firstChild[state + 1] = (firstChild[state + 1] ?? 0) + 1));
    for (let state = 0; state < this.states; state += 1) firstChild[state + 1] = (firstChild[state + 1] ?? 0) + (firstChild[state] ?? 0);
    const childByte = new Uint8Array(this.next.size);
    const childState = new Int32Array(this.next.size);
    const filled = firstChild.slice(0, this.states);
    this.next.forEach((state, byte, target) => {
      const at = filled[state] ?? 0;
      childByte[at] = byte;
      childState[at] = target;
      filled[state] = at + 1;
    });
    const childrenOf = function* (state: number): Generator<[number, number]> {
      for (let at = firstChild[state] ?? 0; at < (firstChild[state + 1] ?? 0); at += 1) yield [childByte[at] ?? 0, childState[at] ?? 0];
    };
    const width = this.classes;
    // Class 0 (a byte no form holds) stays 0 in every row: back to the root.
    const table = this.states * width <= MAX_TABLE_ENTRIES ? new Int32Array(this.states * width) : undefined;
    const queue: number[] = [];
    for (const [byte, child] of childrenOf(0)) {
      if (table) table[this.classOf[byte] ?? 0] = child;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head] ?? 0;
      for (const [byte, child] of childrenOf(state)) {
        let fallback = this.fail[state] ?? 0;
        while (fallback !== 0 && this.next.get(fallback, byte) === undefined) fallback = this.fail[fallback] ?? 0;
        const linked = this.next.get(fallback, byte);
        const via = linked !== undefined && linked !== child ? linked : 0;
        this.fail[child] = via;
        this.longest[child] = Math.max(this.longest[child] ?? 0, this.longest[via] ?? 0);
        this.screened[child] = firstNamed(this.screened[child] ?? 0, this.screened[via] ?? 0);
        this.base64[child] = Math.max(this.base64[child] ?? 0, this.base64[via] ?? 0);
        queue.push(child);
      }
      if (table) {
        // Breadth first, the failure state's row is complete before this one: start from it, then the state's own moves.
        const fallback = this.fail[state] ?? 0;
        table.copyWithin(state * width, fallback * width, fallback * width + width);
        for (const [byte, child] of childrenOf(state)) table[state * width + (this.classOf[byte] ?? 0)] = child;
      }
    }
    this.table = table;
  }

  step(state: number, byte: number): number {
    if (this.table) return this.table[state * this.classes + (this.classOf[byte] ?? 0)] ?? 0;
    for (let current = state; ; current = this.fail[current] ?? 0) {
      const target = this.next.get(current, byte);
      if (target !== undefined) return target;
      if (current === 0) return 0;
    }
  }
}

interface Match {
  from: number;
  to: number;
  base64: boolean;
}

const BASE64_CHAR = /[A-Za-z0-9+/_=-]/;
const BASE64_LETTER = /[A-Za-z0-9+/_-]/;

/**
 * Where a text gives a value under a name: a JSON or PHP array key ("authorization": , 'PHP_AUTH_PW' =>), an entry of
 * PHP's var_dump or print_r (["HTTP_AUTHORIZATION"]=> string(42) "…", [HTTP_COOKIE] => …), a header line (Cookie: …)
 * and a query, form or cookie field (api_key=…). Quotes may be escaped, as a dump inside a JSON string has them.
 */
const NAMED_VALUE = new RegExp(
  [
    String.raw`(?<quote>\\*["'])(?<key>[\w.-]{1,64})\k<quote>\s*(?::|=>)\s*`,
    String.raw`\[(?<dumpQuote>\\*["']?)(?<dumped>[\w.-]{1,64})\k<dumpQuote>\][ \t]*=>(?:(?:\s|\\[nrt])*string\(\d+\))?[ \t]*`,
    String.raw`(?:^|(?<=[\r\n"']|\\[nr]))[ \t]*(?<header>[\w-]{1,64})[ \t]*:[ \t]*`,
    String.raw`(?<=^|[?&;,\s])(?<field>[\w.-]{1,64})=`,
  ].join('|'),
  'g',
);

/** How many backslashes stand just before index, not counting any before from. */
function backslashesBefore(text: string, index: number, from: number): number {
  let count = 0;
  while (index - count - 1 >= from && text.charCodeAt(index - count - 1) === BACKSLASH) count += 1;
  return count;
}

/**
 * Whether the quote at index, with level backslashes before it, stands where a string of that level of escaping
 * starts or ends: a quote inside a JSON string is \" (level 1), one inside a JSON string in a JSON string \\\" (level 3).
 */
const delimits = (text: string, index: number, from: number, level: number): boolean =>
  backslashesBefore(text, index, from) % (2 * (level + 1)) === level;

interface Quoted {
  /** Where its content starts, and where the backslashes of its closing quote start. */
  contentFrom: number;
  contentTo: number;
  /** Just past its closing quote (the end of the text when it has none). */
  end: number;
}

/** The string whose opening quote, after level backslashes, is at open. */
function quotedAt(text: string, open: number, level: number): Quoted {
  const quote = text.charAt(open);
  for (let at = text.indexOf(quote, open + 1); at >= 0; at = text.indexOf(quote, at + 1)) {
    if (delimits(text, at, open + 1, level)) return { contentFrom: open + 1, contentTo: at - level, end: at + 1 };
  }
  return { contentFrom: open + 1, contentTo: text.length, end: text.length };
}

interface Replacement {
  end: number;
  shown: string;
}

/** A string value at from (after any backslashes of its quote), its content shown as redactedCredential says. */
function quotedValue(text: string, from: number, name: string): Replacement | undefined {
  let quote = from;
  while (text.charCodeAt(quote) === BACKSLASH) quote += 1;
  if (text[quote] !== '"' && text[quote] !== "'") return undefined;
  const { contentFrom, contentTo, end } = quotedAt(text, quote, quote - from);
  const content = text.slice(contentFrom, contentTo);
  return { end, shown: `${text.slice(from, contentFrom)}${redactedCredential(name, content)}${text.slice(contentTo, end)}` };
}

/** An object or array of JSON at open, its strings that are not keys shown as redactedCredential says. */
function containerValue(text: string, open: number, level: number, name: string): Replacement {
  let shown = '';
  let copied = open;
  let depth = 0;
  for (let at = open; at < text.length;) {
    const char = text[at];
    if (char === '"' && delimits(text, at, open, level)) {
      const { contentFrom, contentTo, end } = quotedAt(text, at, level);
      if (!/^\s*(?::|=>)/.test(text.slice(end, end + 8))) {
        shown += `${text.slice(copied, contentFrom)}${redactedCredential(name, text.slice(contentFrom, contentTo))}`;
        copied = contentTo;
      }
      at = end;
      continue;
    }
    if (char === '{' || char === '[') depth += 1;
    else if ((char === '}' || char === ']') && --depth === 0) return { end: at + 1, shown: shown + text.slice(copied, at + 1) };
    at += 1;
  }
  return { end: text.length, shown: shown + text.slice(copied) };
}

const NUMBER = /-?\d[\d.eE+-]*/y;
/** Where a value that runs to the end of its line ends: a line break, escaped or not, or the end of the string around it. */
const LINE_VALUE = /(?:[^\r\n"\\]|\\(?![nrt"']))*/y;
/** A query, form or cookie field's value; an Authorization's may hold its scheme and a space (authorization=Basic …). */
const FIELD_VALUE = /(?:[^\s&;,"'<>#\\]|\\(?![nrt"']))*/y;
const SCHEME_THEN_SPACE = /[A-Za-z][\w-]* (?=[^\s&;,"'<>#])/y;

/** Where the sticky pattern, tried at from, stops matching. */
function stickyEnd(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.test(text) ? pattern.lastIndex : from;
}

/** What follows a name at from, when the name is a credential's: its value, and how it is shown. */
function namedValue(text: string, from: number, name: string, groups: Record<string, string | undefined>): Replacement | undefined {
  const quoted = quotedValue(text, from, name);
  if (quoted) return quoted;
  if (groups.quote !== undefined) {
    // A container or a number, in JSON or a PHP array; a bare word after a quoted name is prose.
    const char = text.charAt(from);
    if (char === '{' || char === '[') return containerValue(text, from, groups.quote.length - 1, name);
    const end = stickyEnd(NUMBER, text, from);
    // Quoted, so that a body that was JSON still is.
    return end === from ? undefined : { end, shown: `${groups.quote}${REDACTED}${groups.quote}` };
  }
  const scheme =
    groups.field !== undefined && name.toLowerCase().includes('authorization') ? stickyEnd(SCHEME_THEN_SPACE, text, from) : from;
  const end = stickyEnd(groups.field === undefined ? LINE_VALUE : FIELD_VALUE, text, scheme);
  return end === from ? undefined : { end, shown: redactedCredential(name, text.slice(from, end)) };
}

/** The text with the value of every credential it names (see NAMED_VALUE and isCredentialName) redacted. */
function redactNamedValues(text: string): string {
  let result = '';
  let copied = 0;
  NAMED_VALUE.lastIndex = 0;
  for (let match = NAMED_VALUE.exec(text); match; match = NAMED_VALUE.exec(text)) {
    const groups = match.groups ?? {};
    const name = groups.key ?? groups.dumped ?? groups.header ?? groups.field ?? '';
    const from = match.index + match[0].length;
    const value = isCredentialName(name) ? namedValue(text, from, name, groups) : undefined;
    if (!value) continue;
    result += text.slice(copied, from) + value.shown;
    copied = value.end;
    NAMED_VALUE.lastIndex = value.end;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

export interface SecretScanner {
  /** Names what secret the text holds (never the secret itself), or undefined: the screen of what the suite writes. */
  find(text: string): string | undefined;
  /**
   * The text with every form of every secret, the credential of any Authorization value and the value of anything
   * named as a credential (see NAMED_VALUE) replaced by <redacted>.
   */
  redact(text: string): string;
}

/**
 * One matcher over every form of every (distinct) token and password: verbatim in any letter case, JSON-escaped,
 * URL-encoded, HTML-escaped, as UTF-8 bytes read as Latin-1, as UTF-16 bytes, hex, base64 or base64url at any of the
 * three offsets, and hex of that base64. Linear in the text whatever the number of secrets. A password shorter than a
 * token may be is not looked for: the default one is a single letter.
 */
export function createSecretScanner(tokens: readonly string[], passwords: readonly string[] = []): SecretScanner {
  // The near misses the suite sends as wrong tokens hold all but one character of a token: they are secrets too, but
  // for a token that is an ordinary word, whose near misses are ordinary text (the token "data" would cut "dat").
  const distinct = [
    ...new Set(
      tokens.filter((token) => token.length > 0).flatMap((token) => (isOrdinaryWord(token) ? [token] : [token, ...nearMissSecrets(token)])),
    ),
  ];
  const otherPasswords = [...new Set(passwords)].filter((password) => password.length >= MIN_TOKEN_LENGTH && !distinct.includes(password));
  const automaton = new FormAutomaton([
    ...distinct.flatMap((token) => secretForms(token, 'the API token')),
    ...otherPasswords.flatMap((password) => secretForms(password, 'the password')),
  ]);
  // Where each of the last maxLength canonical bytes started in the text.
  const size = 2 ** Math.ceil(Math.log2(Math.max(2, automaton.maxLength)));

  const scan = (text: string, onMatch: (match: Match, screened: SecretName | undefined) => boolean): void => {
    if (automaton.maxLength === 0) return;
    const reader = new CanonicalReader();
    const { bytes } = reader;
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
        if (length === 0) continue;
        const start = starts[(count - length) & mask] ?? from;
        const screened = SECRET_NAMES[(automaton.screened[state] ?? 0) - 1];
        if (!onMatch({ from: start, to: index, base64: automaton.base64[state] === 1 }, screened)) return;
      }
    }
  };

  return {
    find(text) {
      let found: string | undefined;
      scan(text, (_match, screened) => {
        found = screened;
        return !screened;
      });
      return found ?? (AUTHORIZATION_VALUE.test(text) ? 'an Authorization value' : undefined);
    },
    redact(text) {
      const clean = redactNamedValues(text).replace(EVERY_AUTHORIZATION_VALUE, `$1${REDACTED}`);
      const spans: Match[] = [];
      scan(clean, (match) => {
        let { from, to } = match;
        if (match.base64) {
          // The character before the core may hold a few bits of the token, those after it the rest of the credential.
          if (from > 0 && BASE64_LETTER.test(clean[from - 1] ?? '')) from -= 1;
          while (to < clean.length && (BASE64_CHAR.test(clean[to] ?? '') || clean.startsWith('\\/', to))) to += clean[to] === '\\' ? 2 : 1;
        }
        let last = spans[spans.length - 1];
        while (last && from <= last.to) {
          spans.pop();
          from = Math.min(from, last.from);
          to = Math.max(to, last.to);
          last = spans[spans.length - 1];
        }
        spans.push({ from, to, base64: match.base64 });
        return true;
      });
      if (spans.length === 0) return clean;
      let result = '';
      let at = 0;
      for (const span of spans) {
        result += clean.slice(at, span.from) + REDACTED;
        at = span.to;
      }
      return result + clean.slice(at);
    },
  };
}
