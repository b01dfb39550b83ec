import { HarnessError } from '../errors.js';
import { MATRIX_SCHEMA_VERSION, REPORT_SCHEMA_VERSION, suiteVersion } from '../version.js';

interface Layout {
  file: string;
  version: number;
  /** The way to a file of this version, from one of an older version. */
  fromOlder: string;
  fromNewer: string;
}

/** Refuses a file of another layout in one line, with the way to one this suite reads. */
function checkVersion(data: unknown, path: string, layout: Layout): void {
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  // Without a version it is not such a file at all, which the caller's own check says better.
  if (version === undefined || version === layout.version) return;
  const newer = typeof version === 'number' && version > layout.version;
  throw new HarnessError(
    'HARNESS_REPORT_UNREADABLE',
    `${path} is a ${layout.file} of schema version ${JSON.stringify(version)}, which this suite (${suiteVersion}) does not read: it reads version ${layout.version}`,
    newer ? layout.fromNewer : layout.fromOlder,
    'environment',
  );
}

/**
 * A version-1 report holds a copy of its exchange in every check, where this one names each by key: reading it would
 * be guesswork.
 */
export function checkReportVersion(data: unknown, path: string): void {
  checkVersion(data, path, {
    file: 'report.json',
    version: REPORT_SCHEMA_VERSION,
    fromOlder: 'Re-run with this version, or judge its recording.json again with `ticketing-conformance judge`',
    fromNewer: 'Read it with the suite that wrote it, or a later one',
  });
}

/**
 * A version-1 matrix has each target's verdicts but not what they were to its exit code (--strict, the baseline's
 * waivers), which every view of a matrix counts by: reading it would be guesswork.
 */
export function checkMatrixVersion(data: unknown, path: string): void {
  checkVersion(data, path, {
    file: 'matrix.json',
    version: MATRIX_SCHEMA_VERSION,
    fromOlder: 'Run the targets again with this version (every shard, to merge them)',
    fromNewer: 'Read it with the suite that wrote it, or a later one',
  });
}
