import { ConfigError } from '../errors.js';
import { checkClientIdentity } from './client-identity.js';
import { fileRefusal, readCheckedFile, type FileKind } from '../files/checked-file.js';
import { checkLocalesDiffer, variableLookup } from './load.js';
import { flagPlace, PER_TARGET, SETTINGS, targetPlace, type Config, type Setting, type SettingName } from './settings.js';
import { apiToken, parseSetting, type Secrets } from './values.js';

/** The settings a target can have on its own; in a targets file each target may set those the table marks perTarget. */
export type TargetOptions = Pick<
  Config,
  | 'password'
  | 'statusId'
  | 'lang'
  | 'missingLang'
  | 'strict'
  | 'profile'
  | 'timeoutMs'
  | 'maxRequests'
  | 'repeat'
  | 'deadlineMs'
  | 'concurrency'
  | 'rateLimit'
  | 'ca'
  | 'insecure'
  | 'cert'
  | 'key'
  | 'keyPassphrase'
>;

/** A target as the file gives it: its per-target settings as written, to be read by the settings' own parsers. */
type TargetFileEntry = { name: string; baseUrl: string; tokenEnv: string } & Partial<Record<SettingName, string | number>>;

const TARGETS_FILE: FileKind<TargetFileEntry[] | { targets: TargetFileEntry[] }> = {
  what: 'the targets file',
  code: 'CONFIG_INVALID',
  schema: 'targets',
  yaml: true,
};

/** One target of a matrix, with its token read from the environment and its options merged over the run's. */
export interface TargetEntry {
  name: string;
  baseUrl: string;
  tokenEnv: string;
  token: string;
  options: TargetOptions;
}

/**
 * How a message names a target's tokenEnv: quoted only when it reads as a conventional (upper-case) variable name,
 * since a token pasted there by mistake must not be printed. The schema already refuses anything but a name.
 */
function variableOf(tokenEnv: string, label: string): string {
  return /^[A-Z_][A-Z0-9_]*$/.test(tokenEnv)
    ? tokenEnv
    : `the variable named by the tokenEnv of ${label} (not quoted: it may be the token)`;
}

/**
 * What the system, a shell or a CI runner sets, and the credentials of cloud, registry and CI tools. A targets file
 * chooses both a URL and the variable whose value is sent to it: one from a pull request must not pick these.
 */
const SYSTEM_VARIABLES = new Set(
  [
    'HOME PATH USER USERNAME LOGNAME SHELL PWD OLDPWD HOSTNAME TMPDIR TEMP TMP LANG TERM MAIL EDITOR VISUAL DISPLAY IFS PS1',
    'NODE_OPTIONS GH_TOKEN NPM_TOKEN NODE_AUTH_TOKEN VAULT_TOKEN CODECOV_TOKEN SONAR_TOKEN SYSTEM_ACCESSTOKEN HEROKU_API_KEY',
  ]
    .join(' ')
    .split(' '),
);
const SYSTEM_PREFIXES = [
  'ACTIONS_ GITHUB_ RUNNER_ CI_ GITLAB_ BUILDKITE_ CIRCLE_ TRAVIS_ JENKINS_ BITBUCKET_ AWS_ AZURE_ ARM_ GOOGLE_ GCP_ GCLOUD_',
  'CLOUDSDK_ DIGITALOCEAN_ CLOUDFLARE_ DOCKER_ KUBE NPM_CONFIG_ SSH_ GPG_ LC_ XDG_ LD_ DYLD_',
]
  .join(' ')
  .split(' ');

/** Whether a tokenEnv names a variable of the system or the CI (names are compared in upper case, as Windows does). */
function isSystemVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return SYSTEM_VARIABLES.has(upper) || SYSTEM_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** The token of a target, read from the variable its tokenEnv names: one the system or the CI sets is refused. */
function targetToken(raw: TargetFileEntry, label: string, config: Config, lookup: (name: string) => string | undefined): string {
  const variable = variableOf(raw.tokenEnv, label);
  if (isSystemVariable(raw.tokenEnv) && !config.allowTokenEnv.includes(raw.tokenEnv)) {
    const name = variable === raw.tokenEnv ? raw.tokenEnv : 'NAME';
    throw new ConfigError(
      'CONFIG_INVALID',
      `${label}: tokenEnv names ${variable === raw.tokenEnv ? raw.tokenEnv : 'a variable'} that the system or the CI sets, so its value is not sent as an API token`,
      `Name the variable that holds this target's token (e.g. PROD_TOKEN); if ${name} really holds it, pass --allow-token-env ${name}`,
    );
  }
  const found = lookup(raw.tokenEnv);
  const token = found
    ? apiToken(found, { name: `the token of ${label}`, example: `${variable} in the environment or in .env`, tokens: [] })
    : undefined;
  if (!token) {
    throw new ConfigError(
      'CONFIG_MISSING_TOKEN',
      `no API token for ${label}: ${variable} is not set`,
      `Set ${variable} in the environment or in .env, or correct tokenEnv in the targets file`,
    );
  }
  return token;
}

function entryOf(raw: TargetFileEntry, config: Config, lookup: (name: string) => string | undefined): TargetEntry {
  const label = `target "${raw.name}"`;
  const token = targetToken(raw, label, config, lookup);
  const secrets: Secrets = {
    tokens: [token, config.token, config.compareToken],
    passwords: [config.password],
    passphrases: [config.keyPassphrase, raw.keyPassphrase === undefined ? undefined : String(raw.keyPassphrase)],
  };
  const options: TargetOptions = {
    password: SETTINGS.password.parse(config.password, flagPlace(SETTINGS.password, [token])),
    statusId: config.statusId,
    lang: config.lang,
    missingLang: config.missingLang,
    strict: config.strict,
    timeoutMs: config.timeoutMs,
    maxRequests: config.maxRequests,
    ...(config.profile === undefined ? {} : { profile: config.profile }),
    repeat: 1,
    deadlineMs: config.deadlineMs,
    concurrency: config.concurrency,
    ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
    ca: config.ca,
    insecure: config.insecure,
    cert: config.cert,
    key: config.key,
    keyPassphrase: config.keyPassphrase,
    ...ownSettings(raw, label, token, secrets),
  };
  checkLocalesDiffer(options, (name) => name, `${label}: `);
  // The run's own pair was checked with the flags; a target that sets either has a pair of its own to check.
  if (raw.cert !== undefined || raw.key !== undefined)
    options.key = checkClientIdentity(
      options,
      (name) => (name === 'keyPassphrase' ? `--${SETTINGS.keyPassphrase.flag}` : name),
      `${label}: `,
    );
  const baseUrl = parseSetting(SETTINGS.baseUrl.parse, raw.baseUrl, targetPlace(SETTINGS.baseUrl, 'baseUrl', label, [token]), secrets);
  return { name: raw.name, baseUrl, tokenEnv: raw.tokenEnv, token, options };
}

/** The settings a target's entry sets for itself, each read by the parser the flag goes through, within the same bounds. */
function ownSettings(raw: TargetFileEntry, label: string, token: string, secrets: Secrets): Partial<Config> {
  const own: Partial<Record<keyof Config, unknown>> = {};
  for (const name of PER_TARGET) {
    const value = raw[name];
    const spec: Setting<unknown> = SETTINGS[name];
    if (value !== undefined) own[name] = parseSetting(spec.parse, String(value), targetPlace(spec, name, label, [token]), secrets);
  }
  return own as Partial<Config>;
}

/** Reads --targets: every target valid, names unique, every token present, or one ConfigError before any request. */
export function loadTargets(config: Config, env: Record<string, string | undefined> = process.env, dotenvPath = '.env'): TargetEntry[] {
  if (config.targets === undefined) return [];
  const data = readCheckedFile(config.targets, TARGETS_FILE);
  const list = Array.isArray(data) ? data : data.targets;
  const seen = new Set<string>();
  for (const { name } of list) {
    // Report folders are named after targets; some file systems ignore case.
    if (seen.has(name.toLowerCase())) {
      throw fileRefusal(config.targets, TARGETS_FILE)(`names "${name}" twice`, 'Give every target its own name');
    }
    seen.add(name.toLowerCase());
  }
  const lookup = variableLookup(env, dotenvPath);
  return list.map((raw) => entryOf(raw, config, lookup));
}
