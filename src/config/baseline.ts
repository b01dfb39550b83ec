import { fileRefusal, readCheckedFile, type FileKind } from '../files/checked-file.js';
import { checkReportVersion } from '../files/report-version.js';
import { catalog, isRequirementId } from '../requirements/catalog.js';
import { closestName } from './command-line.js';
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

const BASELINE_FILE: FileKind<Baseline> = {
  what: 'the baseline',
  code: 'CONFIG_INVALID',
  schema: 'baseline',
  yaml: true,
  prepare(data, refuse, path) {
    if (!isReport(data)) return data;
    checkReportVersion(data, path);
    throw refuse(
      'is a report.json, not a baseline',
      `Make a baseline from it: ticketing-conformance baseline --from ${path} --owner NAME --reason TEXT --expires YYYY-MM-DD`,
    );
  },
};

/** Reads --baseline: valid against its schema, requirement IDs from the catalog, no entry twice. */
export function loadBaseline(path: string): LoadedBaseline {
  const baseline = readCheckedFile(path, BASELINE_FILE);
  const refuse = fileRefusal(path, BASELINE_FILE);
  const seen = new Set<string>();
  for (const entry of baseline.knownFailures) {
    if (!isRequirementId(entry.requirement)) {
      const meant = closestName(
        entry.requirement,
        catalog.map((requirement) => requirement.id),
      );
      throw refuse(
        `names ${entry.requirement}, which is not a requirement of this suite`,
        `${meant ? `Did you mean ${meant}? ` : ''}Correct the ID (the IDs are listed in docs/requirements.md), or remove the entry`,
      );
    }
    const key = `${entry.requirement} ${entry.target ?? '*'}`;
    if (seen.has(key)) {
      throw refuse(
        `lists ${entry.requirement}${entry.target ? ` for ${entry.target}` : ''} twice`,
        'Keep one entry per requirement and target',
      );
    }
    seen.add(key);
  }
  return { ...baseline, file: path };
}
