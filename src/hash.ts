import { createHash } from 'node:crypto';
import { catalog } from './requirements/catalog.js';

export interface CanonicalOptions {
  /**
   * Arrays as sets: their entries in the order of their own canonical text, so two values that differ only in the
   * order of array entries share one text. For comparisons where the order means nothing; never for a hash.
   */
  unordered?: boolean;
}

/**
 * The one canonical JSON of the suite (RFC 8785 for the values it holds: JSON's own strings and numbers, object keys
 * ordered by UTF-16 code unit, no whitespace), so a hash or a comparison does not depend on layout. Fields whose value
 * is undefined are left out, as JSON leaves them out; an undefined entry of an array is null. Keys are ordered by code
 * unit (sort's own order for strings), not by a locale's collation, which may tie distinct keys and pages in the ICU
 * data. Every report is serialised with it: a copy with its keys in that order, written by JSON.stringify, takes half
 * the time of building the text here, except where an object has a key a copy cannot keep in that order.
 */
export function canonicalJson(value: unknown, options: CanonicalOptions = {}): string {
  if (!options.unordered) {
    const ordered = orderedCopy(value);
    if (ordered !== UNORDERED) return JSON.stringify(ordered) ?? 'null';
  }
  return canonicalText(value, options);
}

/**
 * Said by orderedCopy of a value holding a key a plain object does not keep in the order it is set: one JavaScript
 * orders as a number, before the others, or __proto__, which sets the copy's prototype.
 */
const UNORDERED = Symbol('a key a copy cannot order');
const NUMBER_KEY = /^\d+$/;
const isUnorderedKey = (key: string): boolean => {
  const first = key.charCodeAt(0);
  return key === '__proto__' || (first >= 0x30 && first <= 0x39 && NUMBER_KEY.test(key));
};

/** Sorted by insertion up to this many keys: fewer comparisons than sort's own, which costs a report more than its copy. */
const FEW_KEYS = 32;

/** The keys in code-unit order, sort's own (a string's < compares code units too), sorted in place. */
function inCodeUnitOrder(keys: string[]): string[] {
  if (keys.length > FEW_KEYS) return keys.sort();
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index] as string;
    let at = index;
    for (; at > 0 && (keys[at - 1] as string) > key; at -= 1) keys[at] = keys[at - 1] as string;
    keys[at] = key;
  }
  return keys;
}

/** The value with each object's keys set in code-unit order, which JSON.stringify keeps; undefined entries of arrays null. */
function orderedCopy(value: unknown): unknown {
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const item = orderedCopy(value[index] ?? null);
      if (item === UNORDERED) return UNORDERED;
      copy[index] = item;
    }
    return copy;
  }
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of inCodeUnitOrder(Object.keys(value))) {
      if (isUnorderedKey(key)) return UNORDERED;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      const ordered = orderedCopy(item);
      if (ordered === UNORDERED) return UNORDERED;
      copy[key] = ordered;
    }
    return copy;
  }
  return value;
}

/** The canonical JSON built as one string, with no array of entries per object: for what orderedCopy cannot order. */
function canonicalText(value: unknown, options: CanonicalOptions): string {
  if (Array.isArray(value)) {
    if (options.unordered)
      return `[${value
        .map((item) => canonicalText(item ?? null, options))
        .sort()
        .join(',')}]`;
    let text = '[';
    for (let index = 0; index < value.length; index += 1)
      text += `${index === 0 ? '' : ','}${canonicalText(value[index] ?? null, options)}`;
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    let text = '{';
    for (const key of inCodeUnitOrder(Object.keys(value))) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalText(item, options)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A plain object: what JSON makes of `{...}`. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Two JSON values alike key for key and entry for entry, in order: then their canonical texts are alike too, so a
 * comparison learns it without making either text. Values alike otherwise (keys or entries in another order) say false.
 */
export function alikeAsSent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!alikeAsSent(a[index], b[index])) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (key !== others[index] || !alikeAsSent(a[key], b[key])) return false;
  }
  return true;
}

export function sha256(value: unknown): string {
  return textSha256(canonicalJson(value));
}

/**
 * The hash of a text already canonical, so a text written is not serialised again to be hashed; given in pieces (text
 * or its UTF-8), the hash of the pieces joined, without the joined text made.
 */
export function textSha256(text: string | readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const piece of typeof text === 'string' ? [text] : text) hash.update(piece);
  return `sha256:${hash.digest('hex')}`;
}

export const catalogHash: string = sha256(catalog);
