import { escapeMarkup, showHidden, type Entities } from './hidden.js';

const XML_ENTITIES: Entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text for any XML file, in an element or an attribute: the markup characters escaped, and every character XML 1.0
 * cannot carry (most C0 controls, U+FFFE, U+FFFF, lone surrogates) shown as its code, so the file always parses.
 * Carriage returns are shown too: a parser would turn them into line breaks.
 */
export function escapeXml(text: string): string {
  return escapeMarkup(showHidden(text, '\n\t'), XML_ENTITIES);
}

/** XML the suite wrote itself: the only thing an xml`` template inserts as it is. */
export class Xml {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type XmlValue = Xml | string | number | readonly XmlValue[];

function insert(value: XmlValue): string {
  if (value instanceof Xml) return value.toString();
  if (!Array.isArray(value)) return escapeXml(String(value as string | number));
  // Joined by concatenation, which links the parts, not by join(), which copies them at every level of the file.
  let text = '';
  for (const item of value as readonly XmlValue[]) text += insert(item);
  return text;
}

/** The one way an XML file is written (JUnit, the badge): every interpolated value is escaped unless it is Xml the suite made. */
export function xml(strings: TemplateStringsArray, ...values: XmlValue[]): Xml {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += insert(value) + (strings[index + 1] ?? '');
  });
  return new Xml(text);
}
