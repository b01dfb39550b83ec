import {
  ascending,
  apiToken,
  caFile,
  clientCertificateFile,
  clientKeyFile,
  folder,
  listOf,
  locale,
  names,
  password,
  rate,
  serverUrl,
  shard,
  switchedOn,
  text,
  wholeNumber,
  type Bounds,
  type Parser,
  type Place,
} from './values.js';
import { DEFAULT_PASSWORD } from '../exchange/credentials.js';
import { REPORT_KINDS, reportKinds } from './reports.js';
import { profileName } from './profiles.js';

/** What a row of the settings table says of one setting, whatever its value's type. */
interface Described<T> {
  flag: string;
  /** The environment variable (or .env entry) that sets it when the flag is not given. */
  env?: string;
  /** A one-letter alias, as in -h. */
  short?: string;
  /** The value taken when neither the flag nor the variable gives one; without it, the setting is unset. */
  default?: T;
  /** Whether a target of a targets file may set it for itself, as the field named like the setting. */
  perTarget?: true;
  /** What it does, for --help. */
  help: string;
}

/** One setting: how it is given, its default and the parser every way of giving it goes through. */
export interface Setting<T> extends Described<T> {
  /** How the command line reads it: a flag with a value, or a switch. */
  kind: 'string' | 'boolean';
  /** What --help and messages show in place of a value, as in --status-id N. */
  placeholder?: string;
  /** The range a whole number must fall in, shown by --help. */
  bounds?: Bounds;
  parse: Parser<T>;
}

/** A setting that takes a value; the parser decides its type, and the default must be of it. */
function option<T, const S extends Described<T> & { placeholder: string }>(
  parse: Parser<T>,
  spec: S,
): S & { kind: 'string'; parse: Parser<T> } {
  return { ...spec, kind: 'string', parse };
}

function wholeNumberOption<const S extends Described<number> & { placeholder: string }>(
  bounds: Bounds,
  spec: S,
): S & { kind: 'string'; bounds: Bounds; parse: Parser<number> } {
  return { ...spec, kind: 'string', bounds, parse: wholeNumber(bounds) };
}

/** A setting that is on or off: off unless the flag is given or its variable is 1, true or yes. */
function toggle<const S extends Omit<Described<boolean>, 'default'>>(
  spec: S,
): S & { kind: 'boolean'; default: boolean; parse: Parser<boolean> } {
  return { ...spec, kind: 'boolean', default: false, parse: switchedOn };
}

const token = { flag: 'token', env: 'CONFORMANCE_TOKEN' } as const;

/** What --status-id accepts: any id the document allows up to the largest integer the suite sends and compares exactly. */
const STATUS_ID_BOUNDS: Bounds = { min: 1, max: Number.MAX_SAFE_INTEGER };
/**
 * The most statuses and languages one run judges: five of each keep the requests of a run within a few dozen, and the
 * extra ones within the connections one round trip can use (--concurrency 16).
 */
export const MOST_STATUSES = 5;
export const MOST_LANGS = 5;
const compareToken = { flag: 'compare-token', env: 'CONFORMANCE_COMPARE_TOKEN' } as const;

/**
 * Every setting, in the order --help lists them and configOf reads them: its flag, variable, default, bounds and
 * parser. Flags beat variables, which beat .env; a targets file's per-target fields go through the same parsers.
 */
export const SETTINGS = {
  baseUrl: option(serverUrl(token), {
    flag: 'base-url',
    env: 'CONFORMANCE_BASE_URL',
    placeholder: 'URL',
    help: 'address the API is served at; without it the embedded reference server is tested',
  }),
  token: option(apiToken, { ...token, placeholder: 'TOKEN', help: 'API token, sent as the Basic user name; never printed or written' }),
  password: option(password, {
    flag: 'password',
    env: 'CONFORMANCE_PASSWORD',
    placeholder: 'VALUE',
    default: DEFAULT_PASSWORD,
    help: 'Basic password sent with the token (the API ignores it)',
  }),
  statusId: option(ascending(listOf(wholeNumber(STATUS_ID_BOUNDS), MOST_STATUSES)), {
    flag: 'status-id',
    env: 'CONFORMANCE_STATUS_ID',
    placeholder: 'N[,N...]',
    default: [1],
    perTarget: true,
    help: `ids of the ticket statuses to read, each judged (at most ${MOST_STATUSES}), in ascending order; the lowest also serves the credential checks; ideally each has a translation`,
  }),
  lang: option(
    listOf(locale, MOST_LANGS, (a, b) => a.toLowerCase() === b.toLowerCase()),
    {
      flag: 'lang',
      env: 'CONFORMANCE_LANG',
      placeholder: 'CODE[,CODE...]',
      perTarget: true,
      help: `locales with a translation, each judged on every status (at most ${MOST_LANGS}; default: the first in each status' translations named unlike the default)`,
    },
  ),
  missingLang: option(locale, {
    flag: 'missing-lang',
    env: 'CONFORMANCE_MISSING_LANG',
    placeholder: 'CODE',
    perTarget: true,
    help: 'two-letter code with no translation (default: one absent from translations)',
  }),
  out: option(folder, {
    flag: 'out',
    env: 'CONFORMANCE_OUT',
    placeholder: 'DIR',
    default: 'reports',
    help: 'folder for report.json, report.md, report.html, junit.xml, ctrf.json, badge.svg and allure-results/',
  }),
  reports: option(reportKinds, {
    flag: 'reports',
    env: 'CONFORMANCE_REPORTS',
    placeholder: 'LIST',
    default: REPORT_KINDS,
    help: 'reports to write, comma-separated: json, junit, html, md, ctrf, allure, badge, recording (default: all); report.json is always written, since the exit code, verify, compare and baseline read it',
  }),
  strict: toggle({
    flag: 'strict',
    env: 'CONFORMANCE_STRICT',
    help: 'SHOULD failures (and, with --profile, CLIENT failures) also fail the run',
  }),
  profile: option(profileName, {
    flag: 'profile',
    env: 'CONFORMANCE_PROFILE',
    placeholder: 'NAME',
    help: "official-client: also judge what the vendor's PHP client would make of the answers (one more GET; gates only with --strict)",
  }),
  timeoutMs: wholeNumberOption(
    { min: 1, max: 600_000 },
    {
      flag: 'timeout-ms',
      env: 'CONFORMANCE_TIMEOUT_MS',
      placeholder: 'N',
      default: 10_000,
      perTarget: true,
      help: 'time-out of each phase of a request (connect, headers, body), in milliseconds',
    },
  ),
  maxRequests: wholeNumberOption(
    { min: 1, max: 10_000 },
    {
      flag: 'max-requests',
      env: 'CONFORMANCE_MAX_REQUESTS',
      placeholder: 'N',
      default: 40,
      perTarget: true,
      help: 'most requests the whole invocation may send to the target, --repeat runs included (the default is for each run, status and language)',
    },
  ),
  repeat: wholeNumberOption(
    { min: 1, max: 20 },
    {
      flag: 'repeat',
      env: 'CONFORMANCE_REPEAT',
      placeholder: 'N',
      default: 1,
      help: 'run the suite N times; a requirement whose verdict changes is flaky',
    },
  ),
  quiet: toggle({ flag: 'quiet', help: 'print only the verdict line' }),
  verbose: toggle({ flag: 'verbose', help: 'also print every request made (credentials redacted)' }),
  help: toggle({ flag: 'help', short: 'h', help: 'show this help (also -h, or the help command)' }),
  version: toggle({ flag: 'version', short: 'v', help: 'print the version (also -v)' }),
  compareTo: option(serverUrl(compareToken), {
    flag: 'compare-to',
    env: 'CONFORMANCE_COMPARE_TO',
    placeholder: 'URL',
    help: 'a second server to run the same checks against and report where the two differ',
  }),
  compareToken: option(apiToken, {
    ...compareToken,
    placeholder: 'TOKEN',
    help: 'API token of the --compare-to server; never printed or written',
  }),
  deadlineMs: wholeNumberOption(
    { min: 1, max: 86_400_000 },
    {
      flag: 'deadline-ms',
      env: 'CONFORMANCE_DEADLINE_MS',
      placeholder: 'N',
      default: 60_000,
      help: 'time the whole run may take, in milliseconds; then it stops and reports what it learned',
    },
  ),
  concurrency: wholeNumberOption(
    { min: 1, max: 32 },
    {
      flag: 'concurrency',
      env: 'CONFORMANCE_CONCURRENCY',
      placeholder: 'N',
      default: 16,
      help: 'most requests in flight at once (16 lets the whole first round of requests go out together)',
    },
  ),
  rateLimit: option(rate, {
    flag: 'rate-limit',
    env: 'CONFORMANCE_RATE_LIMIT',
    placeholder: 'N/s',
    perTarget: true,
    help: 'most requests a second (N/s), minute (N/m), hour (N/h) or day (N/d), sent one at a time and spaced evenly, for a target that limits how fast it may be asked (default: no limit)',
  }),
  ca: option(caFile, {
    flag: 'ca',
    env: 'CONFORMANCE_CA',
    placeholder: 'FILE',
    help: "PEM file of the CA certificate(s) to trust for the target's TLS certificate, instead of the system's",
  }),
  insecure: toggle({
    flag: 'insecure',
    env: 'CONFORMANCE_INSECURE',
    help: 'do not verify the TLS certificate (warned about in the terminal and the report)',
  }),
  cert: option(clientCertificateFile, {
    flag: 'cert',
    env: 'CONFORMANCE_CERT',
    placeholder: 'FILE',
    perTarget: true,
    help: 'PEM file of the client certificate shown to a target that asks for one (mutual TLS); with --key',
  }),
  key: option(clientKeyFile, {
    flag: 'key',
    env: 'CONFORMANCE_KEY',
    placeholder: 'FILE',
    perTarget: true,
    help: 'PEM file of the private key of --cert; its content is never printed or written',
  }),
  keyPassphrase: option(text, {
    flag: 'key-passphrase',
    env: 'CONFORMANCE_KEY_PASSPHRASE',
    placeholder: 'VALUE',
    help: 'passphrase of an encrypted --key; never printed or written',
  }),
  targets: option(text, {
    flag: 'targets',
    env: 'CONFORMANCE_TARGETS',
    placeholder: 'FILE',
    help: 'JSON or YAML file of targets (name, baseUrl, tokenEnv, options) to test as one matrix',
  }),
  allowTokenEnv: option(names, {
    flag: 'allow-token-env',
    env: 'CONFORMANCE_ALLOW_TOKEN_ENV',
    placeholder: 'NAMES',
    default: [],
    help: 'with --targets: variables (comma-separated) a tokenEnv may name although the system or the CI sets them (HOME, GITHUB_TOKEN, AWS_...)',
  }),
  targetConcurrency: wholeNumberOption(
    { min: 1, max: 64 },
    {
      flag: 'target-concurrency',
      env: 'CONFORMANCE_TARGET_CONCURRENCY',
      placeholder: 'N',
      default: 4,
      help: 'with --targets: most targets tested at once',
    },
  ),
  shard: option(shard, {
    flag: 'shard',
    env: 'CONFORMANCE_SHARD',
    placeholder: 'I/N',
    help: 'with --targets: test only shard I of N (I/N, e.g. 2/4); merge the shards with the merge command',
  }),
  exitZeroWhenJudged: toggle({
    flag: 'exit-zero-when-judged',
    env: 'CONFORMANCE_EXIT_ZERO_WHEN_JUDGED',
    help: 'with --targets: exit 0 once every target has its verdict and the matrix is written, whatever the verdicts (a fleet job); 2 still means the run could not be done',
  }),
  baseline: option(text, {
    flag: 'baseline',
    env: 'CONFORMANCE_BASELINE',
    placeholder: 'FILE',
    help: 'JSON or YAML file of known failures (requirement, reason, owner, expires) that do not fail the run before expiry',
  }),
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;

type Values = { -readonly [Name in SettingName]: ReturnType<(typeof SETTINGS)[Name]['parse']> };
type Defaulted = { [Name in SettingName]: (typeof SETTINGS)[Name] extends { default: unknown } ? Name : never }[SettingName];

/**
 * The value of every setting, typed by its parser: always there when the table gives it a default, else optional.
 * Every other shape of the settings is a Pick of this one.
 */
export type Config = Flat<Pick<Values, Defaulted> & Partial<Omit<Values, Defaulted>>>;

type Flat<T> = { [Key in keyof T]: T[Key] };

/** The names of the settings a target of a targets file may set for itself. */
export const PER_TARGET = (Object.keys(SETTINGS) as SettingName[]).filter((name) => {
  const spec: Setting<unknown> = SETTINGS[name];
  return spec.perTarget === true;
});

/** Where a setting is given on the command line or in the environment, as its messages name it. */
export function flagPlace(spec: Setting<unknown>, tokens: Place['tokens'] = []): Place {
  return { name: `--${spec.flag}`, example: `--${spec.flag} ${exampleValue(spec)}${spec.env ? ` or set ${spec.env}` : ''}`, tokens };
}

/** Where a field of a target in a targets file is given, as its messages name it: `label` names the target. */
export function targetPlace(spec: Setting<unknown>, field: string, label: string, tokens: Place['tokens']): Place {
  return { name: `${label} ${field}`, example: `${field}: ${exampleValue(spec)} in the targets file`, tokens };
}

function exampleValue(spec: Setting<unknown>): string {
  return shownDefault(spec) ?? spec.placeholder ?? '';
}

/** The default as --help shows it, when there is one worth showing. */
function shownDefault(spec: Setting<unknown>): string | undefined {
  const { default: value } = spec;
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number')) return value.join(',');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

export function helpText(version: string): string {
  const rows = Object.values(SETTINGS).map((spec: Setting<unknown>) => {
    const left = `  --${spec.flag}${spec.placeholder ? ` ${spec.placeholder}` : ''}`;
    const bounds = spec.bounds && spec.bounds.max < Number.MAX_SAFE_INTEGER ? `${spec.bounds.min} to ${spec.bounds.max}` : '';
    const defaultText = shownDefault(spec);
    const extra = [spec.env ? `env ${spec.env}` : '', defaultText !== undefined ? `default ${defaultText}` : '', bounds]
      .filter(Boolean)
      .join(', ');
    return `${left.padEnd(24)} ${spec.help}${extra ? ` (${extra})` : ''}`;
  });
  return [
    `ticketing-conformance ${version}: checks a deployment of the ticketing REST API against its document.`,
    '',
    'Usage: ticketing-conformance [--base-url URL --token TOKEN | --targets FILE] [options]',
    '       ticketing-conformance serve [--port N] [--fault NAME ...]   the reference server alone (serve --help)',
    '       ticketing-conformance judge RECORDING.json [--out DIR]       the verdict of a recording, no request sent',
    '       ticketing-conformance init [--out DIR]                       a commented .env and targets.yaml to start from',
    '       ticketing-conformance doctor|verify|baseline|compare|merge|history|exporter|judge ... (each with --help)',
    '',
    'Options (flags beat environment variables, which beat a .env file in the current folder):',
    ...rows,
    '',
    'Exit codes: 0 conformant, 1 not conformant, 2 could not judge (configuration, network, suite error).',
  ].join('\n');
}
