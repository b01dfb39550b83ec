import type { EmbeddedJson, ParsedBody } from './exchange.js';

/**
 * As deep as the vendor's PHP client reads (json_decode with depth 512): anything it accepts, the suite judges. Deeper
 * JSON is beyond a cap of the suite's, never the target's failure.
 */
export const MAX_JSON_DEPTH = 512;

// A leading byte order mark is kept in the text, so that a check can see it; parseJson reads past it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
export const BYTE_ORDER_MARK = '\uFEFF';

export const withoutByteOrderMark = (text: string): string => (text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text);

/** A PHP file's opening tag at the start of a body: the application's source, sent as a file because no PHP runs it. */
export const PHP_SOURCE = /^\uFEFF?\s*<\?php\b/i;

/**
 * The body as it is kept: a PHP source may hold the application's secrets (its database password, its key), which no
 * report spreads, so only its opening tag is kept, with how much was left out. What classifies it is in the tag.
 */
export function withoutPhpSource(text: string): string {
  const tag = PHP_SOURCE.exec(text)?.[0];
  if (tag === undefined) return text;
  return `${tag}\n[the rest of this PHP source, ${text.length - tag.length} characters, is not kept: it may hold the application's secrets]`;
}

export interface BodyText {
  text: string;
  /** Why the bytes cannot be read as JSON text, when they cannot. */
  unreadable?: string;
}

/** JSON travels as UTF-8: bytes that are not are shown with replacement characters, and not parsed. */
export function bodyText(bytes: Buffer): BodyText {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { text: bytes.toString('utf8'), unreadable: 'the body is not valid UTF-8' };
  }
}

/**
 * Far more values than any answer of this API holds (a status with 200 translations has under 1,500). Parsed, each
 * value costs tens of bytes whatever its size on the wire: `[[],[],...]` in 256 KiB is 87,000 arrays.
 */
export const MAX_JSON_VALUES = 20_000;

export interface JsonShape {
  /** Deepest nesting of arrays and objects. */
  depth: number;
  /** Arrays, objects, keys and values, counted from the separators: what parsing would allocate. */
  values: number;
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The shape of a JSON text, read without parsing, so that a hostile body can exhaust neither the stack nor memory. */
export function jsonShape(text: string): JsonShape {
  let depth = 0;
  let deepest = 0;
  let values = 1;
  let inString = false;
  // Character codes, not one-character strings: every answer's body is read so.
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index += 1;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      depth += 1;
      values += 1;
      if (depth > deepest) deepest = depth;
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) {
      depth -= 1;
    } else if (char === COMMA || char === COLON) {
      values += 1;
    }
  }
  return { depth: deepest, values };
}

/** Deepest nesting of arrays and objects, counted without parsing. */
export function jsonDepth(text: string): number {
  return jsonShape(text).depth;
}

/** What parsed answers may still hold, shared by the answers of one target (see JsonValueBudget). */
export interface ValueAllowance {
  allowance(): number;
  spend(values: number): void;
}

/**
 * V8 quotes ten characters or so of the text around an unexpected token: a part of a secret the target wrote, which
 * redaction, knowing only whole secrets, would leave in place.
 */
const QUOTED_TEXT = /, (?:\.\.\.)?"[^]*"(?:\.\.\.)? is not valid JSON$/;

/** Why a JSON text is beyond the suite's caps, or undefined when it is within them. */
function beyondCaps(shape: JsonShape, maxValues: number): string | undefined {
  if (shape.depth > MAX_JSON_DEPTH) return `the JSON is nested more than ${MAX_JSON_DEPTH} levels deep, the suite's cap, so it is not read`;
  if (shape.values > maxValues) {
    return `the JSON holds about ${shape.values} values, more than the ${maxValues} the suite reads of one answer (its cap), so it is not parsed`;
  }
  return undefined;
}

/** Parses JSON text that is within bounds, counting what it parses against the allowance. */
export function parseJson({ text, unreadable }: BodyText, values?: ValueAllowance): ParsedBody {
  if (unreadable) {
    // The bytes are not UTF-8, but an envelope read through them still shows who answered and what it handed out.
    const embedded = jsonShape(text).depth <= MAX_JSON_DEPTH ? embeddedEnvelope(text) : undefined;
    return { ok: false, error: unreadable, why: 'encoding', ...(embedded ? { embedded } : {}) };
  }
  const maxValues = values?.allowance() ?? MAX_JSON_VALUES;
  const shape = jsonShape(text);
  const capped = beyondCaps(shape, maxValues);
  if (capped) return { ok: false, error: capped, why: 'suite-limit' };
  values?.spend(shape.values);
  try {
    return { ok: true, value: JSON.parse(withoutByteOrderMark(text)) as unknown };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(QUOTED_TEXT, ', not valid JSON');
    const embedded = embeddedEnvelope(text);
    return { ok: false, error: message, ...(embedded ? { embedded } : {}) };
  }
}

/** Openings of an object tried before giving up: noise holds few braces before the envelope. */
const EMBEDDED_STARTS = 8;

/** Where the value that opens at `start` closes (its index past the end), or -1; strings are skipped whole. */
function closingOf(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/**
 * A JSON envelope (an object with status or data) inside other text, as PHP prints notices, warnings or deprecations
 * before or after the application's output: the answer still hands out what the envelope holds.
 */
function embeddedEnvelope(text: string): EmbeddedJson | undefined {
  let start = text.indexOf('{');
  for (let tried = 0; start >= 0 && tried < EMBEDDED_STARTS; tried += 1) {
    const end = closingOf(text, start);
    if (end < 0) return undefined;
    const slice = text.slice(start, end);
    if (!beyondCaps(jsonShape(slice), MAX_JSON_VALUES)) {
      try {
        const value = JSON.parse(slice) as unknown;
        if (typeof value === 'object' && value !== null && ('status' in value || 'data' in value)) {
          return { value, before: start, after: text.length - end };
        }
      } catch {
        // Not JSON from this brace: try the next one.
      }
    }
    start = text.indexOf('{', start + 1);
  }
  return undefined;
}
