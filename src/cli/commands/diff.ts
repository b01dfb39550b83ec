import { ConfigError } from '../../errors.js';
import { diffReports, renderDiff } from '../../report/model/diff.js';
import { readResultFile } from '../../report/model/read.js';
import type { Report } from '../../report/model/types.js';
import { readCommandLine } from '../../config/command-line.js';
import type { CommandIo } from '../io.js';

const USAGE = 'Usage: ticketing-conformance diff OLD/report.json NEW/report.json';

function reportAt(path: string): Report {
  const file = readResultFile(path, 'report');
  if (file.kind !== 'report') {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${path} is a matrix, not a report`,
      "Compare one target's report.json files (targets/NAME/report.json)",
    );
  }
  return file.report;
}

/** Regressions, fixes and changed observations between two reports; exit 1 on any regression. */
export async function diffCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = readCommandLine(argv, {}, { hint: USAGE, command: 'diff' });
  if (values.help) {
    io.log(`${USAGE}\n\nExit codes: 0 nothing regressed, 1 a requirement regressed (pass to fail or warn), 2 an input could not be read.`);
    return 0;
  }
  if (positionals.length !== 2) throw new ConfigError('CONFIG_INVALID', `diff takes two reports, ${positionals.length} given`, USAGE);
  const [before, after] = positionals.map(reportAt) as [Report, Report];
  const diff = diffReports(before, after);
  io.log(renderDiff(diff));
  return diff.regressions.length > 0 ? 1 : 0;
}
