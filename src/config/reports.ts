import { ConfigError } from '../errors.js';
import type { Parser } from './values.js';

/**
 * The reports a run can write, as --reports names them (Newman's -r, Schemathesis' --report). report.json is always
 * written: the exit code, verify, compare, baseline and judging again all read it.
 */
export const REPORT_KINDS = ['json', 'junit', 'html', 'md', 'ctrf', 'allure', 'badge', 'recording'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

const isReportKind = (name: string): name is ReportKind => (REPORT_KINDS as readonly string[]).includes(name);

/** The first few of some names, quoted, and how many more: a list pasted by mistake may hold thousands. */
const namedFew = (names: string[]): string =>
  `${names
    .slice(0, 3)
    .map((kind) => `"${kind}"`)
    .join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;

/** The kinds of a comma-separated --reports value, json among them. */
export const reportKinds: Parser<readonly ReportKind[]> = (raw, { name }) => {
  const names = raw
    .split(',')
    .map((kind) => kind.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((kind) => !isReportKind(kind));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError(
      'CONFIG_INVALID',
      names.length === 0 ? `${name} names no report` : `${name} names ${namedFew(unknown)}, not a report`,
      `Pass a comma-separated list of ${REPORT_KINDS.join(', ')} (report.json is always written)`,
    );
  }
  return REPORT_KINDS.filter((kind) => kind === 'json' || names.includes(kind));
};
