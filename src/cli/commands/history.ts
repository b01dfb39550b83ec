import { statSync } from 'node:fs';
import { ConfigError } from '../../errors.js';
import { terminalLine } from '../../report/views/escape/terminal.js';
import { historyOf, writeHistory } from '../../pipeline/history.js';
import { readCommandLine } from '../../config/command-line.js';
import type { CommandIo } from '../io.js';

const USAGE = 'Usage: ticketing-conformance history DIR --out OUT   (every report.json under DIR, into OUT/history.html)';

/** A folder of report.json files (nightly runs, releases) as one page: per target, verdicts over time and what changed. */
export async function historyCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = readCommandLine(argv, { out: { type: 'string' } }, { hint: USAGE, command: 'history' });
  if (values.help) {
    io.log(
      `${USAGE}\n\nReads every report.json under DIR (any depth), groups the runs by target and orders them by start time.\nWrites OUT/history.html: a timeline of verdicts, a requirement by run grid, and when each requirement started or stopped failing.\nExit codes: 0 written, 2 nothing to read or OUT not writable.`,
    );
    return 0;
  }
  if (positionals.length !== 1) throw new ConfigError('CONFIG_INVALID', `history takes one folder, ${positionals.length} given`, USAGE);
  const [dir = ''] = positionals;
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigError('CONFIG_INVALID', `${dir} is not a folder`, 'Give the folder that holds the runs’ report.json files');
  }
  const history = historyOf(dir);
  for (const entry of history.skipped) io.error(terminalLine(`Left out ${entry.file}: ${entry.reason}`));
  if (history.targets.length === 0) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `no readable report.json under ${dir}`,
      'Point history at the folder your runs write their --out folders into',
    );
  }
  const out = values.out ?? 'reports';
  const file = await writeHistory(history, dir, out);
  const runs = history.targets.reduce((sum, target) => sum + target.runs.length, 0);
  io.log(`History of ${runs} runs of ${history.targets.length} target(s): ${file}`);
  return 0;
}
