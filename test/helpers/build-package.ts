import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIGEST_FILE, buildIsCurrent, sourceDigest } from '../../bin/source-digest.js';
import { bundleCli } from '../../scripts/generate/bundle-cli.js';
import { COMPILED_CLI, repoRoot } from './run-cli.js';

/** The compiler settings of the package, which `npm run build` (prepack) compiles with too. */
export const PACKAGE_TSCONFIG = 'tsconfig.build.json';
/**
 * The compiler's record of that build (tsBuildInfoFile in tsconfig.build.json): kept outside dist/, so the package never
 * ships it; a build with nothing changed compiles nothing, and the type check (tsc -b) reads this build, not the source.
 */
const BUILD_INFO = join(repoRoot, 'node_modules', '.cache', 'ticketing-conformance', 'dist.tsbuildinfo');

/**
 * Vitest's global setup: compiles dist/ and bundles its command line once, as the package ships them, before any file
 * runs. The real CLI the
 * self-tests start is that compiled one (a start from source spends half a second more of CPU in the TypeScript
 * loader), and the packed tarball is made from it.
 */
export default async function buildPackage(): Promise<void> {
  // Built from the source as it is: nothing to do, and nothing rewritten under a command that runs from dist/ meanwhile.
  if (existsSync(COMPILED_CLI) && buildIsCurrent(repoRoot)) return;
  const digest = sourceDigest(repoRoot);
  // tsc trusts its build information: outputs deleted since (npm run build starts afresh) must be written again.
  if (!existsSync(COMPILED_CLI)) rmSync(BUILD_INFO, { force: true });
  execFileSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '--build', PACKAGE_TSCONFIG], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  await bundleCli(join(repoRoot, 'dist'));
  // The digest of the source compiled, taken before the compiler ran: a checkout's bin runs this build while it holds.
  writeFileSync(join(repoRoot, DIGEST_FILE), `${digest}\n`);
}
