import { PER_TARGET, SETTINGS, type SettingName } from './settings.js';

/**
 * The files `init` writes to start from: a .env whose every line is commented out (so the folder still runs the
 * embedded reference server until one is filled in) and a targets file of two targets. Names and help come from
 * the settings table, so a renamed variable cannot leave the starter behind.
 */

/** The settings of the README's table, those a first run against a deployment needs, with an example value each. */
const DOTENV_SETTINGS = [
  ['baseUrl', 'https://help.example.com'],
  ['token', 'paste-the-api-token-here'],
  ['statusId', String(SETTINGS.statusId.default)],
  ['lang', 'fr,de'],
  ['out', SETTINGS.out.default],
  ['strict', '1'],
  ['rateLimit', '2/s'],
] as const satisfies readonly (readonly [SettingName, string])[];

/** The variables the starter targets file names as the targets' tokenEnv. */
export const STARTER_TOKEN_VARIABLES = ['PRODUCTION_TOKEN', 'STAGING_TOKEN'] as const;

export function starterDotenv(): string {
  const settings = DOTENV_SETTINGS.flatMap(([name, example]) => [`# ${SETTINGS[name].help}`, `# ${SETTINGS[name].env}=${example}`, '']);
  return [
    '# Settings of ticketing-conformance, read from .env in the folder it runs in; flags and environment variables',
    '# beat this file. Remove the # of a line to set it. Keep this file out of version control: it holds tokens.',
    '',
    ...settings,
    '# The tokens of targets.yaml, by the variable each target names as its tokenEnv:',
    ...STARTER_TOKEN_VARIABLES.map((variable) => `# ${variable}=paste-the-api-token-here`),
    '',
  ].join('\n');
}

export function starterTargets(): string {
  const [production, staging] = STARTER_TOKEN_VARIABLES;
  return [
    '# Targets tested as one matrix: npx --no-install ticketing-conformance --targets targets.yaml --out reports',
    '# A target names the variable that holds its token (tokenEnv), set in the environment or in .env;',
    '# the token itself never goes in this file.',
    'targets:',
    '  - name: production',
    '    baseUrl: https://help.example.com',
    `    tokenEnv: ${production}`,
    '  - name: staging',
    '    baseUrl: https://staging.help.example.com',
    `    tokenEnv: ${staging}`,
    `    # A target may set ${PER_TARGET.join(', ')} for itself, e.g.:`,
    `    # statusId: ${SETTINGS.statusId.default}`,
    '',
  ].join('\n');
}
