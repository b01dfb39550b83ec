/** Every setting: its flag, its environment variable and its default, in one table for parsing and --help. */
export interface OptionSpec {
  flag: string;
  env?: string;
  kind: 'string' | 'boolean';
  /** A one-letter alias, as in -h. */
  short?: string;
  default?: string;
  help: string;
}

export const OPTIONS = {
  baseUrl: {
    flag: 'base-url',
    env: 'CONFORMANCE_BASE_URL',
    kind: 'string',
    help: 'address the API is served at; without it the embedded reference server is tested',
  },
  token: {
    flag: 'token',
    env: 'CONFORMANCE_TOKEN',
    kind: 'string',
    help: 'API token, sent as the Basic user name; never printed or written',
  },
  password: {
    flag: 'password',
    env: 'CONFORMANCE_PASSWORD',
    kind: 'string',
    default: 'x',
    help: 'Basic password sent with the token (the API ignores it)',
  },
  statusId: {
    flag: 'status-id',
    env: 'CONFORMANCE_STATUS_ID',
    kind: 'string',
    default: '1',
    help: 'id of a ticket status to read, ideally one with a translation',
  },
  lang: {
    flag: 'lang',
    env: 'CONFORMANCE_LANG',
    kind: 'string',
    help: "locale with a translation (default: the first in the status' translations named unlike the default)",
  },
  missingLang: {
    flag: 'missing-lang',
    env: 'CONFORMANCE_MISSING_LANG',
    kind: 'string',
    help: 'two-letter code with no translation (default: one absent from translations)',
  },
  out: {
    flag: 'out',
    env: 'CONFORMANCE_OUT',
    kind: 'string',
    default: 'reports',
    help: 'folder for report.json, report.md, report.html, junit.xml, ctrf.json, badge.svg and allure-results/',
  },
  strict: {
    flag: 'strict',
    env: 'CONFORMANCE_STRICT',
    kind: 'boolean',
    help: 'SHOULD failures (and, with --profile, CLIENT failures) also fail the run',
  },
  profile: {
    flag: 'profile',
    env: 'CONFORMANCE_PROFILE',
    kind: 'string',
    help: "official-client: also judge what the vendor's PHP client would make of the answers (one more GET; gates only with --strict)",
  },
  timeoutMs: {
    flag: 'timeout-ms',
    env: 'CONFORMANCE_TIMEOUT_MS',
    kind: 'string',
    default: '10000',
    help: 'time-out of each phase of a request (connect, headers, body), in milliseconds',
  },
  maxRequests: {
    flag: 'max-requests',
    env: 'CONFORMANCE_MAX_REQUESTS',
    kind: 'string',
    default: '40',
    help: 'most requests the whole invocation may send to the target, --repeat runs included (default: 40 a run)',
  },
  repeat: {
    flag: 'repeat',
    env: 'CONFORMANCE_REPEAT',
    kind: 'string',
    default: '1',
    help: 'run the suite N times; a requirement whose verdict changes is flaky',
  },
  quiet: { flag: 'quiet', kind: 'boolean', help: 'print only the verdict line' },
  verbose: { flag: 'verbose', kind: 'boolean', help: 'also print every request made (credentials redacted)' },
  help: { flag: 'help', short: 'h', kind: 'boolean', help: 'show this help (also -h, or the help command)' },
  version: { flag: 'version', short: 'v', kind: 'boolean', help: 'print the version (also -v)' },
  compareTo: {
    flag: 'compare-to',
    env: 'CONFORMANCE_COMPARE_TO',
    kind: 'string',
    help: 'a second server to run the same checks against and report where the two differ',
  },
  compareToken: {
    flag: 'compare-token',
    env: 'CONFORMANCE_COMPARE_TOKEN',
    kind: 'string',
    help: 'API token of the --compare-to server; never printed or written',
  },
  deadlineMs: {
    flag: 'deadline-ms',
    env: 'CONFORMANCE_DEADLINE_MS',
    kind: 'string',
    default: '60000',
    help: 'time the whole run may take, in milliseconds; then it stops and reports what it learned',
  },
  concurrency: {
    flag: 'concurrency',
    env: 'CONFORMANCE_CONCURRENCY',
    kind: 'string',
    default: '16',
    help: 'most requests in flight at once (16 lets the whole first round of requests go out together)',
  },
  ca: {
    flag: 'ca',
    env: 'CONFORMANCE_CA',
    kind: 'string',
    help: "PEM file of the CA certificate(s) to trust for the target's TLS certificate, instead of the system's",
  },
  insecure: {
    flag: 'insecure',
    env: 'CONFORMANCE_INSECURE',
    kind: 'boolean',
    help: 'do not verify the TLS certificate (warned about in the terminal and the report)',
  },
  targets: {
    flag: 'targets',
    env: 'CONFORMANCE_TARGETS',
    kind: 'string',
    help: 'JSON or YAML file of targets (name, baseUrl, tokenEnv, options) to test as one matrix',
  },
  allowTokenEnv: {
    flag: 'allow-token-env',
    env: 'CONFORMANCE_ALLOW_TOKEN_ENV',
    kind: 'string',
    help: 'with --targets: variables (comma-separated) a tokenEnv may name although the system or the CI sets them (HOME, GITHUB_TOKEN, AWS_...)',
  },
  targetConcurrency: {
    flag: 'target-concurrency',
    env: 'CONFORMANCE_TARGET_CONCURRENCY',
    kind: 'string',
    default: '4',
    help: 'with --targets: most targets tested at once',
  },
  shard: {
    flag: 'shard',
    env: 'CONFORMANCE_SHARD',
    kind: 'string',
    help: 'with --targets: test only shard I of N (I/N, e.g. 2/4); merge the shards with the merge command',
  },
  baseline: {
    flag: 'baseline',
    env: 'CONFORMANCE_BASELINE',
    kind: 'string',
    help: 'JSON or YAML file of known failures (requirement, reason, owner, expires) that do not fail the run before expiry',
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

export function helpText(version: string): string {
  const rows = Object.values(OPTIONS).map((spec: OptionSpec) => {
    const left = `  --${spec.flag}${spec.kind === 'string' ? ' VALUE' : ''}`;
    const extra = [spec.env ? `env ${spec.env}` : '', spec.default !== undefined ? `default ${spec.default}` : '']
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
    '       ticketing-conformance doctor|verify|baseline|compare|merge|history|exporter|judge ... (each with --help)',
    '',
    'Options (flags beat environment variables, which beat a .env file in the current folder):',
    ...rows,
    '',
    'Exit codes: 0 conformant, 1 not conformant, 2 could not judge (configuration, network, suite error).',
  ].join('\n');
}
