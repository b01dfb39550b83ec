import { showHidden } from './hidden.js';

/** What Markdown (GitHub's included) would act on inside a line: emphasis, code, links, images, raw HTML, entities, tables, math. */
const INLINE = /[\\`*_~[\]<>&|$]/g;

/**
 * Text inside a Markdown line (a table cell, a list item, bold): every line break (\r alone, U+2028 and U+2029
 * included) and control character shown as its code, so the text stays in its cell and starts no heading, and every
 * character Markdown would act on escaped, so it makes no link, image, HTML or emphasis.
 */
export function markdownText(text: string): string {
  return showHidden(text).replace(INLINE, '\\$&');
}

/**
 * A fenced code block holding the lines as they are: the fence is longer than any run of backticks in them, so no
 * line can close it, and each line is kept to one line.
 */
export function markdownCodeBlock(lines: readonly string[]): string[] {
  const shown = lines.map((line) => showHidden(line));
  const longestRun = Math.max(0, ...shown.flatMap((line) => (line.match(/`+/g) ?? []).map((run) => run.length)));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return [fence, ...shown, fence];
}

/** A Markdown link: its text escaped, and its destination (already a safe link) with the parentheses that would end it encoded. */
export const markdownLink = (text: string, href: string): string =>
  `[${markdownText(text)}](${href.replaceAll('(', '%28').replaceAll(')', '%29')})`;
