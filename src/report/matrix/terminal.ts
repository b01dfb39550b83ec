import { terminalLine, terminalLines } from '../views/escape/terminal.js';
import { countsLine } from '../views/failure-text.js';
import type { Matrix, MatrixTarget } from './types.js';
import { VERDICTS, type Verdict } from '../model/types.js';

export function progressLine(row: MatrixTarget, done: number, total: number): string {
  const known = row.baseline && row.baseline.known > 0 ? `, ${row.baseline.known} known failure(s)` : '';
  return terminalLine(
    `[${String(done).padStart(String(total).length)}/${total}] ${row.name}: ${row.verdict}, exit ${row.exitCode} (${countsLine(row.totals)}${known}) -> ${row.reportDir}`,
  );
}

/** The end of a matrix run: errors, the summary sentence, the files, and the summed counts as the last line. */
export function renderMatrixTerminal(matrix: Matrix, writtenFiles: string[]): string {
  const sum = Object.fromEntries(
    VERDICTS.map((verdict) => [verdict, matrix.targets.reduce((total, target) => total + target.totals[verdict], 0)]),
  ) as Record<Verdict, number>;
  const lines: string[] = [];
  for (const error of matrix.errors) lines.push(`${error.code}: ${error.message}. ${error.hint}`);
  lines.push(`Matrix: ${matrix.summary}`);
  if (writtenFiles.length > 0) lines.push(`Reports: ${writtenFiles.join(', ')}`);
  lines.push(
    `${matrix.targets.length} targets in ${matrix.durationMs} ms; ${sum.warn} warn, ${sum.info} info, ${sum.error} error over all targets`,
  );
  lines.push(countsLine(sum));
  return terminalLines(lines);
}
