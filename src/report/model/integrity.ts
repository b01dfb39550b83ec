import { catalogHash, sha256 } from '../../hash.js';
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

/** Records the content hash; call last, once nothing in the report changes any more. */
export function sealReport(report: Report): void {
  const hashes = report.integrity ?? { catalog: catalogHash, configuration: configurationHash(report) };
  report.integrity = { catalog: hashes.catalog, configuration: hashes.configuration };
  // Hash the JSON form, as verify will read it back: undefined fields vanish there.
  report.integrity.content = contentHash(JSON.parse(JSON.stringify(report)) as unknown);
}
