import type { Exchange } from '../../exchange/exchange.js';
import { schemaDescription, validator, type SchemaName, type Validator } from '../../validators/schemas.js';

/** What one check found: the words of an h2spec failure, before the request is attached. */
export interface CheckOutcome {
  ok: boolean;
  description: string;
  expected: string;
  actual: string;
  /**
   * Judged from the text kept although the body is nested deeper than the suite parses: the suite's depth cap is the
   * official PHP client's own limit, so for that client such a body is a failure, not a body beyond reach.
   */
  beyondDepthCap?: true;
  /** A check that credentials were refused: it passes on any answer that hands nothing out. */
  refusal?: true;
}

const SHOWN_CHARS = 300;

export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/**
 * The language a request asked for with ?lang=, or null: read from the query of its path (its URL's own), parsed only
 * when there is one, as most requests have none.
 */
export function askedLang(exchange: Exchange): string | null {
  const { path } = exchange.request;
  const query = path.indexOf('?');
  return query < 0 ? null : new URLSearchParams(path.slice(query + 1)).get('lang');
}

export function describeResponse(exchange: Exchange): string {
  const { status, headers, bodyText } = exchange.response;
  const type = headers['content-type'] ?? 'no Content-Type';
  const body = bodyText.length > SHOWN_CHARS ? `${bodyText.slice(0, SHOWN_CHARS)}…` : bodyText;
  return `HTTP ${status} (${type}) ${body || '<empty body>'}`;
}

export function outcome(ok: boolean, description: string, expected: string, actual: string): CheckOutcome {
  return { ok, description, expected, actual };
}

/** What a check of one documented field expects, and the validator it judges the field's value with. */
export interface FieldRule {
  expected: string;
  validate: Validator;
}

/**
 * The rule of each field of a schema, made once a field: every answer's field is judged by the same words and the same
 * validator. `pointer` names the field's place in the schema, `shownAs` the field in the Expected line.
 */
export function fieldRules<F extends string>(
  schema: SchemaName,
  pointer: (field: F) => string,
  shownAs: (field: F) => string,
): (field: F) => FieldRule {
  const made = new Map<F, FieldRule>();
  return (field) => {
    let rule = made.get(field);
    if (!rule) {
      rule = { expected: `${shownAs(field)}: ${schemaDescription(schema, pointer(field))}`, validate: validator(schema, pointer(field)) };
      made.set(field, rule);
    }
    return rule;
  };
}
