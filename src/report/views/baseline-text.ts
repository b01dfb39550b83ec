import type { Report } from '../model/types.js';
import { BASELINE_LABELS } from './vocabulary.js';

/** One line per baseline entry: outcome, requirement, what to do; empty without a baseline. */
export function baselineLines(report: Pick<Report, 'baseline'>): string[] {
  if (!report.baseline) return [];
  const entries = report.baseline.entries;
  if (entries.length === 0) return [`Baseline ${report.baseline.file}: no entry applies to this target`];
  return [
    `Baseline ${report.baseline.file}:`,
    ...entries.map(
      (entry) =>
        `  ${BASELINE_LABELS[entry.outcome].padEnd(8)} ${entry.requirement}: ${entry.note}; reason: ${entry.reason} (owner ${entry.owner})`,
    ),
  ];
}
