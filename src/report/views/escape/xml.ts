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

/** XML the suite wrote itself: the only thing an xml`` template inserts as it is. */
export class Xml {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type XmlValue = Xml | string | number | readonly XmlValue[];

const insert = (value: XmlValue): string =>
  value instanceof Xml ? value.toString() : Array.isArray(value) ? value.map(insert).join('') : escapeXml(String(value as string | number));

/** The one way an XML file is written (JUnit, the badge): every interpolated value is escaped unless it is Xml the suite made. */
export function xml(strings: TemplateStringsArray, ...values: XmlValue[]): Xml {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += insert(value) + (strings[index + 1] ?? '');
  });
  return new Xml(text);
}
