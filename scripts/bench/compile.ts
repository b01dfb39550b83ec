import { join } from 'node:path';
import { sourceDigest } from '../../bin/source-digest.js';
import { bundleCli } from '../generate/bundle-cli.js';
import { measure } from './process-stats.js';

export const root = join(import.meta.dirname, '..', '..');
/** The compiled CLI, as the installed package runs it: the bundle. */
export const compiledCli = join(root, 'dist', 'cli', 'main.js');

/** Compiles src/ and specs/ into dist/ and bundles the CLI (npm run build's steps), so the benches measure what users run. */
export async function compile(): Promise<void> {
  const digest = sourceDigest(root);
  const build = await measure(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
    {
      cwd: root,
    },
  );
  if (build.code !== 0) throw new Error(`the compile failed:\n${build.stdout.slice(-2000)}\n${build.stderr.slice(-2000)}`);
  await bundleCli(join(root, 'dist'), digest);
}
