/**
 * Characters that can hide, move or reorder text on a screen or in a page: C0 and C1 controls (escape sequences,
 * carriage return, bell), DEL, bidirectional marks, overrides and isolates, line and paragraph separators, the
 * noncharacters U+FFFE and U+FFFF, and lone surrogates. No view shows one as it came.
 */
const HIDDEN =
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

type Kept = '' | '\n\t' | '\n\r\t';

/**
 * For each set of characters a format keeps: one class of every character that may need showing (any surrogate, paired
 * or not), so that most texts, which hold none, are read once and returned as they came.
 */
const MAY_HOLD_HIDDEN: Record<Kept, RegExp> = Object.fromEntries(
  (['', '\n\t', '\n\r\t'] as const).map((keep) => {
    const controls = Array.from({ length: 0x20 }, (_, unit) => String.fromCharCode(unit)).filter((char) => !keep.includes(char));
    const units = controls.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    return [
      keep,
      new RegExp(`[${units}\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uFFFE\\uFFFF\\uD800-\\uDFFF]`),
    ];
  }),
) as Record<Kept, RegExp>;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The code of a hidden character, as text anyone can read: \n, \r, \t, or \u{001b}. */
const code = (char: string): string => NAMED[char] ?? `\\u{${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}}`;

/**
 * Shows every hidden character as its code; `keep` lists those a format lays out itself (a page keeps the line breaks
 * of a body; a terminal line keeps none). The one character policy under every view's escaper.
 */
export function showHidden(text: string, keep: Kept = ''): string {
  if (!MAY_HOLD_HIDDEN[keep].test(text)) return text;
  return text.replace(HIDDEN, (char) => (keep.includes(char) ? char : code(char)));
}

/** How a format writes each markup character. */
export type Entities = Readonly<Record<'&' | '<' | '>' | '"' | "'", string>>;

/** Each markup character's entity, by its code: the others have none. */
function entityOf(code: number, entities: Entities): string | undefined {
  switch (code) {
    case 0x26:
      return entities['&'];
    case 0x3c:
      return entities['<'];
    case 0x3e:
      return entities['>'];
    case 0x22:
      return entities['"'];
    case 0x27:
      return entities["'"];
    default:
      return undefined;
  }
}

/**
 * The text with each markup character written as its entity, in one pass that copies the runs between them (a text
 * holding none is returned as it came): a report's answers are JSON, full of quotes, and a replace() calling back for
 * each took about twice as long.
 */
export function escapeMarkup(text: string, entities: Entities): string {
  let escaped = '';
  let copiedTo = 0;
  for (let index = 0; index < text.length; index += 1) {
    const entity = entityOf(text.charCodeAt(index), entities);
    if (entity === undefined) continue;
    escaped += text.slice(copiedTo, index) + entity;
    copiedTo = index + 1;
  }
  return copiedTo === 0 ? text : escaped + text.slice(copiedTo);
}
