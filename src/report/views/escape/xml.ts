import { showHidden } from './hidden.js';

/**
 * Text for any XML file, in an element or an attribute: the markup characters escaped, and every character XML 1.0
 * cannot carry (most C0 controls, U+FFFE, U+FFFF, lone surrogates) shown as its code, so the file always parses.
 * Carriage returns are shown too: a parser would turn them into line breaks.
 */
export function escapeXml(text: string): string {
  return showHidden(text, '\n\t')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}
