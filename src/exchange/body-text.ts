import type { ParsedBody } from './exchange.js';

/** Far deeper than any answer of this API; deeper JSON would overflow the stack of the checks that walk it. */
export const MAX_JSON_DEPTH = 256;

// A leading byte order mark is kept in the text, so that a check can see it; parseJson reads past it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
export const BYTE_ORDER_MARK = '\uFEFF';

export const withoutByteOrderMark = (text: string): string => (text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text);

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

/** The shape of a JSON text, read without parsing, so that a hostile body can exhaust neither the stack nor memory. */
export function jsonShape(text: string): JsonShape {
  let depth = 0;
  let deepest = 0;
  let values = 1;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '[' || char === '{') {
      depth += 1;
      values += 1;
      deepest = Math.max(deepest, depth);
    } else if (char === ']' || char === '}') {
      depth -= 1;
    } else if (char === ',' || char === ':') {
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

/** Parses JSON text that is within bounds, counting what it parses against the allowance. */
export function parseJson({ text, unreadable }: BodyText, values?: ValueAllowance): ParsedBody {
  if (unreadable) return { ok: false, error: unreadable };
  const maxValues = values?.allowance() ?? MAX_JSON_VALUES;
  const shape = jsonShape(text);
  if (shape.depth > MAX_JSON_DEPTH) {
    return { ok: false, error: `the JSON is nested more than ${MAX_JSON_DEPTH} levels deep, so the suite does not read it` };
  }
  if (shape.values > maxValues) {
    return {
      ok: false,
      error: `the JSON holds about ${shape.values} values, more than the ${maxValues} the suite reads of one answer, so it is not parsed`,
    };
  }
  values?.spend(shape.values);
  try {
    return { ok: true, value: JSON.parse(withoutByteOrderMark(text)) as unknown };
  } catch (error) {
    return { ok: false, error: (error instanceof Error ? error.message : String(error)).replace(QUOTED_TEXT, ', not valid JSON') };
  }
}
