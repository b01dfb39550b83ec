import { terminalLine, terminalLines } from '../views/escape/terminal.js';
import { outcomeCountsLine } from '../views/failure-text.js';
import type { Matrix, MatrixTarget } from './types.js';

export function progressLine(row: MatrixTarget, done: number, total: number): string {
  const waived = row.outcomes.waived > 0 ? `; ${row.outcomes.waived} failure(s) waived by the baseline, counted as skipped` : '';
  return terminalLine(
    `[${String(done).padStart(String(total).length)}/${total}] ${row.name}: ${row.verdict}, exit ${row.exitCode} (${outcomeCountsLine(row.outcomes)}${waived}) -> ${row.reportDir}`,
  );
}

/** The end of a matrix run: errors, the summary sentence, the files, and the outcomes of all targets as the last line. */
export function renderMatrixTerminal(matrix: Matrix, writtenFiles: string[]): string {
  const lines: string[] = [];
  for (const error of matrix.errors) lines.push(`${error.code}: ${error.message}. ${error.hint}`);
  lines.push(`Matrix: ${matrix.summary}`);
  if (writtenFiles.length > 0) lines.push(`Reports: ${writtenFiles.join(', ')}`);
  lines.push(`${matrix.targets.length} targets in ${matrix.durationMs} ms; over all targets:`);
  lines.push(outcomeCountsLine(matrix.totals.outcomes));
  return terminalLines(lines);
}
