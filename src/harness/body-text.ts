import type { ParsedBody } from './exchange.js';

/** Far deeper than any answer of this API; deeper JSON would overflow the stack of the checks that walk it. */
export const MAX_JSON_DEPTH = 256;

// A leading byte order mark is dropped, as browsers and most JSON clients do.
const utf8 = new TextDecoder('utf-8', { fatal: true });

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

/** Deepest nesting of arrays and objects, counted without parsing so that a hostile body cannot exhaust the stack. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
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
      deepest = Math.max(deepest, depth);
    } else if (char === ']' || char === '}') {
      depth -= 1;
    }
  }
  return deepest;
}

export function parseJson({ text, unreadable }: BodyText): ParsedBody {
  if (unreadable) return { ok: false, error: unreadable };
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    return { ok: false, error: `the JSON is nested more than ${MAX_JSON_DEPTH} levels deep, so the suite does not read it` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
