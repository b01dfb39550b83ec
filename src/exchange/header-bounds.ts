/** What the client reads of an answer's headers: the HTTP parser's bound on their bytes, names and values together. */
export const MAX_HEADER_BYTES = 64 * 1024;

/** Header names one answer may carry: far more than any API answer sends, few enough that none costs the judge. */
export const MAX_HEADER_COUNT = 256;

/** Characters of one header name: real names are a few dozen. */
export const MAX_HEADER_NAME_CHARS = 256;

/**
 * Characters of an answer's headers as a file holds them, names and values together: the parser's bound with room for
 * the placeholders that replace a secret (ten characters for a token of four) and the commas that join repeats.
 */
export const MAX_HEADER_CHARS = 3 * MAX_HEADER_BYTES;

/**
 * Why an answer's headers are past the suite's bounds (said after "the headers"), or undefined when they are within
 * them. The client refuses such an answer, so no file a run writes holds one.
 */
export function headersBeyondBounds(headers: Record<string, unknown>): string | undefined {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADER_COUNT) return `are more than ${MAX_HEADER_COUNT} headers, the most the suite reads of one answer`;
  let chars = 0;
  for (const name of names) {
    if (name.length > MAX_HEADER_NAME_CHARS) return `have a name longer than ${MAX_HEADER_NAME_CHARS} characters, the most the suite reads`;
    const value = headers[name];
    chars += name.length + (typeof value === 'string' ? value.length : 0);
    if (chars > MAX_HEADER_CHARS) return `are longer than ${MAX_HEADER_CHARS} characters together, the most the suite reads of one answer`;
  }
  return undefined;
}
