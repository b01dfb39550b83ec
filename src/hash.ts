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
 * unit, not by a locale's collation, which may tie distinct keys and pages in the ICU data.
 */
export function canonicalJson(value: unknown, options: CanonicalOptions = {}): string {
  if (Array.isArray(value)) {
    const entries = value.map((item) => canonicalJson(item ?? null, options));
    if (options.unordered) entries.sort();
    return `[${entries.join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item, options)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sha256(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

export const catalogHash: string = sha256(catalog);
