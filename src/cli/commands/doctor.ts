import { readCommandLine } from '../../config/command-line.js';
import { configOf, SETTING_FLAGS, settingsOfFlags } from '../../config/load.js';
import { examine } from '../../pipeline/doctor.js';
import { renderExamination } from '../../doctor/render.js';
import { ConfigError } from '../../errors.js';
import { warningLine } from '../../report/views/terminal.js';
import { safetyWarnings } from '../../config/warnings.js';
import { clientKeySecrets, createSecretScanner } from '../../secrets/scanner.js';
import type { CommandIo } from '../io.js';
import { screenOutput } from '../screen-output.js';

const HELP = [
  'Usage: ticketing-conformance doctor --base-url URL --token TOKEN [--status-id N] [--timeout-ms N]',
  '',
  'Probes a deployment with the twelve GET requests of the hosting rules and says, in plain words, what is wrong with its hosting stack',
  '(web server, rewrite rules, PHP handler) and which configuration lines to change, with how sure it is.',
  'Settings are read as for a conformance run (flags, then CONFORMANCE_* variables, then .env).',
  '',
  'Exit codes: 0 nothing wrong found, 1 a problem diagnosed, 2 the target could not be reached or a setting is wrong.',
].join('\n');

/** ticketing-conformance doctor: the hosting rules' requests and a diagnosis of the hosting stack. */
export async function doctorCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = readCommandLine(argv, SETTING_FLAGS, { hint: 'Run doctor --help', command: 'doctor', positionals: false });
  const config = configOf(settingsOfFlags(values), io.env, io.dotenvPath);
  if (config.help) {
    io.log(HELP);
    return 0;
  }
  const { baseUrl, token } = config;
  if (!baseUrl || !token) {
    throw new ConfigError(
      'CONFIG_MISSING_BASE_URL',
      'the doctor needs the address of a deployment',
      'Pass --base-url URL and --token TOKEN, e.g. ticketing-conformance doctor --base-url https://help.example.com --token "$TOKEN"',
    );
  }
  for (const warning of safetyWarnings(config, io.env)) io.error(warningLine(warning));
  // One scanner of the token redacts every answer as it arrives and screens what is printed, as in a run.
  const scanner = createSecretScanner([token], [config.password], clientKeySecrets(config));
  const examination = await examine({ ...config, baseUrl, token }, scanner);
  const output = screenOutput(renderExamination(examination), (text) => scanner.find(text));
  io.log(output.text);
  return output.leaked ? 2 : examination.exitCode;
}
