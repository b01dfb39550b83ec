import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getAsset } from 'node:sea';
import { pathToFileURL } from 'node:url';
import { Script, constants } from 'node:vm';

/**
 * The main script of the single-file executable (npm run build:executable). Node runs it as one CommonJS script that
 * can require only Node's own modules, so the suite itself travels as assets: the package's files as the package
 * ships them, the judging thread and the specs bundled. They are written once to a folder only this user can open,
 * named by their digest, and run from there as they run from an installed package.
 */

/** What the build embeds beside the files: the version, the digest of every file, and their paths. */
interface Manifest {
  version: string;
  digest: string;
  files: string[];
  entry: string;
}

const PRIVATE = 0o700;

/** A folder of ours, and no one else's to write in or read from: never a link someone left to lead us elsewhere. */
function isPrivate(path: string): boolean {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return !!stat && stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
}

function privateFolder(path: string): string | undefined {
  try {
    mkdirSync(path, { recursive: true, mode: PRIVATE });
  } catch {
    return undefined;
  }
  return isPrivate(path) ? path : undefined;
}

/** Where the files go: the user's cache folder, or a folder of the user's own in the temp folder when there is none. */
function cacheRoot(): string {
  const home = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const candidates = [join(home, 'ticketing-conformance'), join(tmpdir(), `ticketing-conformance-${process.getuid?.() ?? 'user'}`)];
  for (const candidate of candidates) {
    const folder = privateFolder(candidate);
    if (folder) return folder;
  }
  throw new Error(
    `none of ${candidates.join(', ')} could be made a folder only you can open; remove the one that exists or set XDG_CACHE_HOME`,
  );
}

/** Writes the files to a fresh folder and moves it into place whole, so that a folder in place is always complete. */
function unpack(manifest: Manifest): string {
  const root = cacheRoot();
  const target = join(root, `${manifest.version}-${manifest.digest.slice(0, 16)}`);
  if (isPrivate(target)) return target;
  const staging = mkdtempSync(join(root, '.unpacking-'));
  const digest = createHash('sha256');
  for (const file of manifest.files) {
    const content = new Uint8Array(getAsset(file));
    digest.update(file).update(content);
    mkdirSync(dirname(join(staging, file)), { recursive: true, mode: PRIVATE });
    writeFileSync(join(staging, file), content, { mode: 0o600 });
  }
  if (digest.digest('hex') !== manifest.digest) throw new Error('the files embedded in this executable are damaged');
  try {
    renameSync(staging, target);
  } catch (error) {
    // Another start of the executable moved the same files into place first.
    rmSync(staging, { recursive: true, force: true });
    if (!isPrivate(target)) throw error;
  }
  return target;
}

function start(): void {
  const manifest = JSON.parse(getAsset('manifest.json', 'utf8')) as Manifest;
  let folder: string;
  try {
    folder = unpack(manifest);
  } catch (error) {
    process.stderr.write(`ticketing-conformance: could not unpack the suite: ${(error as Error).message}\n`);
    process.exit(2);
  }
  // V8 keeps what it compiled beside the files and reuses it on the next start, as the package's bin asks.
  (module as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache?.(join(folder, '.compile-cache'));
  // Node repeats the executable's name as the second argument; the command line reads its own from the third on, as
  // when Node runs a script, and the script is this one.
  process.argv[1] = join(folder, manifest.entry);
  // The script Node runs here may import nothing but Node's own modules; one compiled with the main loader may.
  const entry = pathToFileURL(join(folder, manifest.entry)).href;
  const load = new Script(`import(${JSON.stringify(entry)})`, { importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  // Node warns that this way of loading is experimental, a warning about the executable's making, not for its user.
  const emitWarning = process.emitWarning.bind(process);
  process.emitWarning = () => undefined;
  const loaded = load.runInThisContext() as Promise<unknown>;
  process.emitWarning = emitWarning;
  loaded.catch((error: unknown) => {
    process.stderr.write(`ticketing-conformance: could not start: ${(error as Error).message}\n`);
    process.exit(2);
  });
}

start();
