import { join } from 'node:path';
import buildPackage from '../../test/helpers/build-package.js';

export const root = join(import.meta.dirname, '..', '..');
/** The compiled CLI, as the installed package runs it: the bundle. */
export const compiledCli = join(root, 'dist', 'cli', 'main.js');

/** Compiles src/ and specs/ into dist/ and bundles the CLI (npm run build's steps), so the benches measure what users run. */
export async function compile(): Promise<void> {
  await buildPackage();
}
