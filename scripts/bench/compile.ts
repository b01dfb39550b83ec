import { join } from 'node:path';
import { measure } from './process-stats.js';

export const root = join(import.meta.dirname, '..', '..');
/** The compiled CLI, as the installed package runs it. */
export const compiledCli = join(root, 'dist', 'src', 'cli', 'main.js');

/** Compiles src/ and specs/ into dist/ (npm run build's compile step), so the benches measure what users run. */
export async function compile(): Promise<void> {
  const build = await measure(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
    {
      cwd: root,
    },
  );
  if (build.code !== 0) throw new Error(`the compile failed:\n${build.stdout.slice(-2000)}\n${build.stderr.slice(-2000)}`);
}
