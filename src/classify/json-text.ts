/**
 * Reading a member of a JSON text as the text writes it, without parsing it into numbers: an integer beyond 2^53 loses
 * digits in JSON.parse, and an id must be compared as the server sent it.
 */

const WHITESPACE = /\s/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** White space as \s reads it (a byte order mark among it), told by its code: ASCII without a regular expression. */
function isWhitespace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return WHITESPACE.test(String.fromCharCode(code));
}

function skipWhitespace(text: string, at: number): number {
  let index = at;
  // Past the end, charCodeAt gives NaN, which is no white space.
  while (isWhitespace(text.charCodeAt(index))) index += 1;
  return index;
}

/** Where the string that opens at `at` ends (past its closing quote). */
function endOfString(text: string, at: number): number {
  // Stryker disable next-line EqualityOperator: past the end there is no character to read
  for (let index = at + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) index += 1;
    else if (code === QUOTE) return index + 1;
  }
  return text.length;
}

/** The end of a number, true, false or null: the next comma, closing bracket or white space. */
function endOfLiteral(text: string, at: number): number {
  let index = at;
  for (; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x2c || code === 0x5d || code === 0x7d || isWhitespace(code)) break;
  }
  return index;
}

/** Where the value that starts at `at` ends. */
function endOfValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return endOfString(text, at);
  if (first !== '{' && first !== '[') return endOfLiteral(text, at);
  let depth = 0;
  // Stryker disable next-line EqualityOperator: past the end there is no character to read
  for (let index = at; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') index = endOfString(text, index) - 1;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return text.length;
}

/**
 * The key of a member, from its opening quote to `end` (past its closing quote), or undefined where it is no JSON
 * string. A key with neither escape nor control character is its text between the quotes; any other is left to JSON.parse.
 */
function keyText(text: string, at: number, end: number): string | undefined {
  if (text.charCodeAt(at) === QUOTE && end - at >= 2 && text.charCodeAt(end - 1) === QUOTE) {
    let plain = true;
    for (let index = at + 1; index < end - 1 && plain; index += 1) {
      const code = text.charCodeAt(index);
      plain = code !== BACKSLASH && code >= 0x20;
    }
    if (plain) return text.slice(at + 1, end - 1);
  }
  try {
    return JSON.parse(text.slice(at, end)) as string;
  } catch {
    return undefined;
  }
}

/** Where the member `key` of the object opening at `at` starts, or -1. The last of duplicate keys wins, as in JSON.parse. */
function memberOf(text: string, at: number, key: string | number): number {
  let found = -1;
  let index = skipWhitespace(text, at + 1);
  for (let position = 0; index < text.length && text[index] !== '}' && text[index] !== ']'; position += 1) {
    let name: string | number = position;
    if (text[at] === '{') {
      const end = endOfString(text, index);
      const parsed = keyText(text, index, end);
      if (parsed === undefined) return -1;
      name = parsed;
      index = skipWhitespace(text, end);
      if (text[index] !== ':') return -1;
      index = skipWhitespace(text, index + 1);
    }
    if (name === key) found = index;
    index = skipWhitespace(text, endOfValue(text, index));
    if (text[index] === ',') index = skipWhitespace(text, index + 1);
  }
  return found;
}

/** The text of the value at `path` (object keys and array indices) in a JSON text, or undefined when there is none. */
export function memberText(text: string, path: readonly (string | number)[]): string | undefined {
  // A byte order mark is white space to \s.
  let at = skipWhitespace(text, 0);
  for (const key of path) {
    if (text[at] !== (typeof key === 'string' ? '{' : '[')) return undefined;
    at = memberOf(text, at, key);
    if (at === -1) return undefined;
  }
  return text.slice(at, endOfValue(text, at));
}
