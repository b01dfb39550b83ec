import { readCommandLine } from '../../config/command-line.js';
import { configOf, SETTING_FLAGS, settingsOfFlags, type GivenSettings } from '../../config/load.js';
import { loadTargets } from '../../config/targets.js';
import { parseSetting, type Place, type Secrets } from '../../config/values.js';
import { ConfigError } from '../../errors.js';
import { startExporter } from '../../exporter/server.js';
import { warningLine } from '../../report/views/terminal.js';
import { isLoopback } from '../../config/warnings.js';
import type { CommandIo } from '../io.js';

const DEFAULT_LISTEN = '127.0.0.1:9116';
const DEFAULT_MIN_INTERVAL = '10s';
/** Flags of a single run or a matrix that mean nothing to an exporter, which only tests the targets of its file. */
const REFUSED = ['base-url', 'token', 'shard', 'compare-to', 'compare-token', 'baseline', 'repeat', 'out'];

const USAGE = [
  `Usage: ticketing-conformance exporter --targets FILE [--listen HOST:PORT] [--min-interval 10s] [run options]`,
  '',
  'A Prometheus exporter in the multi-target pattern: GET /probe?target=NAME tests the target NAME of the targets file',
  'and answers with ticketing_conformance_* series; GET /metrics gives the exporter its own.',
  `  --listen HOST:PORT      where to listen (default ${DEFAULT_LISTEN}: loopback only)`,
  `  --min-interval TIME     a run that finished less than this ago answers later probes of its target (default ${DEFAULT_MIN_INTERVAL}; e.g. 30s, 2m)`,
  '  --targets FILE          the targets, as for a matrix run (name, baseUrl, tokenEnv, options); tokens come from the environment',
  '  Run options such as --deadline-ms, --timeout-ms, --max-requests, --concurrency, --strict apply to every run.',
].join('\n');

/** The exporter's own flags beside the run options, read as the main command reads them. */
const FLAGS = { ...SETTING_FLAGS, listen: { type: 'string' }, 'min-interval': { type: 'string' } } as const;

function readFlags(argv: string[]): { help: boolean; listen: string; minInterval: string; settings: GivenSettings } {
  const values: Record<string, unknown> = readCommandLine(argv, FLAGS, {
    hint: USAGE.split('\n')[0] ?? '',
    command: 'exporter',
    positionals: false,
  }).values;
  const refused = REFUSED.find((flag) => values[flag] !== undefined);
  if (refused) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--${refused} does not apply to the exporter`,
      'The exporter tests the targets of --targets, one run per probe',
    );
  }
  const text = (flag: string, fallback: string): string => (typeof values[flag] === 'string' ? values[flag] : fallback);
  return {
    help: values.help === true,
    listen: text('listen', DEFAULT_LISTEN),
    minInterval: text('min-interval', DEFAULT_MIN_INTERVAL),
    settings: settingsOfFlags(values),
  };
}

/** HOST:PORT, [IPv6]:PORT or :PORT (loopback). */
export function listenAddress(raw: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(raw);
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--listen "${raw}" is not HOST:PORT`,
      `Pass e.g. --listen ${DEFAULT_LISTEN} (0.0.0.0:9116 to listen on every interface)`,
    );
  }
  return { host: match[1] ?? (match[2] || '127.0.0.1'), port };
}

/** A duration: 500ms, 30s, 2m, or a number of seconds. */
export function duration(raw: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim());
  if (!match) throw new ConfigError('CONFIG_INVALID', `--${flag} "${raw}" is not a duration`, 'Pass e.g. 30s, 2m or 500ms');
  const unit = { ms: 1, s: 1000, m: 60_000 }[match[2] ?? 's'] ?? 1000;
  return Math.round(Number(match[1]) * unit);
}

/** Serves the exporter until SIGINT or SIGTERM. */
export async function exporterCommand(argv: string[], io: CommandIo): Promise<number> {
  const flags = readFlags(argv);
  if (flags.help) {
    io.log(USAGE);
    return 0;
  }
  const config = configOf(flags.settings, io.env, io.dotenvPath);
  if (config.targets === undefined)
    throw new ConfigError('CONFIG_INVALID', 'the exporter needs --targets FILE', USAGE.split('\n')[0] ?? '');
  const targets = loadTargets(config, io.env, io.dotenvPath);
  if (targets.length === 0)
    throw new ConfigError('CONFIG_INVALID', `the targets file ${config.targets} names no target`, 'Add a target to it');
  // Read once the tokens are known, so that neither message quotes one pasted there.
  const secrets: Secrets = {
    tokens: [config.token, config.compareToken, ...targets.map((target) => target.token)],
    passwords: [config.password],
    passphrases: [config.keyPassphrase],
  };
  const place = (flag: string, example: string): Place => ({ name: `--${flag}`, example: `--${flag} ${example}`, tokens: secrets.tokens });
  const { host, port } = parseSetting(listenAddress, flags.listen, place('listen', DEFAULT_LISTEN), secrets);
  const minIntervalMs = parseSetting((raw) => duration(raw, 'min-interval'), flags.minInterval, place('min-interval', '30s'), secrets);
  // It lasts longer than any matrix: a young generation kept small would promote each probe's garbage and collect it again.
  io.beforeLongRun?.();
  const exporter = await startExporter({
    targets,
    host,
    port,
    minIntervalMs,
    defaultProbeTimeoutMs: config.deadlineMs,
  }).catch((error: unknown) => {
    throw new ConfigError(
      'CONFIG_INVALID',
      `the exporter could not listen on ${flags.listen}: ${(error as Error).message}`,
      'Choose another --listen address',
    );
  });
  if (!isLoopback(host)) {
    io.error(
      warningLine({
        code: 'EXPORTER_NOT_LOOPBACK',
        message: `the exporter listens on ${new URL(exporter.url).host}, reachable beyond this machine, and asks for no authentication: whoever reaches it can make it send requests to the targets and read their verdicts; put it behind authentication (docs/exporter.md) or listen on 127.0.0.1`,
      }),
    );
  }
  io.log(`Exporter at ${exporter.url} for ${targets.length} target(s): GET /probe?target=NAME, GET /metrics. Ctrl-C stops it.`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await exporter.close();
  return 0;
}
