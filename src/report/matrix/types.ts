import type { Requirement } from '../../requirements/types.js';
import type { ExitCode, RunVerdict, Verdict } from '../model/types.js';
import type { RunError } from '../../errors.js';

/** One target's line of the matrix: its verdict per requirement, and where its own reports are. */
export interface MatrixTarget {
  name: string;
  /** Index of the target in the targets file, so merged shards keep the file's order. */
  position: number;
  baseUrl: string;
  verdict: RunVerdict;
  exitCode: ExitCode;
  summary: string;
  totals: Record<Verdict, number>;
  requests: number;
  durationMs: number;
  /** Folder of the target's own reports, relative to the folder of matrix.json, with forward slashes. */
  reportDir: string;
  verdicts: Record<string, Verdict>;
  /** Known failures of the baseline that applied to this target, by outcome. */
  baseline?: { known: number; expired: number; fixed: number };
}

/** matrix.json: targets by requirements. Markdown and HTML views render from it; the merge command combines shards of it. */
export interface Matrix {
  schemaVersion: 1;
  suite: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  targetConcurrency: number;
  /** Set when this matrix is one shard of a targets file. */
  shard?: { index: number; count: number; targetsInFile: number };
  /** Set when this matrix was merged from that many shards. */
  mergedShards?: number;
  exitCode: ExitCode;
  summary: string;
  totals: { targets: number; conformant: number; notConformant: number; inconclusive: number };
  requirements: Pick<Requirement, 'id' | 'level' | 'family' | 'title'>[];
  targets: MatrixTarget[];
  errors: RunError[];
}
