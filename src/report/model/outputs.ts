import { lstat, readFile, realpath, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';

export const ALLURE_DIR = 'allure-results';
export const COMPARISON_FILE = 'comparison.json';
/** Where a differential run writes the reports of its --compare-to server. */
export const COMPARE_DIR = 'compare-to';
/** What a run learned from the target, written beside the reports: the suite's own format, and HAR 1.2. */
export const RECORDING_FILE = 'recording.json';
export const HAR_FILE = 'recording.har';
export const RECORDING_OUTPUTS = [RECORDING_FILE, HAR_FILE];
/**
 * The list, in each output folder, of the files the suite wrote there. The next run removes those and nothing else:
 * allure-results/ is shared with other tools, and compare-to/ keeps a list of its own.
 */
export const MANIFEST = '.ticketing-conformance-outputs.json';

interface Manifest {
  /** Paths relative to the folder, with "/" between segments. */
  files: string[];
  /** Folders the suite made; removed only once empty. */
  folders: string[];
}

async function readManifest(outDir: string): Promise<Manifest> {
  try {
    const parsed = JSON.parse(await readFile(join(outDir, MANIFEST), 'utf8')) as Partial<Manifest>;
    const paths = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
    return { files: paths(parsed.files), folders: paths(parsed.folders) };
  } catch {
    // No list (a first run, or a folder written by an older suite) or an unreadable one: nothing is known to be ours.
    return { files: [], folders: [] };
  }
}

/** The absolute path of an entry of the list, or undefined when it would leave the folder (a hand-edited list). */
async function inside(outDir: string, entry: string): Promise<string | undefined> {
  const path = normalize(entry.split('/').join(sep));
  if (path === '.' || isAbsolute(path) || path === '..' || path.startsWith(`..${sep}`)) return undefined;
  const full = join(outDir, path);
  try {
    // The folder holding it must be the output folder or below it, not a link to somewhere else.
    const [root, parent] = await Promise.all([realpath(outDir), realpath(dirname(full))]);
    const below = relative(root, parent);
    return below === '' || (!below.startsWith('..') && !isAbsolute(below)) ? full : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes what the suite wrote in outDir the last time (the files of its list, then its folders left empty), except the
 * files named in keep (a recording being judged again), which stay on the list.
 */
export async function clearOwnOutputs(outDir: string, keep: readonly string[] = []): Promise<void> {
  const manifest = await readManifest(outDir);
  for (const entry of manifest.files.filter((file) => !keep.includes(file))) {
    const path = await inside(outDir, entry);
    if (!path) continue;
    const stats = await lstat(path).catch(() => undefined);
    // A file or a link to one is unlinked; the link's target is left alone.
    if (stats && (stats.isFile() || stats.isSymbolicLink())) await unlink(path);
  }
  const deepestFirst = [...manifest.folders].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const entry of deepestFirst) {
    const path = await inside(outDir, entry);
    // rmdir refuses a folder that is not empty: whatever another tool put there stays.
    if (path) await rmdir(path).catch(() => undefined);
  }
  await unlink(join(outDir, MANIFEST)).catch(() => undefined);
  const kept = manifest.files.filter((file) => keep.includes(file));
  if (kept.length > 0)
    await recordOwnOutputs(
      outDir,
      kept.map((file) => join(outDir, file)),
    );
}

/** Adds files (and folders the suite made) written in outDir to its list, so the next run can remove exactly those. */
export async function recordOwnOutputs(outDir: string, files: string[], folders: string[] = []): Promise<void> {
  const manifest = await readManifest(outDir);
  const entry = (path: string): string => relative(outDir, path).split(sep).join('/');
  const list: Manifest = {
    files: [...new Set([...manifest.files, ...files.map(entry)])],
    folders: [...new Set([...manifest.folders, ...folders.map(entry)])],
  };
  // Nothing written, nothing to list: a folder the suite left empty stays empty.
  if (list.files.length === 0 && list.folders.length === 0) return;
  await writeFile(join(outDir, MANIFEST), `${JSON.stringify(list, null, 2)}\n`);
}
