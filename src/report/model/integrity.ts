import { sha256 } from '../../hash.js';
import type { Report } from './types.js';

/** The effective configuration without secrets: what the report records of the target and the options. */
export function configurationHash(report: Pick<Report, 'target' | 'options'>): string {
  return sha256({ baseUrl: report.target.baseUrl, ...report.options });
}

/** The hash of a parsed report.json over everything but integrity.content. */
export function contentHash(report: unknown): string {
  if (report === null || typeof report !== 'object' || Array.isArray(report)) return sha256(report);
  const { integrity, ...rest } = report as Record<string, unknown>;
  if (integrity === null || typeof integrity !== 'object') return sha256(report);
  const hashes = Object.fromEntries(Object.entries(integrity).filter(([key]) => key !== 'content'));
  return sha256({ ...rest, integrity: hashes });
}

/**
 * The report with its content hash, the last thing the build adds. The hash is taken as verify takes it from
 * report.json: the canonical JSON drops undefined fields as JSON does.
 */
export function sealed(report: Report & Required<Pick<Report, 'integrity'>>): Report {
  return { ...report, integrity: { ...report.integrity, content: contentHash(report) } };
}
