import type { Exchange } from '../../exchange/exchange.js';

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

export function describeResponse(exchange: Exchange): string {
  const { status, headers, bodyText } = exchange.response;
  const type = headers['content-type'] ?? 'no Content-Type';
  const body = bodyText.length > SHOWN_CHARS ? `${bodyText.slice(0, SHOWN_CHARS)}…` : bodyText;
  return `HTTP ${status} (${type}) ${body || '<empty body>'}`;
}

export function outcome(ok: boolean, description: string, expected: string, actual: string): CheckOutcome {
  return { ok, description, expected, actual };
}
