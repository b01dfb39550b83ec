// Generated from schemas/matrix.schema.json by `npm run schemas:types`; a self-test fails when it is out of date. Do not edit.

export type Verdict = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error';

/**
 * matrix.json: the verdict of every requirement for every target of a --targets run (or of one shard, or of merged shards), and each target's requirements by outcome, as its exit code counts them (--strict, the baseline). matrix.md and matrix.html render from it. Holds no credentials.
 */
export interface TicketingConformanceMatrix {
  /**
   * version 1 had no outcomes
   */
  schemaVersion: 2;
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
   * 2 if the matrix met an error of its own; else 1 if a target is not conformant; else 2 if a target could not be judged; else 0
   */
  exitCode: 0 | 1 | 2;
  summary: string;
  totals: {
    targets: number;
    conformant: number;
    notConformant: number;
    inconclusive: number;
    outcomes: Outcomes;
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
/**
 * the outcomes of every target summed: the matrix's counts line
 */
export interface Outcomes {
  passed: number;
  failed: number;
  warned: number;
  waived: number;
  skipped: number;
  observed: number;
  unjudged: number;
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
  outcomes: Outcomes1;
  /**
   * judged with --strict: a SHOULD or CLIENT not met fails the target
   */
  strict: boolean;
  /**
   * the requirements whose failure the baseline waives for this target: known failures before their expiry
   */
  waived: string[];
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
/**
 * the target's requirements by verdict
 */
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
 * the target's requirements by outcome: what its exit code and every view count
 */
export interface Outcomes1 {
  passed: number;
  failed: number;
  warned: number;
  waived: number;
  skipped: number;
  observed: number;
  unjudged: number;
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
