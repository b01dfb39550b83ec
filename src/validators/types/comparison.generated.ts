// Generated from schemas/comparison.schema.json by `npm run schemas:types`; a self-test fails when it is out of date. Do not edit.

export type Verdict = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'flaky';

/**
 * comparison.json of a differential run (--compare-to): where two servers differ, per requirement verdict and per observation. Each server's own report is report.json (target) and compare-to/report.json. Holds no credentials.
 */
export interface TicketingConformanceComparison {
  schemaVersion: 1;
  target: Server;
  compareTo: Server;
  /**
   * true when a MUST requirement has a different verdict on the two servers (exit 1)
   */
  mustDiffers: boolean;
  /**
   * 2 when either server could not be judged; 1 when a MUST verdict differs; otherwise the target's own exit code
   */
  exitCode: 0 | 1 | 2;
  summary: string;
  requirements: VerdictDifference[];
  observations: ObservationDifference[];
}
export interface Server {
  baseUrl: string;
  embeddedReference: boolean;
  verdict: 'conformant' | 'not-conformant' | 'inconclusive';
  exitCode: 0 | 1 | 2;
  summary: string;
  totals: Totals;
}
export interface Totals {
  pass: number;
  fail: number;
  warn: number;
  info: number;
  skip: number;
  error: number;
  flaky: number;
}
export interface VerdictDifference {
  id: string;
  level: 'MUST' | 'SHOULD' | 'INFO' | 'CLIENT';
  title: string;
  target: Verdict;
  compareTo: Verdict;
  /**
   * what the first check that did not pass found on the target
   */
  targetDetail?: string;
  /**
   * the same on the compare-to server
   */
  compareToDetail?: string;
}
export interface ObservationDifference {
  /**
   * answer: status code and body where either side did not answer 2xx; observation: what an INFO check recorded; extra-fields: fields beyond those the document shows; content-type: the header
   */
  aspect: 'answer' | 'observation' | 'extra-fields' | 'content-type';
  /**
   * method, path and the credentials in words (never the token)
   *
   * @minItems 1
   */
  requests: string[];
  requirements: string[];
  target: string;
  compareTo: string;
}
