import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from '../errors.js';
import { MIN_TOKEN_LENGTH } from '../secrets/forms.js';
import { createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { readBoundedText } from '../files/bounded-file.js';
import { readCommandLine } from './command-line.js';
import { OPTIONS, type OptionName, type OptionSpec } from './options.js';
import { PROFILES, type Profile } from '../requirements/types.js';

export interface Config {
  baseUrl?: string;
  token?: string;
  password: string;
  statusId: number;
  lang?: string;
  missingLang?: string;
  out: string;
  strict: boolean;
  /** Extra requirements to judge, and the request they add. */
  profile?: Profile;
  timeoutMs: number;
  maxRequests: number;
  repeat: number;
  quiet: boolean;
  verbose: boolean;
  help: boolean;
  version: boolean;
  compareTo?: string;
  compareToken?: string;
  deadlineMs: number;
  concurrency: number;
  /** CA certificates to trust instead of the system's, read from --ca. */
  ca?: { path: string; pem: string };
  insecure: boolean;
  /** Path of the targets file; its contents are read by loadTargets. */
  targets?: string;
  /** Variables of the system or the CI that a target's tokenEnv may name all the same. */
  allowTokenEnv: string[];
  targetConcurrency: number;
  shard?: Shard;
  /** Path of the baseline file; its contents are read by loadBaseline. */
  baseline?: string;
}

/** Shard `index` of `count` (1-based), as in --shard 2/4. */
export interface Shard {
  index: number;
  count: number;
}

type Source = Record<string, string | undefined>;

/** Settings given directly, by option name: from flags, or from the options of run(). */
export type GivenSettings = Partial<Record<OptionName, string | boolean>>;

/** Every setting as a flag of the command-line reader. */
export const SETTING_FLAGS = Object.fromEntries(
  Object.values(OPTIONS).map((spec: OptionSpec) => [spec.flag, { type: spec.kind, ...(spec.short ? { short: spec.short } : {}) }]),
) as Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The settings among the values the command-line reader found, by option name. */
export function settingsOfFlags(values: Record<string, unknown>): GivenSettings {
  const given: GivenSettings = {};
  for (const name of Object.keys(OPTIONS) as OptionName[]) {
    const value = values[OPTIONS[name].flag];
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

function positiveInteger(name: OptionName, raw: string, max: number): number {
  const spec: OptionSpec = OPTIONS[name];
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > max) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--${spec.flag} "${raw}" is not a whole number from 1 to ${max}`,
      `Pass e.g. --${spec.flag} ${spec.default ?? 1}${spec.env ? ` or set ${spec.env}` : ''}`,
    );
  }
  return Number(raw);
}

function locale(name: OptionName, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const spec: OptionSpec = OPTIONS[name];
  if (!/^[A-Za-z]{2}$/.test(raw)) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--${spec.flag} "${raw}" is not a two-letter language code`,
      `Pass a code like fr, as in the status' translations[].locale`,
    );
  }
  return raw;
}

/** Checks a token without ever quoting it; `label` names where it came from. */
export function checkedToken(
  raw: string | undefined,
  label = '--token',
  source = '--token TOKEN or set CONFORMANCE_TOKEN',
): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw new ConfigError('CONFIG_INVALID', `${label} is empty`, `Pass the API token with ${source}`);
  if (raw.includes(':')) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${label} contains ":", which a Basic user name cannot hold`,
      'Pass the token alone; the password part goes in --password',
    );
  }
  if ([...raw].length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${label} is shorter than ${MIN_TOKEN_LENGTH} characters, too short to be told from ordinary text and kept out of every report`,
      `Check the value: API tokens are far longer. Pass the whole token with ${source}`,
    );
  }
  return raw;
}

function profile(raw: string | undefined): Profile | undefined {
  if (raw === undefined) return undefined;
  const known = PROFILES.find((name) => name === raw.trim());
  if (!known) {
    throw new ConfigError('CONFIG_INVALID', `--profile "${raw}" is not a profile of this suite`, `Pass one of: ${PROFILES.join(', ')}`);
  }
  return known;
}

function caFile(raw: string | undefined): Config['ca'] {
  if (raw === undefined) return undefined;
  const hint = "Pass a readable PEM file holding the CA certificate that signed the target's certificate";
  const pem = readBoundedText(raw, (reason) => new ConfigError('CONFIG_INVALID', `--ca "${raw}" ${reason}`, hint));
  try {
    new X509Certificate(pem);
  } catch {
    throw new ConfigError('CONFIG_INVALID', `--ca "${raw}" holds no PEM certificate`, hint);
  }
  return { path: resolve(raw), pem };
}

/** The password part, which the API ignores: never a token, which every curl line of every report would then print. */
export function checkedPassword(raw: string | undefined, tokens: (string | undefined)[]): string {
  if (raw !== undefined && createSecretScanner(tokens.filter((token): token is string => token !== undefined)).find(raw) !== undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      '--password holds the API token',
      'The API ignores the password part: leave --password out, or pass any other value',
    );
  }
  return raw ?? 'x';
}

/** An http(s) address of a server to test: --base-url, or --compare-to with its own token option. */
function serverUrl(raw: string | undefined, name: 'baseUrl' | 'compareTo', tokens: (string | undefined)[]): string | undefined {
  const tokenOption: OptionSpec = OPTIONS[name === 'baseUrl' ? 'token' : 'compareToken'];
  return checkedUrl(raw, `--${OPTIONS[name].flag}`, `--${tokenOption.flag} or ${tokenOption.env ?? ''}`, tokens);
}

/** Checks a base URL; `label` names where it came from (--base-url, or a target of the targets file). */
export function baseUrl(raw: string | undefined, label = '--base-url', tokens: (string | undefined)[] = []): string | undefined {
  return checkedUrl(raw, label, '--token or CONFORMANCE_TOKEN', tokens);
}

/**
 * A URL as a message may quote it: without its user name and password (up to the last @, since a password typed
 * unencoded may hold / ? or #), without its query and fragment (an API key may be there), and without any token in it.
 */
function quotableUrl(raw: string, scanner: SecretScanner): string {
  return scanner.redact(raw.replace(/^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)?[/\\]*).*@/s, '$1<credentials>@').replace(/([?#]).*$/s, '$1…'));
}

function checkedUrl(raw: string | undefined, flag: string, tokenSource: string, tokens: (string | undefined)[]): string | undefined {
  if (raw === undefined) return undefined;
  const scanner = createSecretScanner(tokens.filter((token): token is string => token !== undefined));
  const quoted = quotableUrl(raw, scanner);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" is not a URL`,
      `Pass the address the API is served at, e.g. ${flag} https://help.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" is not an http(s) address`,
      `Pass the address the API is served at, e.g. ${flag} https://help.example.com`,
    );
  }
  // Port 0 is no server's: every request would fail to connect, and the run end with nothing judged.
  if (url.port === '0') {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" has port 0, which no server listens on`,
      `Pass the port the API is served on, e.g. ${flag} https://help.example.com:8443, or none for the scheme's default`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} carries credentials`,
      `Remove them from the URL and pass the token with ${tokenSource}`,
    );
  }
  if (url.search || url.hash) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quotableUrl(`${url.origin}${url.pathname}`, scanner)}" has a query or fragment`,
      'Pass only the scheme, host and path prefix, e.g. https://example.com/support',
    );
  }
  // A path that starts with // (or /\, read the same way) names a host: joined with an API path it would take every
  // request, and the token, there. A stray slash from joining "$HOST/" and "/support" looks just like it.
  if (url.pathname.startsWith('//')) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} "${quoted}" has a path starting with two slashes, which would send requests and the token to another host`,
      `Remove the extra slash: ${flag} ${quotableUrl(`${url.origin}/${url.pathname.replace(/^\/+/, '')}`, scanner)}`,
    );
  }
  // In the address, the token would be printed and written wherever the address is, in every report.
  if (scanner.find(url.toString()) !== undefined) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${flag} holds the API token`,
      `Remove it from the URL; pass the token with ${tokenSource} only`,
    );
  }
  return url.toString();
}

function shard(raw: string | undefined): Shard | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > 10_000 || index < 1 || index > count) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--shard "${raw}" is not I/N with 1 <= I <= N`,
      'Pass e.g. --shard 2/4 for the second of four shards',
    );
  }
  return { index, count };
}

/** Reads the main command's flags, then the environment and .env: flags beat the environment, which beats .env. */
export function loadConfig(argv: string[], env: Source = process.env, dotenvPath = '.env'): Config {
  const { values } = readCommandLine(argv, SETTING_FLAGS, { hint: 'Run with --help to see every option', positionals: false });
  return configOf(settingsOfFlags(values), env, dotenvPath);
}

/** Settings given directly beat the environment, which beats .env; every bad setting becomes one ConfigError. */
export function configOf(given: GivenSettings, env: Source = process.env, dotenvPath = '.env'): Config {
  const dotenv = readDotenv(dotenvPath);
  const value = (name: OptionName): string | undefined => {
    const spec: OptionSpec = OPTIONS[name];
    const direct = given[name];
    if (typeof direct === 'string') return direct;
    const fromEnv = spec.env ? (env[spec.env] ?? dotenv[spec.env]) : undefined;
    return fromEnv === '' ? undefined : (fromEnv ?? spec.default);
  };
  const enabled = (name: OptionName): boolean => {
    const spec: OptionSpec = OPTIONS[name];
    if (given[name] === true) return true;
    const fromEnv = spec.env ? (env[spec.env] ?? dotenv[spec.env]) : undefined;
    return fromEnv !== undefined && ['1', 'true', 'yes'].includes(fromEnv.toLowerCase());
  };

  if (value('ca') !== undefined && enabled('insecure')) {
    throw new ConfigError(
      'CONFIG_INVALID',
      '--ca and --insecure are both set',
      '--insecure turns certificate checks off, so --ca would be ignored: keep only --ca',
    );
  }
  // Read first, so that no message about another setting can quote them.
  const tokens = [value('token'), value('compareToken')];
  const config: Config = {
    baseUrl: serverUrl(value('baseUrl'), 'baseUrl', tokens),
    token: checkedToken(value('token')),
    password: checkedPassword(value('password'), tokens),
    // Any id the document allows up to the largest integer the suite sends and compares exactly (2^53 - 1).
    statusId: positiveInteger('statusId', value('statusId') ?? '1', Number.MAX_SAFE_INTEGER),
    lang: locale('lang', value('lang')),
    missingLang: locale('missingLang', value('missingLang')),
    out: value('out') ?? 'reports',
    strict: enabled('strict'),
    profile: profile(value('profile')),
    timeoutMs: positiveInteger('timeoutMs', value('timeoutMs') ?? '10000', 600_000),
    maxRequests: positiveInteger('maxRequests', value('maxRequests') ?? '40', 10_000),
    repeat: positiveInteger('repeat', value('repeat') ?? '1', 20),
    quiet: enabled('quiet'),
    verbose: enabled('verbose'),
    help: enabled('help'),
    version: enabled('version'),
    compareTo: serverUrl(value('compareTo'), 'compareTo', tokens),
    compareToken: checkedToken(value('compareToken'), '--compare-token', '--compare-token TOKEN or set CONFORMANCE_COMPARE_TOKEN'),
    deadlineMs: positiveInteger('deadlineMs', value('deadlineMs') ?? '60000', 86_400_000),
    concurrency: positiveInteger('concurrency', value('concurrency') ?? '16', 32),
    ca: caFile(value('ca')),
    insecure: enabled('insecure'),
    targets: value('targets'),
    allowTokenEnv: (value('allowTokenEnv') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    targetConcurrency: positiveInteger('targetConcurrency', value('targetConcurrency') ?? '4', 64),
    shard: shard(value('shard')),
    baseline: value('baseline'),
  };
  // The budget belongs to the whole invocation; unless one is given, each --repeat run gets the default's worth.
  const budgetGiven =
    typeof given.maxRequests === 'string' || (env[OPTIONS.maxRequests.env] ?? dotenv[OPTIONS.maxRequests.env] ?? '') !== '';
  if (!budgetGiven) config.maxRequests = Math.min(10_000, config.maxRequests * config.repeat);
  if (config.help || config.version) return config;
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
  if (config.lang && config.missingLang && config.lang.toLowerCase() === config.missingLang.toLowerCase()) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--lang and --missing-lang are both "${config.lang}"`,
      '--missing-lang must name a code the status has no translation for',
    );
  }
  if (config.out.trim() === '') throw new ConfigError('CONFIG_INVALID', '--out is empty', 'Pass a folder, e.g. --out reports');
  if (config.baseUrl !== undefined || config.compareTo !== undefined || config.targets !== undefined) checkProxyVariables(env);
  return config;
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
