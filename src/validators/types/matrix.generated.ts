// Generated from schemas/matrix.schema.json by `npm run schemas:types`; a self-test fails when it is out of date. Do not edit.

export type Verdict = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error';

/**
 * matrix.json: the verdict of every requirement for every target of a --targets run (or of one shard, or of merged shards). matrix.md and matrix.html render from it. Holds no credentials.
 */
export interface TicketingConformanceMatrix {
  schemaVersion: 1;
  suite: {
    name: string;
    version: string;
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  targetConcurrency: number;
  /**
   * set when this matrix is shard index of count of a targets file
   */
  shard?: {
    index: number;
    count: number;
    targetsInFile: number;
  };
  /**
   * set when this matrix was merged from that many shards
   */
  mergedShards?: number;
  /**
   * the worst exit code of the targets: 2 over 1 over 0
   */
  exitCode: 0 | 1 | 2;
  summary: string;
  totals: {
    targets: number;
    conformant: number;
    notConformant: number;
    inconclusive: number;
  };
  requirements: {
    id: string;
    level: 'MUST' | 'SHOULD' | 'INFO' | 'CLIENT';
    family: 'envelope' | 'status' | 'lang' | 'auth' | 'selfservice' | 'official-client';
    title: string;
  }[];
  targets: Target[];
  errors: RunError[];
}
export interface Target {
  name: string;
  /**
   * index of the target in the targets file
   */
  position: number;
  baseUrl: string;
  verdict: 'conformant' | 'not-conformant' | 'inconclusive';
  exitCode: 0 | 1 | 2;
  summary: string;
  totals: Totals;
  requests: number;
  durationMs: number;
  /**
   * folder of the target's own reports, relative to matrix.json
   */
  reportDir: string;
  verdicts: {
    [k: string]: Verdict;
  };
  baseline?: {
    known: number;
    expired: number;
    fixed: number;
  };
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
/**
 * an error of the run: the suite could not judge (configuration, network or its own fault)
 */
export interface RunError {
  code: string;
  message: string;
  hint: string;
  party: 'target' | 'environment' | 'suite';
}
