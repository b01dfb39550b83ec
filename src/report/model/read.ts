import { checkAgainstSchema, checkReportVersion, parseDataFile } from '../../config/data-file.js';
import type { Matrix } from '../matrix/types.js';
import type { Report } from './types.js';

export type ResultFile = { kind: 'report'; report: Report } | { kind: 'matrix'; matrix: Matrix };

/** Reads a report.json or a matrix.json, told apart by their shape, each checked against its schema. */
export function readResultFile(path: string, what: string): ResultFile {
  const data = parseDataFile(path, what);
  const isMatrix = typeof data === 'object' && data !== null && 'targets' in data && Array.isArray((data as { targets: unknown }).targets);
  if (isMatrix) {
    checkAgainstSchema(data, 'matrix', path, 'matrix');
    return { kind: 'matrix', matrix: data as Matrix };
  }
  checkReportVersion(data, path);
  checkAgainstSchema(data, 'report', path, 'report');
  return { kind: 'report', report: data as Report };
}
