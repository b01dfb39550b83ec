import { checkAgainstSchema, checkReportVersion, parseDataFile } from '../../config/data-file.js';
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

/** Reads a report.json or a matrix.json, told apart by their shape, each checked against its schema. */
export function readResultFile(path: string, what: string, options: ReadOptions = {}): ResultFile {
  const data = parseDataFile(path, what);
  const isMatrix = typeof data === 'object' && data !== null && 'targets' in data && Array.isArray((data as { targets: unknown }).targets);
  if (isMatrix) {
    checkAgainstSchema(data, 'matrix', path, 'matrix');
    return { kind: 'matrix', matrix: data as Matrix };
  }
  const report = options.verdictsOfVersion1 && typeof data === 'object' && data !== null ? withoutExchanges(data) : data;
  checkReportVersion(report, path);
  checkAgainstSchema(report, 'report', path, 'report');
  return { kind: 'report', report: report as Report };
}
