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
 * data. Built as one string, with no array of entries per object: every report is hashed with it.
 */
export function canonicalJson(value: unknown, options: CanonicalOptions = {}): string {
  if (Array.isArray(value)) {
    if (options.unordered)
      return `[${value
        .map((item) => canonicalJson(item ?? null, options))
        .sort()
        .join(',')}]`;
    let text = '[';
    for (let index = 0; index < value.length; index += 1)
      text += `${index === 0 ? '' : ','}${canonicalJson(value[index] ?? null, options)}`;
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    let text = '{';
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item, options)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sha256(value: unknown): string {
  return textSha256(canonicalJson(value));
}

/** The hash of a text already canonical, so a text written is not serialised again to be hashed. */
export function textSha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

export const catalogHash: string = sha256(catalog);
