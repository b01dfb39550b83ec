import { nearMissSecrets } from '../exchange/credentials.js';

export const REDACTED = '<redacted>';

/** Shorter than this, a token could not be told from ordinary text, and its base64 forms would be a letter or two. */
export const MIN_TOKEN_LENGTH = 4;

/**
 * An Authorization (or Proxy-Authorization) value that carries a credential: a scheme, then a token-like string
 * (a JSON-escaped `\/` included, so no tail of it is left behind).
 * Placeholders such as <redacted> or <API_TOKEN>, and the deliberately malformed values the suite sends, do not match.
 */
const AUTHORIZATION_VALUE = /(authorization[\s"':=]{1,6}(?:basic|bearer|digest|token|negotiate)\s+)([A-Za-z0-9._~+/=\\-]{6,})/i;
const EVERY_AUTHORIZATION_VALUE = new RegExp(AUTHORIZATION_VALUE.source, 'gi');

/** Keeps the scheme of an Authorization value, so a reader sees Basic or Bearer, and nothing of the credential. */
export function redactedScheme(authorization: string): string {
  const scheme = /^([A-Za-z][\w-]*)\s/.exec(authorization)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

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

interface SecretForm {
  /** The form as canonical bytes (see canonicalUnits). */
  bytes: number[];
  kind: FormKind;
  /** Whether a suite artifact holding it is a leak; redaction removes every form regardless. */
  screened: boolean;
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

function pushUtf8(codePoint: number, out: (byte: number) => void): void {
  if (codePoint < 0x80) out(codePoint);
  else if (codePoint < 0x800) {
    out(0xc0 | (codePoint >> 6));
    out(0x80 | (codePoint & 0x3f));
  } else if (codePoint < 0x10000) {
    out(0xe0 | (codePoint >> 12));
    out(0x80 | ((codePoint >> 6) & 0x3f));
    out(0x80 | (codePoint & 0x3f));
  } else {
    out(0xf0 | (codePoint >> 18));
    out(0x80 | ((codePoint >> 12) & 0x3f));
    out(0x80 | ((codePoint >> 6) & 0x3f));
    out(0x80 | (codePoint & 0x3f));
  }
}

const HEX = /^[0-9a-fA-F]+$/;
const NAMED_ENTITIES: Record<string, number> = { amp: 0x26, lt: 0x3c, gt: 0x3e, quot: 0x22, apos: 0x27 };
const JSON_ESCAPES: Record<string, number> = { b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/y;
const isHex = (text: string): boolean => HEX.test(text);

/**
 * Walks a text as canonical bytes: JSON escapes (\/, \uXXXX, \"), markdown escapes (\|), URL encoding (%2f, %2F) and
 * HTML or XML character references (&#47;, &amp;) decoded, letters folded to lower case, code points as UTF-8.
 * A secret written in any of those ways, or in a mix of them, is the same run of canonical bytes. Each byte is told
 * with the span of the text it came from. Linear in the text.
 */
function canonicalUnits(text: string, emit: (byte: number, from: number, to: number) => boolean): void {
  let index = 0;
  while (index < text.length) {
    const from = index;
    const char = text.charCodeAt(index);
    let codePoint: number | undefined;
    let rawByte: number | undefined;
    if (char === 0x5c /* \ */ && index + 1 < text.length) {
      const next = text[index + 1] ?? '';
      if (next === 'u' && index + 6 <= text.length && isHex(text.slice(index + 2, index + 6))) {
        codePoint = Number.parseInt(text.slice(index + 2, index + 6), 16);
        index += 6;
        // A surrogate pair written as two escapes is one code point.
        if (
          codePoint >= 0xd800 &&
          codePoint < 0xdc00 &&
          text.startsWith('\\u', index) &&
          index + 6 <= text.length &&
          isHex(text.slice(index + 2, index + 6))
        ) {
          const low = Number.parseInt(text.slice(index + 2, index + 6), 16);
          if (low >= 0xdc00 && low < 0xe000) {
            codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (low - 0xdc00);
            index += 6;
          }
        }
      } else if (JSON_ESCAPES[next] !== undefined) {
        codePoint = JSON_ESCAPES[next];
        index += 2;
      } else if (/[!-/:-@[-`{-~]/.test(next)) {
        codePoint = next.charCodeAt(0);
        index += 2;
      }
    } else if (char === 0x25 /* % */ && index + 3 <= text.length && isHex(text.slice(index + 1, index + 3))) {
      rawByte = Number.parseInt(text.slice(index + 1, index + 3), 16);
      index += 3;
    } else if (char === 0x26 /* & */) {
      ENTITY.lastIndex = index;
      const entity = ENTITY.exec(text);
      if (entity) {
        const [whole, decimal, hex, name] = entity;
        codePoint = decimal ? Number(decimal) : hex ? Number.parseInt(hex, 16) : NAMED_ENTITIES[name ?? ''];
        if (codePoint !== undefined && codePoint > 0x10ffff) codePoint = 0xfffd;
        index += whole.length;
      }
    }
    if (codePoint === undefined && rawByte === undefined) {
      codePoint = text.codePointAt(index) ?? char;
      index += codePoint > 0xffff ? 2 : 1;
    }
    if (rawByte !== undefined) {
      if (!emit(rawByte >= 0x41 && rawByte <= 0x5a ? rawByte + 0x20 : rawByte, from, index)) return;
      continue;
    }
    let go = true;
    pushUtf8(foldCodePoint(codePoint ?? char), (byte) => {
      if (go) go = emit(byte, from, index);
    });
    if (!go) return;
  }
}

function canonicalBytes(text: string): number[] {
  const bytes: number[] = [];
  canonicalUnits(text, (byte) => bytes.push(byte) > 0);
  return bytes;
}

function foldedBytes(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) pushUtf8(foldCodePoint(char.codePointAt(0) ?? 0), (byte) => bytes.push(byte));
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

/** Every form in which a target could plausibly write the token back, as canonical bytes. */
function secretForms(token: string): SecretForm[] {
  const ordinary = isOrdinaryWord(token);
  const utf8 = Buffer.from(token, 'utf8');
  const forms: SecretForm[] = [
    // The token as written, and the token its escapes spell, for a token that holds % \ or &.
    { bytes: canonicalBytes(token), kind: 'plain', screened: !ordinary },
    { bytes: foldedBytes(token), kind: 'plain', screened: !ordinary },
    { bytes: foldedBytes(utf8.toString('hex')), kind: 'hex', screened: utf8.length * 2 >= SCREENED_ENCODED_LENGTH },
    ...base64Cores(utf8).map((core): SecretForm => ({
      bytes: foldedBytes(core),
      kind: 'base64',
      screened: core.length >= SCREENED_ENCODED_LENGTH,
    })),
  ];
  return forms.filter((form) => form.bytes.length >= 2);
}

/** An Aho-Corasick automaton over canonical bytes: one pass over a text finds every form of every token. */
class FormAutomaton {
  private readonly next = new Map<number, number>();
  private fail = new Int32Array(1);
  /** Per state, the longest form ending there (through the failure chain): any form, a screened one; and whether one is base64. */
  longest = new Int32Array(1);
  longestScreened = new Int32Array(1);
  base64 = new Uint8Array(1);
  private states = 1;
  readonly maxLength: number;

  constructor(forms: SecretForm[]) {
    const ends: { state: number; form: SecretForm }[] = [];
    for (const form of forms) {
      let state = 0;
      for (const byte of form.bytes) {
        const key = state * 256 + byte;
        let target = this.next.get(key);
        if (target === undefined) {
          target = this.states;
          this.states += 1;
          this.next.set(key, target);
        }
        state = target;
      }
      ends.push({ state, form });
    }
    this.longest = new Int32Array(this.states);
    this.longestScreened = new Int32Array(this.states);
    this.base64 = new Uint8Array(this.states);
    let maxLength = 0;
    for (const { state, form } of ends) {
      const length = form.bytes.length;
      maxLength = Math.max(maxLength, length);
      this.longest[state] = Math.max(this.longest[state] ?? 0, length);
      if (form.screened) this.longestScreened[state] = Math.max(this.longestScreened[state] ?? 0, length);
      if (form.kind === 'base64') this.base64[state] = 1;
    }
    this.maxLength = maxLength;
    this.link();
  }

  /** Breadth-first failure links, and each state's outputs merged with those of its failure state. */
  private link(): void {
    this.fail = new Int32Array(this.states);
    const children: [number, number][][] = Array.from({ length: this.states }, () => []);
    for (const [key, target] of this.next) children[Math.floor(key / 256)]?.push([key % 256, target]);
    const queue: number[] = (children[0] ?? []).map(([, child]) => child);
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head] ?? 0;
      for (const [byte, child] of children[state] ?? []) {
        let fallback = this.fail[state] ?? 0;
        while (fallback !== 0 && !this.next.has(fallback * 256 + byte)) fallback = this.fail[fallback] ?? 0;
        const linked = this.next.get(fallback * 256 + byte);
        const via = linked !== undefined && linked !== child ? linked : 0;
        this.fail[child] = via;
        this.longest[child] = Math.max(this.longest[child] ?? 0, this.longest[via] ?? 0);
        this.longestScreened[child] = Math.max(this.longestScreened[child] ?? 0, this.longestScreened[via] ?? 0);
        this.base64[child] = Math.max(this.base64[child] ?? 0, this.base64[via] ?? 0);
        queue.push(child);
      }
    }
  }

  step(state: number, byte: number): number {
    for (let current = state; ; current = this.fail[current] ?? 0) {
      const target = this.next.get(current * 256 + byte);
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

export interface SecretScanner {
  /** Names what secret the text holds (never the secret itself), or undefined: the screen of what the suite writes. */
  find(text: string): string | undefined;
  /** The text with every form of every token, and the credential of any Authorization value, replaced by <redacted>. */
  redact(text: string): string;
}

/**
 * One matcher over every form of every (distinct) token: verbatim in any letter case, JSON-escaped, URL-encoded,
 * HTML-escaped, hex, and base64 or base64url at any of the three offsets. Linear in the text whatever the number of tokens.
 */
export function createSecretScanner(tokens: readonly string[]): SecretScanner {
  // The near misses the suite sends as wrong tokens hold all but one character of a token: they are secrets too, but
  // for a token that is an ordinary word, whose near misses are ordinary text (the token "data" would cut "dat").
  const distinct = [
    ...new Set(
      tokens.filter((token) => token.length > 0).flatMap((token) => (isOrdinaryWord(token) ? [token] : [token, ...nearMissSecrets(token)])),
    ),
  ];
  const automaton = new FormAutomaton(distinct.flatMap(secretForms));
  // Where each of the last maxLength canonical bytes started in the text.
  const size = 2 ** Math.ceil(Math.log2(Math.max(2, automaton.maxLength)));

  const scan = (text: string, onMatch: (match: Match, screened: boolean) => boolean): void => {
    if (automaton.maxLength === 0) return;
    const starts = new Int32Array(size);
    let state = 0;
    let count = 0;
    canonicalUnits(text, (byte, from, to) => {
      starts[count & (size - 1)] = from;
      count += 1;
      state = automaton.step(state, byte);
      const length = automaton.longest[state] ?? 0;
      if (length === 0) return true;
      const start = starts[(count - length) & (size - 1)] ?? from;
      return onMatch({ from: start, to, base64: automaton.base64[state] === 1 }, (automaton.longestScreened[state] ?? 0) > 0);
    });
  };

  return {
    find(text) {
      let found: string | undefined;
      scan(text, (_match, screened) => {
        if (screened) found = 'the API token';
        return !screened;
      });
      return found ?? (AUTHORIZATION_VALUE.test(text) ? 'an Authorization value' : undefined);
    },
    redact(text) {
      const clean = text.replace(EVERY_AUTHORIZATION_VALUE, `$1${REDACTED}`);
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
