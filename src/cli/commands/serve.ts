import type { ParseArgsConfig } from 'node:util';
import { readCommandLine } from '../../config/command-line.js';
import { ConfigError } from '../../errors.js';
import { variants } from '../../reference-server/faults.js';
import { startReferenceServer } from '../../reference-server/server.js';
import type { CommandIo } from '../io.js';

const DEFAULT_TOKEN = 'reference-token';

const FLAGS = {
  port: { type: 'string', default: '8080' },
  host: { type: 'string', default: '127.0.0.1' },
  token: { type: 'string' },
  'path-prefix': { type: 'string' },
  fault: { type: 'string', multiple: true, default: [] as string[] },
  'latency-ms': { type: 'string', default: '0' },
} satisfies ParseArgsConfig['options'];

const usage = (): string =>
  [
    'Usage: ticketing-conformance serve [--port 8080] [--host 127.0.0.1] [--token TOKEN] [--path-prefix /support] [--fault NAME ...] [--latency-ms N]',
    '',
    'Runs the reference server: it follows the API document, or breaks it on purpose with --fault (repeatable).',
    `Without --token the token is "${DEFAULT_TOKEN}". --port 0 picks a free port.`,
    '',
    'Faults (break a rule) and quirks (unusual but conformant):',
    ...variants.map((variant) => `  ${variant.name.padEnd(32)} ${variant.kind}: ${variant.summary}`),
  ].join('\n');

function readFlags(argv: string[]) {
  return readCommandLine(argv, FLAGS, { hint: 'Run serve --help', command: 'serve', positionals: false }).values;
}

function wholeNumber(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError('CONFIG_INVALID', `--${flag} "${raw}" is not a whole number from ${min} to ${max}`, `Pass e.g. --${flag} ${min}`);
  }
  return Number(raw);
}

function knownVariants(names: string[]): string[] {
  const known = variants.map((variant) => variant.name);
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new ConfigError('CONFIG_INVALID', `--fault "${unknown}" is not in the fault catalog`, `Valid names: ${known.join(', ')}`);
  }
  return names;
}

function pathPrefix(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\/[^?#\s]*$/.test(raw)) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--path-prefix "${raw}" is not a path`,
      'Pass a path that starts with "/", e.g. --path-prefix /support',
    );
  }
  return raw;
}

/** A port that cannot be listened on is the machine's state, not a bug: say which and what to do. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new ConfigError(
      'CONFIG_INVALID',
      `port ${port} on ${host} is already in use`,
      'Stop what listens there, or pass --port 0 to pick a free port',
    );
  }
  if (code === 'EACCES') {
    return new ConfigError(
      'CONFIG_INVALID',
      `port ${port} on ${host} needs privileges this process does not have`,
      'Pass a port above 1023, or --port 0 to pick a free one',
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new ConfigError(
      'CONFIG_INVALID',
      `${host} is not an address of this machine`,
      'Pass --host 127.0.0.1, or an address this machine has',
    );
  }
  return error;
}

/** The reference server as a standalone process, until SIGINT or SIGTERM. */
export async function serveCommand(argv: string[], io: CommandIo): Promise<number> {
  const flags = readFlags(argv);
  if (flags.help) {
    io.log(usage());
    return 0;
  }
  const faults = knownVariants(flags.fault);
  const port = wholeNumber('port', flags.port, 0, 65535);
  const server = await startReferenceServer({
    token: flags.token ?? DEFAULT_TOKEN,
    host: flags.host,
    port,
    pathPrefix: pathPrefix(flags['path-prefix']),
    variants: faults,
    latencyMs: wholeNumber('latency-ms', flags['latency-ms'], 0, 600_000),
  }).catch((error: unknown) => {
    throw listenError(error, flags.host ?? '127.0.0.1', port);
  });
  const shownToken = flags.token === undefined ? DEFAULT_TOKEN : '<API_TOKEN>';
  io.log(`Reference server at ${server.url}${faults.length > 0 ? ` with ${faults.join(', ')}` : ''}. Ctrl-C stops it.`);
  io.log(
    flags.token === undefined ? `Token: ${DEFAULT_TOKEN} (the default; choose one with --token)` : 'Token: the one given with --token',
  );
  io.log(`Try: curl -sS -u '${shownToken}:x' '${server.url}/api/ticket/status/1'`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
