import { checkExchangeHeaders } from '../../files/bounded-file.js';
import { readCheckedFile, type FileKind } from '../../files/checked-file.js';
import { checkMatrixVersion, checkReportVersion } from '../../files/report-version.js';
import { REPORT_SCHEMA_VERSION } from '../../version.js';
import type { Matrix } from '../matrix/types.js';
import type { Report } from './types.js';

export type ResultFile = { kind: 'report'; report: Report } | { kind: 'matrix'; matrix: Matrix };

export interface ReadOptions {
  /**
   * Reads a version-1 report for its verdicts alone, without the exchanges its checks carried copies of: for a history
   * of past runs, which cannot be run again and need nothing else. Everything else refuses a version-1 report.
   */
  verdictsOfVersion1?: boolean;
}

type Version1Report = { schemaVersion?: unknown; requirements?: { checks?: Record<string, unknown>[] }[] };

/** A version-1 report in version 2's layout with no exchanges: each check's copy of its exchange dropped, nothing guessed. */
function withoutExchanges(data: Version1Report): unknown {
  if (data.schemaVersion !== 1 || !Array.isArray(data.requirements)) return data;
  const requirements = data.requirements.map((result) =>
    Array.isArray(result.checks)
      ? { ...result, checks: result.checks.map(({ request: _request, response: _response, repro: _repro, ...check }) => check) }
      : result,
  );
  return { ...data, schemaVersion: REPORT_SCHEMA_VERSION, requirements, exchanges: {} };
}

const isMatrix = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && 'targets' in data && Array.isArray((data as { targets: unknown }).targets);

/** A report.json or a matrix.json, told apart by their shape; what names the file the command asked for. */
function resultFile(what: string, options: ReadOptions): FileKind<Report | Matrix> {
  return {
    what: `the ${what}`,
    code: 'CONFIG_INVALID',
    yaml: true,
    schema: (data) => (isMatrix(data) ? 'matrix' : 'report'),
    prepare(data, refuse, path) {
      if (isMatrix(data)) {
        checkMatrixVersion(data, path);
        return data;
      }
      const report = options.verdictsOfVersion1 && typeof data === 'object' && data !== null ? withoutExchanges(data) : data;
      checkReportVersion(report, path);
      const exchanges = (report as { exchanges?: unknown }).exchanges;
      if (typeof exchanges === 'object' && exchanges !== null) checkExchangeHeaders(Object.values(exchanges), refuse);
      return report;
    },
  };
}

/** Reads a report.json or a matrix.json, told apart by their shape, each checked against its schema. */
export function readResultFile(path: string, what: string, options: ReadOptions = {}): ResultFile {
  const data = readCheckedFile(path, resultFile(what, options));
  return isMatrix(data) ? { kind: 'matrix', matrix: data as Matrix } : { kind: 'report', report: data as Report };
}
