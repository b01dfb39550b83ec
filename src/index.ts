import { loadBaseline } from './config/baseline.js';
import { loadConfig } from './config/load.js';
import { OPTIONS, type OptionName } from './config/options.js';
import type { Report } from './report/model/types.js';
import { runConformance } from './runner/run.js';

export type { Report, RequirementResult, RunVerdict, ExitCode, Verdict, RunWarning } from './report/model/types.js';
export type { RunError } from './errors.js';

/** Settings that belong to the command line (its output, its other modes), not to one run. */
const CLI_ONLY = [
  'help',
  'version',
  'quiet',
  'verbose',
  'targets',
  'targetConcurrency',
  'shard',
  'compareTo',
  'compareToken',
] as const satisfies readonly OptionName[];
type CliOnly = (typeof CLI_ONLY)[number];

/** The settings of one run, named as in the CLI's table of options (baseUrl for --base-url); each is checked as the flag is. */
export type RunOptions = {
  [Name in Exclude<OptionName, CliOnly>]?: (typeof OPTIONS)[Name]['kind'] extends 'boolean' ? boolean : string | number;
};

function argv(options: RunOptions): string[] {
  return Object.entries(options).flatMap(([name, value]: [string, unknown]) => {
    const flag = `--${OPTIONS[name as OptionName].flag}`;
    if (value === undefined || value === false) return [];
    return value === true ? [flag] : [flag, String(value)];
  });
}

/**
 * Runs the suite once against options.baseUrl (or the embedded reference server without it), writes the reports to
 * options.out (default reports/) and returns the report. Only the options given count: no environment variable or .env.
 */
export async function run(options: RunOptions = {}): Promise<Report> {
  for (const name of Object.keys(options)) {
    if (!(name in OPTIONS)) throw new TypeError(`run(): unknown option "${name}"`);
    // Plain JavaScript callers get no type check: a command-line setting would otherwise be taken silently.
    if ((CLI_ONLY as readonly string[]).includes(name)) {
      throw new TypeError(`run(): "${name}" belongs to the command line, not to one run; use the ticketing-conformance command`);
    }
  }
  const config = loadConfig(argv(options), {}, '');
  const baseline = config.baseline === undefined ? undefined : loadBaseline(config.baseline);
  const { report } = await runConformance(config, {}, baseline);
  return report;
}
