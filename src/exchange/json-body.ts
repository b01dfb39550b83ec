import type { Exchange } from './exchange.js';

/** One entry of a status' translations, as the document shows it; the checks judge each field's type. */
export interface Translation {
  status_id: unknown;
  name: unknown;
  locale: unknown;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed JSON body (the envelope found inside other text, when PHP printed notices around it), or undefined. */
export function jsonBody(exchange: Exchange): unknown {
  const { json } = exchange.response;
  return json.ok ? json.value : json.embedded?.value;
}

/** The `data` object of a JSON envelope, or undefined when the body has none. */
export function dataOf(exchange: Exchange): Record<string, unknown> | undefined {
  const body = jsonBody(exchange);
  return isObject(body) && isObject(body.data) ? body.data : undefined;
}

/** The translations a status answer lists: the entries that are objects, or undefined when there is no list. */
export function translationsOf(exchange: Exchange): Translation[] | undefined {
  const translations = dataOf(exchange)?.translations;
  return Array.isArray(translations) ? translations.filter(isObject).map((entry) => entry as unknown as Translation) : undefined;
}
