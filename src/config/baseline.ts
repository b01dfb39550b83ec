import { ConfigError } from '../errors.js';
import { catalog } from '../requirements/catalog.js';
import { readDataFile } from './data-file.js';

export interface KnownFailure {
  requirement: string;
  target?: string;
  reason: string;
  owner: string;
  /** YYYY-MM-DD, inclusive, UTC. */
  expires: string;
}

export interface Baseline {
  schemaVersion: 1;
  knownFailures: KnownFailure[];
}

export interface LoadedBaseline extends Baseline {
  file: string;
}

/** Reads --baseline: valid against its schema, requirement IDs from the catalog, no entry twice. */
export function loadBaseline(path: string): LoadedBaseline {
  const baseline = readDataFile(path, 'baseline', 'baseline') as Baseline;
  const known = new Set(catalog.map((requirement) => requirement.id));
  const seen = new Set<string>();
  for (const entry of baseline.knownFailures) {
    if (!known.has(entry.requirement)) {
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
