import { ConfigError } from '../errors.js';
import { isRequirementId } from '../requirements/catalog.js';
import { checkAgainstSchema, checkReportVersion, parseDataFile } from './data-file.js';
import type * as BaselineFile from '../validators/types/baseline.generated.js';

export type KnownFailure = BaselineFile.KnownFailure;

export type Baseline = BaselineFile.TicketingConformanceBaseline;

export interface LoadedBaseline extends Baseline {
  file: string;
}

/** A report.json given where a baseline was asked for: told apart by the requirements it judged. */
function isReport(data: unknown): boolean {
  return typeof data === 'object' && data !== null && Array.isArray((data as { requirements?: unknown }).requirements);
}

/** Reads --baseline: valid against its schema, requirement IDs from the catalog, no entry twice. */
export function loadBaseline(path: string): LoadedBaseline {
  const data = parseDataFile(path, 'baseline');
  if (isReport(data)) {
    checkReportVersion(data, path);
    throw new ConfigError(
      'CONFIG_INVALID',
      `the baseline ${path} is a report.json, not a baseline`,
      `Make a baseline from it: ticketing-conformance baseline --from ${path} --owner NAME --reason TEXT --expires YYYY-MM-DD`,
    );
  }
  checkAgainstSchema(data, 'baseline', path, 'baseline');
  const baseline = data as Baseline;
  const seen = new Set<string>();
  for (const entry of baseline.knownFailures) {
    if (!isRequirementId(entry.requirement)) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `the baseline ${path} names ${entry.requirement}, which is not a requirement of this suite`,
        'Correct the ID (see the README table), or remove the entry',
      );
    }
    const key = `${entry.requirement} ${entry.target ?? '*'}`;
    if (seen.has(key)) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `the baseline ${path} lists ${entry.requirement}${entry.target ? ` for ${entry.target}` : ''} twice`,
        'Keep one entry per requirement and target',
      );
    }
    seen.add(key);
  }
  return { ...baseline, file: path };
}
