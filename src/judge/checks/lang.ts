import type { Exchange } from '../../exchange/exchange.js';
import { alikeAsSent, canonicalJson } from '../../hash.js';
import { describeResponse, outcome, show, type CheckOutcome } from './outcome.js';
import { dataOf, isObject } from '../../exchange/json-body.js';

/** Fields a translation entry cannot carry, so lang must leave them as they are. */
const UNTRANSLATED_FIELDS = ['id', 'colour', 'auto_close', 'order', 'created_at', 'updated_at'] as const;
/** The documented fields of a translation entry: fields the document does not name are no change of it. */
const TRANSLATION_FIELDS = ['status_id', 'name', 'locale'] as const;

/** Each entry with its documented fields alone; one it lacks is undefined, which canonical JSON leaves out as JSON does. */
function documented(translations: unknown[]): unknown[] {
  return translations.map((entry) =>
    isObject(entry) ? Object.fromEntries(TRANSLATION_FIELDS.map((field) => [field, entry[field]])) : entry,
  );
}

/**
 * The same entries in any order: the document gives the list no order. Lists alike as sent are the same list, as an
 * unchanged list is; only lists that differ as sent are compared entry by entry, in canonical form.
 */
function sameEntries(after: unknown[], before: unknown[]): boolean {
  return alikeAsSent(after, before) || canonicalJson(after, { unordered: true }) === canonicalJson(before, { unordered: true });
}

export function translationsUnchanged(plain: Exchange, asked: Exchange, description: string): CheckOutcome {
  const before = dataOf(plain)?.translations;
  const after = dataOf(asked)?.translations;
  // Without a list to compare with (see STATUS-TRANSLATIONS), only the presence of one can be judged.
  const comparable = Array.isArray(before);
  const expected = comparable
    ? `translations: the same entries as without lang (status_id, name, locale), ${show(before)}`
    : 'translations: an array';
  if (!dataOf(asked)) return outcome(false, description, expected, `no data object: ${describeResponse(asked)}`);
  const ok = Array.isArray(after) && (!comparable || sameEntries(documented(after), documented(before)));
  return outcome(ok, description, expected, `translations: ${show(after)}`);
}

export function untranslatedFieldsUnchanged(plain: Exchange, asked: Exchange, description: string): CheckOutcome {
  const before = dataOf(plain) ?? {};
  const after = dataOf(asked);
  const expected = UNTRANSLATED_FIELDS.map((field) => `${field}: ${show(before[field])}`).join(', ');
  if (!after) return outcome(false, description, expected, `no data object: ${describeResponse(asked)}`);
  // A field that came or went is changed, as is one whose JSON differs.
  const changed = UNTRANSLATED_FIELDS.filter(
    (field) => field in after !== field in before || canonicalJson(after[field]) !== canonicalJson(before[field]),
  );
  const actual = changed.length === 0 ? 'all unchanged' : changed.map((field) => `${field}: ${show(after[field])}`).join(', ');
  return outcome(changed.length === 0, description, expected, actual);
}
