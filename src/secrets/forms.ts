/**
 * The forms of a secret: every way a target could plausibly write a token or password back (verbatim in any letter
 * case, JSON-escaped, URL-encoded, HTML-escaped, as UTF-8 read as Latin-1, as UTF-16, hex, base64, hex of base64), each
 * as canonical bytes, and the reader that turns any text into the same canonical bytes.
 */

/** Shorter than this, a token could not be told from ordinary text, and its base64 forms would be a letter or two. */
export const MIN_TOKEN_LENGTH = 4;

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
export const SECRET_NAMES = ['the API token', 'the password', 'the client key'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export interface SecretForm {
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
/** What JSON's \b \f \n \r \t stand for, by the letter's code; -1 for any other. */
const JSON_ESCAPES = new Int8Array(0x80).fill(-1);
for (const [letter, char] of Object.entries({ b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 })) JSON_ESCAPES[letter.charCodeAt(0)] = char;
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

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/**
 * A line break is no canonical byte: a secret written across lines is the secret, as base64 wrapped at 76 or 64
 * characters (MIME, PEM, Python's encodebytes, PHP's chunk_split) writes a long token's.
 */
const isLineBreak = (char: number): boolean => char === LINE_FEED || char === CARRIAGE_RETURN;

/** Whether a character of text is one canonical byte as it stands: ASCII that starts no escape and breaks no line. */
export const isPlainAscii = (char: number): boolean =>
  char < 0x80 && char !== BACKSLASH && char !== PERCENT && char !== AMPERSAND && !isLineBreak(char);

/**
 * Reads a text as canonical bytes: JSON escapes (\/, \uXXXX, \"), markdown escapes (\|), URL encoding (%2f, %2F) and
 * HTML or XML character references (&#47;, &sol;, &amp;, &uuml;) decoded, letters folded to lower case, code points as UTF-8,
 * line breaks (raw or escaped) none. A secret written in any of those ways, or in a mix of them, is the same run of
 * canonical bytes. One unit of the text
 * (a character or an escape) at a time, into fields that are reused, so a long text costs no allocation per character.
 */
export class CanonicalReader {
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
      const escaped = next < 0x80 ? (JSON_ESCAPES[next] ?? -1) : -1;
      if (escaped >= 0) {
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
        this.count = isLineBreak(rawByte) ? 0 : 1;
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
    this.count = isLineBreak(raw) ? 0 : utf8Into(foldCodePoint(raw), this.bytes);
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

/**
 * UTF-8 bytes with ASCII letters folded alone: what a percent-encoded echo spells, whose bytes the reader folds no
 * further (Ω written %CE%A9 is not read as ω).
 */
const asciiFoldedBytes = (utf8: Buffer): number[] => [...utf8].map((byte) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte));

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
export function secretForms(secret: string, name: SecretName): SecretForm[] {
  const plain = isOrdinaryWord(secret) ? undefined : name;
  const encoded = (length: number): SecretName | undefined => (length >= SCREENED_ENCODED_LENGTH ? name : undefined);
  const utf8 = Buffer.from(secret, 'utf8');
  const utf16 = Buffer.from(secret, 'utf16le');
  const forms: SecretForm[] = [
    // The secret as written, and the secret its escapes spell, for one that holds % \ or &.
    { bytes: canonicalBytes(secret), kind: 'plain', screened: plain },
    { bytes: foldedBytes(secret), kind: 'plain', screened: plain },
    { bytes: asciiFoldedBytes(utf8), kind: 'plain', screened: plain },
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
