import { ConfigError } from '../errors.js';

/**
 * The reports a run can write, as --reports names them (Newman's -r, Schemathesis' --report). report.json is always
 * written: the exit code, verify, compare, baseline and judging again all read it.
 */
export const REPORT_KINDS = ['json', 'junit', 'html', 'md', 'ctrf', 'allure', 'badge', 'recording'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

const isReportKind = (name: string): name is ReportKind => (REPORT_KINDS as readonly string[]).includes(name);

/** The kinds of a comma-separated --reports value, json among them; every kind when none is given. */
export function reportKinds(raw: string | undefined): ReportKind[] {
  if (raw === undefined) return [...REPORT_KINDS];
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((name) => !isReportKind(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError(
      'CONFIG_INVALID',
      names.length === 0 ? '--reports names no report' : `--reports names ${unknown.map((name) => `"${name}"`).join(', ')}, not a report`,
      `Pass a comma-separated list of ${REPORT_KINDS.join(', ')} (report.json is always written)`,
    );
  }
  return REPORT_KINDS.filter((kind) => kind === 'json' || names.includes(kind));
}
