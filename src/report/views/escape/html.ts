import { createHash } from 'node:crypto';
import { escapeMarkup, showHidden, type Entities } from './hidden.js';
import { safeLink } from './link.js';

/** Markup the suite wrote itself: the only thing a markup`` template inserts as it is. */
export class Html {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const HTML_ENTITIES: Entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for a page, in an element or a quoted attribute: markup escaped, hidden characters shown as codes. */
export function escapeHtml(text: string): string {
  return escapeMarkup(showHidden(text, '\n\r\t'), HTML_ENTITIES);
}

/** An attribute that makes the browser follow or fetch a URL, right before the interpolated value. */
const URL_ATTRIBUTE = /\s(?:href|src|srcset|action|formaction|poster|cite|data|xlink:href)\s*=\s*["']?$/i;

function insert(value: HtmlValue, linkAttribute: boolean): string {
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) {
    // Joined by concatenation, which links the parts, not by join(), which copies them at every level of the page.
    let text = '';
    for (const item of value as readonly HtmlValue[]) text += insert(item, linkAttribute);
    return text;
  }
  if (value === null || value === undefined || value === false || value === true) return '';
  const text = String(value as string | number);
  // A link to anything but a relative path or http(s) (javascript:, data:) is dropped, whatever put it there.
  return escapeHtml(linkAttribute ? (safeLink(text) ?? '#') : text);
}

/**
 * The one way a page is written: every interpolated value is escaped unless it is Html the suite made, so a missed
 * escape cannot happen; a value in a URL attribute must also be a relative or http(s) link.
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  const links = linkAttributes(strings);
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += insert(value, links[index] ?? false) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}

/** Which values of a template go into a URL attribute, found once for each template of the code (its strings are one object). */
const LINK_ATTRIBUTES = new WeakMap<TemplateStringsArray, boolean[]>();
function linkAttributes(strings: TemplateStringsArray): boolean[] {
  let links = LINK_ATTRIBUTES.get(strings);
  if (!links) {
    links = strings.slice(0, -1).map((before) => URL_ATTRIBUTE.test(before));
    LINK_ATTRIBUTES.set(strings, links);
  }
  return links;
}

/** The page's own style, script or policy, written by the suite: inserted as it is. */
const trusted = (text: string): Html => new Html(text);

const cspHash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The policy of every page: only its own style and script run, nothing is fetched, no form is sent, no base is set.
 * Even text that slipped past escaping could neither execute nor call out.
 */
export function contentSecurityPolicy(style: string, script?: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspHash(style)}`,
    `script-src ${script === undefined ? "'none'" : cspHash(script)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export interface Page {
  title: string;
  style: string;
  script?: string;
  body: Html;
}

/** A self-contained page: the same head and Content-Security-Policy for every HTML file the suite writes. */
export function htmlPage({ title, style, script, body }: Page): string {
  const page = markup`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${trusted(contentSecurityPolicy(style, script))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${trusted(style)}</style>
</head>
<body>
${body}
${script === undefined ? '' : markup`<script>${trusted(script)}</script>`}
</body>
</html>
`;
  return page.toString();
}
