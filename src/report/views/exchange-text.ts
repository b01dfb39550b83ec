import type { JudgedExchange, RecordedCheck } from '../../judge/scenario-result.js';
import { exchangeOf, type Report } from '../model/types.js';

/** The request as sent, one header a line; the Authorization value is already redacted. */
export function requestText(request: JudgedExchange['request']): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  return [`${request.method} ${request.url}`, ...headers].join('\n');
}

/** The response as received: status line, headers, a blank line, the (redacted, possibly cut) body. */
export function responseText(response: JudgedExchange['response']): string {
  const headers = Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`);
  const cut = response.bodyTruncated ? '\n[body cut here by the suite]' : '';
  return [`HTTP ${response.status}`, ...headers, '', `${response.body}${cut}`].join('\n');
}

export interface ExchangeGroup {
  /** The checks made on one request and its answer. */
  checks: RecordedCheck[];
  /** That exchange, from the report's exchanges; absent for checks made on none (a skip, an error). */
  exchange?: JudgedExchange;
}

/** Gathers checks by the key of the exchange they judged, so each request and answer is shown once. */
export function groupByExchange(report: Pick<Report, 'exchanges'>, checks: RecordedCheck[]): ExchangeGroup[] {
  const groups = new Map<string | undefined, ExchangeGroup>();
  for (const check of checks) {
    const exchange = exchangeOf(report, check);
    const key = exchange ? check.exchange : undefined;
    const group = groups.get(key);
    if (group) group.checks.push(check);
    else groups.set(key, exchange ? { checks: [check], exchange } : { checks: [check] });
  }
  return [...groups.values()];
}
