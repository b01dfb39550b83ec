import { ConfigError } from '../../errors.js';
import { changesBetween, renderChanges } from '../../report/comparison/changes.js';
import { readResultFile } from '../../report/model/read.js';
import type { Report } from '../../report/model/types.js';
import { readCommandLine } from '../../config/command-line.js';
import type { CommandIo } from '../io.js';

const USAGE = 'Usage: ticketing-conformance compare OLD/report.json NEW/report.json [--different-targets]';

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

/**
 * Regressions, fixes and changed observations between two runs of one target; exit 1 on any regression. Two servers
 * side by side are compared by a run with --compare-to, which judges both the same way at the same time.
 */
export async function compareCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = readCommandLine(argv, { 'different-targets': { type: 'boolean' } }, { hint: USAGE, command: 'compare' });
  if (values.help) {
    io.log(
      `${USAGE}\n\nCompares two runs of the same target (its base URL) requirement by requirement. --different-targets compares runs of two targets anyway; to compare two servers, run with --compare-to instead.\n\nExit codes: 0 nothing regressed, 1 a requirement regressed (pass to fail or warn), 2 an input could not be read or the reports are of different targets.`,
    );
    return 0;
  }
  if (positionals.length !== 2) throw new ConfigError('CONFIG_INVALID', `compare takes two reports, ${positionals.length} given`, USAGE);
  const [before, after] = positionals.map(reportAt) as [Report, Report];
  const differentTargets = before.target.baseUrl !== after.target.baseUrl;
  if (differentTargets && values['different-targets'] !== true) {
    throw new ConfigError(
      'CONFIG_INVALID',
      'the two reports are of different targets, so what changed between them is not a regression or a fix of either',
      'Compare two runs of one target; add --different-targets to compare these anyway, or run with --compare-to to judge two servers side by side',
    );
  }
  const changes = changesBetween(before, after);
  io.log(renderChanges(changes, differentTargets ? { before: before.target.baseUrl, after: after.target.baseUrl } : undefined));
  return changes.regressions.length > 0 ? 1 : 0;
}
