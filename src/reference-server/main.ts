import { parseArgs } from 'node:util';
import { variants } from './faults.js';
import { startReferenceServer } from './server.js';

const usage = `Usage: npm run reference-server -- [--port N] [--host H] [--token T] [--path-prefix /support] [--fault NAME ...] [--latency-ms N]
Faults and quirks:
${variants.map((variant) => `  ${variant.name.padEnd(32)} ${variant.kind}: ${variant.summary}`).join('\n')}`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string', default: 'reference-token' },
      'path-prefix': { type: 'string' },
      fault: { type: 'string', multiple: true, default: [] },
      'latency-ms': { type: 'string', default: '0' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const server = await startReferenceServer({
    token: values.token,
    host: values.host,
    port: Number(values.port),
    pathPrefix: values['path-prefix'],
    variants: values.fault,
    latencyMs: Number(values['latency-ms']),
  });
  console.log(
    `Reference server at ${server.url} (token: ${values.token}${values.fault.length ? `; variants: ${values.fault.join(', ')}` : ''}). Ctrl-C stops it.`,
  );
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 2;
});
