import { join } from 'node:path';
import type { Config } from '../config/settings.js';
import { compareReports } from '../report/comparison/compare.js';
import type { Comparison } from '../report/comparison/types.js';
import { artifactScanner } from '../report/artifacts.js';
import { writeComparison } from '../report/comparison/write.js';
import { COMPARE_DIR } from '../report/model/outputs.js';
import { runConformance, type RunHooks, type RunResult, type RunSurroundings } from './run.js';
import type { RunError } from '../errors.js';

export interface DifferentialResult {
  target: RunResult;
  compareTo: RunResult;
  comparison: Comparison;
  writtenFiles: string[];
  errors: RunError[];
}

/** Runs every scenario against the target, then against the --compare-to server, and compares the two reports. */
export async function runDifferential(
  config: Config,
  compareTo: { baseUrl: string; token: string },
  hooks: RunHooks = {},
  surroundings: RunSurroundings = { env: process.env },
): Promise<DifferentialResult> {
  // One after the other: a run owns the Vitest instance it starts.
  const tokens = [config.token, compareTo.token].filter((token): token is string => token !== undefined && token !== '');
  // Each run looks for both tokens: a front both servers share can show either one in the other's answers.
  const target = await runConformance(config, hooks, undefined, { ...surroundings, otherTokens: tokens });
  const other = await runConformance(
    { ...config, baseUrl: compareTo.baseUrl, token: compareTo.token, out: join(config.out, COMPARE_DIR) },
    {},
    undefined,
    { ...surroundings, otherTokens: tokens },
  );
  const comparison = compareReports(target.report, other.report);
  const { written, errors } = await writeComparison(comparison, config.out, artifactScanner(tokens));
  return { target, compareTo: other, comparison, writtenFiles: [...target.writtenFiles, ...written], errors };
}
