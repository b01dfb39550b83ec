import { HarnessError } from '../errors.js';
import { REPORT_SCHEMA_VERSION, suiteVersion } from '../version.js';

/**
 * Refuses a report.json of another layout in one line, with the way to one this suite reads. A version-1 report holds
 * a copy of its exchange in every check, where this one names each by key: reading it would be guesswork.
 */
export function checkReportVersion(data: unknown, path: string): void {
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  // Without a version it is not a report at all, which the caller's own check says better.
  if (version === undefined || version === REPORT_SCHEMA_VERSION) return;
  const newer = typeof version === 'number' && version > REPORT_SCHEMA_VERSION;
  throw new HarnessError(
    'HARNESS_REPORT_UNREADABLE',
    `${path} is a report.json of schema version ${JSON.stringify(version)}, which this suite (${suiteVersion}) does not read: it reads version ${REPORT_SCHEMA_VERSION}`,
    newer
      ? 'Read it with the suite that wrote it, or a later one'
      : 'Re-run with this version, or judge its recording.json again with `ticketing-conformance judge`',
    'environment',
  );
}
