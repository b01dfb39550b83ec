import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HarnessError } from '../errors.js';
import { buildHistory, type History, type PastRuns } from '../report/model/history.js';
import { readResultFile } from '../report/model/read.js';
import { writeHistory } from '../report/write.js';

/** Every report.json under dir (any depth), read in the order of their paths; a file that cannot be read is left out with why. */
function readPastRuns(dir: string): PastRuns {
  const paths = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === 'report.json')
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  const found: PastRuns = { reports: [], skipped: [] };
  for (const path of paths) {
    const file = relative(dir, path);
    try {
      // Past runs cannot be run again: a version-1 report gives its verdicts, all a history shows.
      const read = readResultFile(path, 'report', { verdictsOfVersion1: true });
      if (read.kind === 'report') found.reports.push({ file, report: read.report });
    } catch (error) {
      found.skipped.push({ file, reason: error instanceof HarnessError ? error.message : String(error) });
    }
  }
  return found;
}

/** The history of the runs under dir: read here, built by the model, rendered and written by the writer of every view. */
export const historyOf = (dir: string): History => buildHistory(readPastRuns(dir));

export { writeHistory };
