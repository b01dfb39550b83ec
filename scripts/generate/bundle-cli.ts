import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Where the bundled command line goes, beside dist/src: paths.js finds the package from either folder alike. */
export const CLI_BUNDLE_DIR = 'cli';

/**
 * Bundles the compiled command line (dist/src/cli/main.js) and everything it imports into dist/cli/, so that a run
 * loads far fewer files instead of resolving each module of the suite and of its packages one by one. The judging
 * thread is not in it: it runs the specs with Vitest's runner, a package of its own, and imports the spec engine and
 * the suite's modules from dist/src, the same modules the specs import.
 * What a command loads only when asked for (another subcommand, the exporter, a matrix) stays a chunk of its own, loaded
 * as late as before. Every chunk sits in the one folder, one level under dist/, where paths.js expects itself.
 */
export async function bundleCli(dist: string): Promise<void> {
  const outdir = join(dist, CLI_BUNDLE_DIR);
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [join(dist, 'src', 'cli', 'main.js')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    external: ['vitest', 'vitest/*'],
    // The CommonJS packages bundled in (undici, dotenv) require Node's own modules, which an ES module reaches through
    // a require of its own.
    banner: {
      js: "import { createRequire as createBundleRequire } from 'node:module';\nconst require = createBundleRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
