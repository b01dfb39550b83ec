import { rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { build, type Plugin } from 'esbuild';

/** Where the bundled command line goes, beside dist/src: paths.js finds the package from either folder alike. */
export const CLI_BUNDLE_DIR = 'cli';

/**
 * The parts of undici the command line never uses, by the module of undici that requires them. The index requires, for
 * its exports alone, fetch and the web's classes (Headers, Request, Response, FormData), caches, cookies, WebSocket,
 * EventSource, the mocks, the cache stores, the interceptors and handlers, the dispatchers the client does not build,
 * and the global dispatcher (an Agent the index makes as it loads; the client gives every request its own). The HTTP/1
 * and HTTP/2 client requires the HTTP/2 one, which loads Node's http2, for connections that agreed on h2, and the
 * client offers HTTP/1.1 only (allowH2: false, src/http/dispatcher.ts). Together they cost CPU just before a run's first
 * request, and the cookie helpers, by reading the global Headers, made Node compile the copy of undici it bundles.
 */
const UNDICI_PARTS_LEFT_OUT: Readonly<Record<string, readonly string[]>> = {
  'index.js': [
    './lib/web/',
    './lib/mock/',
    './lib/cache/',
    './lib/interceptor/',
    './lib/handler/',
    './lib/dispatcher/balanced-pool',
    './lib/dispatcher/round-robin-pool',
    './lib/dispatcher/retry-agent',
    './lib/dispatcher/h2c-client',
    './lib/global',
  ],
  'lib/dispatcher/client.js': ['./client-h2'],
};

/** The message a left-out part throws if anything ever uses it: a run never does. */
export const LEFT_OUT_MESSAGE = 'is left out of the bundled command line, which never uses it';

/** What a left-out part's stand-in answers when asked for this symbol: the part's path, so a self-test can tell it. */
export const LEFT_OUT_PART = 'ticketing-conformance.undici-left-out';

/**
 * The one module behind every left-out part: whatever the index reads from a part is another stand-in, so loading the
 * index works whatever the part exports (a class, a function, an object of them); calling one throws, and so does
 * reading anything from what one constructs (the index builds one object at load: caches).
 */
const STAND_IN = `const leftOut = (part, used) => { throw new Error(part + ': ' + used + ' ${LEFT_OUT_MESSAGE}'); };
const standIn = (part, name) => {
  const symbolic = (key) => (key === Symbol.for('${LEFT_OUT_PART}') ? part : undefined);
  return new Proxy(function leftOutPart() {}, {
    get: (_, key) => (typeof key === 'symbol' ? symbolic(key) : standIn(part, key)),
    apply: () => leftOut(part, name),
    construct: () => new Proxy({}, { get: (_, key) => (typeof key === 'symbol' ? symbolic(key) : leftOut(part, name + '.' + key)) }),
  });
};
module.exports = (part) => standIn(part, part.slice(part.lastIndexOf('/') + 1));
`;
const STAND_IN_PATH = 'stand-in';

/**
 * Takes from undici what the HTTP client needs: each part in UNDICI_PARTS_LEFT_OUT, where the module named requires it,
 * becomes a stand-in that loads nothing and throws when used. Only those requires are replaced: the parts the rest of
 * undici requires stay whole (the HTTP/1 client reads bodies with fetch's body mixin). A part that undici moves or
 * renames is no longer matched and is bundled as it is, so the bundle grows but still works.
 */
export function undiciWithoutUnusedParts(): Plugin {
  const undici = /[\\/]node_modules[\\/]undici[\\/](.+)$/;
  return {
    name: 'undici-without-unused-parts',
    setup(bundle) {
      bundle.onResolve({ filter: /^\.\.?\// }, ({ path, importer }) => {
        const requiring = undici.exec(importer)?.[1]?.replaceAll('\\', '/') ?? '';
        if (!UNDICI_PARTS_LEFT_OUT[requiring]?.some((part) => path.startsWith(part))) return undefined;
        return { path: `undici/${posix.join(posix.dirname(requiring), path)}`, namespace: 'undici-left-out' };
      });
      bundle.onResolve({ filter: /^stand-in$/, namespace: 'undici-left-out' }, ({ path }) => ({
        path,
        namespace: 'undici-left-out',
      }));
      bundle.onLoad({ filter: /.*/, namespace: 'undici-left-out' }, ({ path }) => ({
        loader: 'js',
        contents: path === STAND_IN_PATH ? STAND_IN : `module.exports = require('${STAND_IN_PATH}')(${JSON.stringify(path)});\n`,
      }));
    },
  };
}

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
    plugins: [undiciWithoutUnusedParts()],
    // The CommonJS packages bundled in (undici, dotenv) require Node's own modules, which an ES module reaches through
    // a require of its own.
    banner: {
      js: "import { createRequire as createBundleRequire } from 'node:module';\nconst require = createBundleRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
