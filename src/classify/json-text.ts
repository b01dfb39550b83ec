/**
 * Reading a member of a JSON text as the text writes it, without parsing it into numbers: an integer beyond 2^53 loses
 * digits in JSON.parse, and an id must be compared as the server sent it.
 */

const WHITESPACE = /\s/;

function skipWhitespace(text: string, at: number): number {
  let index = at;
  // Past the end, charAt gives an empty text, which is no white space.
  while (WHITESPACE.test(text.charAt(index))) index += 1;
  return index;
}

/** Where the string that opens at `at` ends (past its closing quote). */
function endOfString(text: string, at: number): number {
  // Stryker disable next-line EqualityOperator: past the end there is no character to read
  for (let index = at + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '"') return index + 1;
  }
  return text.length;
}

/** Where the value that starts at `at` ends. */
function endOfValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return endOfString(text, at);
  if (first !== '{' && first !== '[') {
    let index = at;
    // Stryker disable next-line EqualityOperator: one past the end, the slice ends at the end all the same
    while (index < text.length && !/[,\]}\s]/.test(text.charAt(index))) index += 1;
    return index;
  }
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

/** Where the member `key` of the object opening at `at` starts, or -1. The last of duplicate keys wins, as in JSON.parse. */
function memberOf(text: string, at: number, key: string | number): number {
  let found = -1;
  let index = skipWhitespace(text, at + 1);
  for (let position = 0; index < text.length && text[index] !== '}' && text[index] !== ']'; position += 1) {
    let name: string | number = position;
    if (text[at] === '{') {
      const end = endOfString(text, index);
      try {
        name = JSON.parse(text.slice(index, end)) as string;
      } catch {
        return -1;
      }
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
