import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * npm run specs -- [--recording FILE] [Vitest's own options, e.g. -t REQUIREMENT-ID, --run]
 * Runs the specs under plain Vitest against a recording (default: the reference server's, under test/fixtures/recordings/).
 */
const args = process.argv.slice(2);
const at = args.indexOf('--recording');
const env = { ...process.env };
if (at >= 0) {
  const file = args[at + 1];
  if (file === undefined || file.startsWith('-')) {
    console.error('CONFIG_INVALID: --recording needs a file. Pass the recording.json a run wrote, e.g. --recording reports/recording.json');
    process.exit(2);
  }
  env.CONFORMANCE_RECORDING = file;
  args.splice(at, 2);
}
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const child = spawn(process.execPath, [vitest, '--config', 'vitest.specs.config.ts', ...args], { stdio: 'inherit', env });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
