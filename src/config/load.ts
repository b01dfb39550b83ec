import { existsSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from '../errors.js';
import { readBoundedText } from '../files/bounded-file.js';
import { checkClientIdentity } from './client-identity.js';
import { readCommandLine } from './command-line.js';
import { flagPlace, SETTINGS, type Config, type Setting, type SettingName } from './settings.js';
import { parseSetting, type Secrets } from './values.js';

type Source = Record<string, string | undefined>;

const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** Settings given directly, by setting name: from flags, or from the options of run(). */
export type GivenSettings = Partial<Record<SettingName, string | boolean>>;

/** Every setting as a flag of the command-line reader. */
export const SETTING_FLAGS = Object.fromEntries(
  Object.values(SETTINGS).map((spec: Setting<unknown>) => [spec.flag, { type: spec.kind, ...(spec.short ? { short: spec.short } : {}) }]),
) as Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The settings among the values the command-line reader found, by setting name. */
export function settingsOfFlags(values: Record<string, unknown>): GivenSettings {
  const given: GivenSettings = {};
  for (const name of SETTING_NAMES) {
    const value = values[SETTINGS[name].flag];
    if (typeof value === 'string' || typeof value === 'boolean') given[name] = value;
  }
  return given;
}

function readDotenv(path: string): Source {
  if (!existsSync(path)) return {};
  return parseDotenv(
    readBoundedText(
      path,
      (reason) => new ConfigError('CONFIG_INVALID', `the .env file ${path} ${reason}`, 'Make it a file of NAME=value lines, or remove it'),
    ),
  );
}

/** Looks a variable up in the environment, then in the .env file, as every setting is. */
export function variableLookup(env: Source = process.env, dotenvPath = '.env'): (name: string) => string | undefined {
  const dotenv = readDotenv(dotenvPath);
  return (name) => env[name] ?? dotenv[name];
}

/** The text of each setting given: directly (a flag, an option of run()), else by its variable. An empty variable sets nothing. */
function givenTexts(given: GivenSettings, lookup: (name: string) => string | undefined): Partial<Record<SettingName, string>> {
  const texts: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const spec: Setting<unknown> = SETTINGS[name];
    const direct = given[name];
    const fromVariable = spec.env === undefined ? undefined : lookup(spec.env);
    if (spec.kind === 'boolean' ? direct === true : typeof direct === 'string') texts[name] = String(direct);
    else if (fromVariable !== undefined && fromVariable !== '') texts[name] = fromVariable;
  }
  return texts;
}

/** Reads the main command's flags, then the environment and .env: flags beat the environment, which beats .env. */
export function loadConfig(argv: string[], env: Source = process.env, dotenvPath = '.env'): Config {
  const { values } = readCommandLine(argv, SETTING_FLAGS, { hint: 'Run with --help to see every option', positionals: false });
  return configOf(settingsOfFlags(values), env, dotenvPath);
}

/** Settings given directly beat the environment, which beats .env; every bad setting becomes one ConfigError. */
export function configOf(given: GivenSettings, env: Source = process.env, dotenvPath = '.env'): Config {
  const texts = givenTexts(given, variableLookup(env, dotenvPath));
  // Read first, so that no message about another setting can quote them.
  const tokens = [texts.token, texts.compareToken];
  const secrets: Secrets = { tokens, passwords: [texts.password], passphrases: [texts.keyPassphrase] };
  const valueOf = (name: SettingName): unknown => {
    const spec: Setting<unknown> = SETTINGS[name];
    const text = texts[name];
    return text === undefined ? spec.default : parseSetting(spec.parse, text, flagPlace(spec, tokens), secrets);
  };
  // Before the CA file is read: with --insecure it would be ignored, so what is wrong with it is beside the point.
  if (texts.ca !== undefined && valueOf('insecure') === true) {
    throw new ConfigError(
      'CONFIG_INVALID',
      '--ca and --insecure are both set',
      '--insecure turns certificate checks off, so --ca would be ignored: keep only --ca',
    );
  }
  // Every name of the table with the value its own parser gave (or its default): the shape Config is derived from.
  const config = Object.fromEntries(SETTING_NAMES.map((name) => [name, valueOf(name)])) as Config;
  // The budget belongs to the whole invocation; unless one is given, each --repeat run, and each status and language
  // listed, gets the default's worth.
  if (texts.maxRequests === undefined) {
    const judged = config.repeat * config.statusId.length * Math.max(1, config.lang?.length ?? 0);
    config.maxRequests = Math.min(SETTINGS.maxRequests.bounds.max, config.maxRequests * judged);
  }
  if (config.help || config.version) return config;
  checkCombinations(config);
  config.key = checkClientIdentity(config, (name) => `--${SETTINGS[name].flag}`);
  if (config.baseUrl !== undefined || config.compareTo !== undefined || config.targets !== undefined) checkProxyVariables(env);
  return config;
}

/** The settings that are fine one by one but not together. */
function checkCombinations(config: Config): void {
  if (config.quiet && config.verbose) throw new ConfigError('CONFIG_INVALID', '--quiet and --verbose were both given', 'Pass one of them');
  if (config.targets !== undefined && config.baseUrl !== undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      '--targets and --base-url are both set',
      'Give every target in the targets file, or drop --targets to test one --base-url',
    );
  }
  if (config.shard && config.targets === undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      '--shard is set without --targets',
      'Shards split the targets of a targets file; pass --targets FILE',
    );
  }
  if (config.exitZeroWhenJudged && config.targets === undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      '--exit-zero-when-judged is set without --targets',
      'It lets a matrix of a targets file exit 0 with its verdicts written; a single run exits with its verdict',
    );
  }
  if (config.baseUrl && !config.token) {
    throw new ConfigError(
      'CONFIG_MISSING_TOKEN',
      `no API token for ${config.baseUrl}`,
      'Pass --token TOKEN, or set CONFORMANCE_TOKEN in the environment or in .env',
    );
  }
  if (config.compareTo && !config.compareToken) {
    throw new ConfigError(
      'CONFIG_MISSING_TOKEN',
      `no API token for --compare-to ${config.compareTo}`,
      'Pass --compare-token TOKEN, or set CONFORMANCE_COMPARE_TOKEN in the environment or in .env',
    );
  }
  checkLocalesDiffer(config, (name) => `--${SETTINGS[name].flag}`);
}

/** The locale with a translation and the one without cannot be one code; `named` says how the message names each. */
export function checkLocalesDiffer(
  { lang, missingLang }: Pick<Config, 'lang' | 'missingLang'>,
  named: (name: 'lang' | 'missingLang') => string,
  where = '',
): void {
  const same = missingLang === undefined ? undefined : lang?.find((code) => code.toLowerCase() === missingLang.toLowerCase());
  if (same !== undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${where}${named('lang')} and ${named('missingLang')} both name "${same}"`,
      `${named('missingLang')} must name a code the status has no translation for`,
    );
  }
}

/** The variables undici's proxy agent reads, each on its own: one it cannot use stops every request. */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/**
 * A proxy address in the environment that undici cannot use would fail the whole run before its first request, with
 * nothing to say why. Never quoted: a proxy address may hold a password.
 */
function checkProxyVariables(env: Source): void {
  for (const name of PROXY_VARIABLES) {
    const address = env[name];
    if (!address) continue;
    let protocol: string | undefined;
    try {
      protocol = new URL(address).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new ConfigError(
        'CONFIG_INVALID',
        `${name} in the environment is not an http:// or https:// proxy address (not quoted: it may hold a password)`,
        `Set ${name} to http://host:port, or http://user:password@host:port with a / ? # or @ of the password percent-encoded; or unset it`,
      );
    }
  }
}
