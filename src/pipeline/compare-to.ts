import { join } from 'node:path';
import type { Config } from '../config/settings.js';
import { compareReports } from '../report/comparison/compare.js';
import type { Comparison } from '../report/comparison/types.js';
import { artifactScanner } from '../files/artifacts.js';
import { writeComparison } from '../report/write.js';
import { COMPARE_DIR } from '../report/model/outputs.js';
import { runConformance, type RunHooks, type RunResult, type RunSurroundings } from './run.js';
import type { RunError } from '../errors.js';
import { judgeFor, judgeTimeoutMs } from './pipeline.js';

export interface CompareToResult {
  target: RunResult;
  compareTo: RunResult;
  comparison: Comparison;
  writtenFiles: string[];
  errors: RunError[];
}

/**
 * Runs every scenario against the target and against the --compare-to server at once, their recordings judged by one
 * judge, and compares the two reports.
 */
export async function runCompareTo(
  config: Config,
  compareTo: { baseUrl: string; token: string },
  hooks: RunHooks = {},
  surroundings: RunSurroundings = { env: process.env },
): Promise<CompareToResult> {
  const tokens = [config.token, compareTo.token].filter((token): token is string => token !== undefined && token !== '');
  const { judge, own } = judgeFor(surroundings.judge, { timeoutMs: judgeTimeoutMs([{ options: config }]) });
  // Each run looks for both tokens: a front both servers share can show either one in the other's answers.
  const shared = { ...surroundings, judge, otherTokens: tokens };
  try {
    const [target, other] = await Promise.all([
      runConformance(config, hooks, undefined, shared),
      runConformance(
        { ...config, baseUrl: compareTo.baseUrl, token: compareTo.token, out: join(config.out, COMPARE_DIR) },
        {},
        undefined,
        shared,
      ),
    ]);
    const comparison = compareReports(target.report, other.report);
    const { written, errors } = await writeComparison(comparison, config.out, artifactScanner(tokens));
    return { target, compareTo: other, comparison, writtenFiles: [...target.writtenFiles, ...written], errors };
  } finally {
    await own?.close();
  }
}
