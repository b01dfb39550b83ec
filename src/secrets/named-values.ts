import { isCredentialName, REDACTED, redactedCredential } from '../exchange/credential-fields.js';

const BACKSLASH = 0x5c;

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
export function redactNamedValues(text: string): string {
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
