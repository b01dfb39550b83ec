import { loadBaseline } from './config/baseline.js';
import { configOf, type GivenSettings } from './config/load.js';
import { SETTINGS, type Setting, type SettingName } from './config/settings.js';
import type { Report } from './report/model/types.js';
import { runConformance } from './pipeline/run.js';

export type { Report, RequirementResult, RunVerdict, ExitCode, Verdict, RunWarning } from './report/model/types.js';
export type { RunError } from './errors.js';

/** Settings that belong to the command line (its output, its other modes), not to one run. */
const CLI_ONLY = [
  'help',
  'version',
  'quiet',
  'verbose',
  'targets',
  'allowTokenEnv',
  'targetConcurrency',
  'shard',
  'compareTo',
  'compareToken',
] as const satisfies readonly SettingName[];
type CliOnly = (typeof CLI_ONLY)[number];

/** The settings of one run, named as in the CLI's table of options (baseUrl for --base-url); each is checked as the flag is. */
export type RunOptions = {
  [Name in Exclude<SettingName, CliOnly>]?: (typeof SETTINGS)[Name]['kind'] extends 'boolean' ? boolean : string | number;
};

/** The options as settings, each checked for its name and type: plain JavaScript callers get no compiler. */
function givenSettings(options: RunOptions): GivenSettings {
  const given: GivenSettings = {};
  for (const [name, value] of Object.entries(options) as [string, unknown][]) {
    if (!(name in SETTINGS)) throw new TypeError(`run(): unknown option "${name}"`);
    // A command-line setting would otherwise be taken silently.
    if ((CLI_ONLY as readonly string[]).includes(name)) {
      throw new TypeError(`run(): "${name}" belongs to the command line, not to one run; use the ticketing-conformance command`);
    }
    if (value === undefined) continue;
    const spec: Setting<unknown> = SETTINGS[name as SettingName];
    if (spec.kind === 'boolean') {
      if (typeof value !== 'boolean') throw new TypeError(`run(): "${name}" is true or false`);
      given[name as SettingName] = value;
    } else if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      // Checked as the flag's text is, with the same messages.
      given[name as SettingName] = String(value);
    } else {
      throw new TypeError(`run(): "${name}" is a string or a number`);
    }
  }
  return given;
}

/**
 * Runs the suite once against options.baseUrl (or the embedded reference server without it), writes the reports to
 * options.out (default reports/) and returns the report. Only the options given count: no environment variable or .env.
 */
export async function run(options: RunOptions = {}): Promise<Report> {
  const config = configOf(givenSettings(options), {}, '');
  const baseline = config.baseline === undefined ? undefined : loadBaseline(config.baseline);
  const { report } = await runConformance(config, {}, baseline);
  return report;
}
