import type { RecordedCheck } from '../../judge/scenario-result.js';

type RecordedRequest = NonNullable<RecordedCheck['request']>;
type RecordedResponse = NonNullable<RecordedCheck['response']>;

/** The request as sent, one header a line; the Authorization value is already redacted. */
export function requestText(request: RecordedRequest): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  return [`${request.method} ${request.url}`, ...headers].join('\n');
}

/** The response as received: status line, headers, a blank line, the (redacted, possibly cut) body. */
export function responseText(response: RecordedResponse): string {
  const headers = Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`);
  const cut = response.bodyTruncated ? '\n[body cut here by the suite]' : '';
  return [`HTTP ${response.status}`, ...headers, '', `${response.body}${cut}`].join('\n');
}

export interface ExchangeGroup {
  /** The checks made on one request and its answer; request, response and repro are those of the first. */
  checks: RecordedCheck[];
  request?: RecordedRequest;
  response?: RecordedResponse;
  repro?: string;
}

/** Gathers checks by the exchange they judged, so each request and answer is shown once. */
export function groupByExchange(checks: RecordedCheck[]): ExchangeGroup[] {
  const groups = new Map<string, ExchangeGroup>();
  for (const check of checks) {
    const key = check.request ? `${check.repro ?? ''}\n${requestText(check.request)}` : 'no exchange';
    const group = groups.get(key);
    if (group) group.checks.push(check);
    else groups.set(key, { checks: [check], request: check.request, response: check.response, repro: check.repro });
  }
  return [...groups.values()];
}
