import { constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { appendFile, lstat, mkdir, open, readFile, realpath, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { createSecretScanner, isClearedBy, type ClearedText, type SecretScanner } from '../secrets/scanner.js';
import { environmentError, HarnessError, leakError, type RunError } from '../errors.js';

/**
 * The one way any command puts a file on disk (a run, a matrix, --compare-to, merge, judge, history, baseline): each
 * file is scanned once, by one scanner for every secret the command knows, in every form a target could echo it (raw,
 * any letter case, base64, hex, URL-encoded, JSON, HTML and XML escapes, near misses) and for any Authorization value.
 * A file that holds one is refused, with the leak error, and the others are still written.
 */

/**
 * The list, in each output folder, of the files the suite wrote there. The next run removes those and nothing else:
 * allure-results/ is shared with other tools, and compare-to/ keeps a list of its own.
 */
export const MANIFEST = '.ticketing-conformance-outputs.json';

/**
 * A file to write: its path inside the folder ("/" between segments), and its text or bytes, or a text the command's
 * scanner already cleared (report.json, screened by the build that made it).
 */
export interface Artifact {
  name: string;
  content: string | Uint8Array | ClearedText;
}

declare const screenedMark: unique symbol;
/** A file the writer's scanner has read and found free of every secret: the only kind that reaches the disk. */
export type ScreenedArtifact = { name: string; content: string | Uint8Array } & { readonly [screenedMark]: true };

export interface Screening {
  passed: ScreenedArtifact[];
  /** One leak error per refused file, naming the file and what it held, never the secret itself. */
  refused: RunError[];
}

const isClearedText = (content: Artifact['content']): content is ClearedText =>
  typeof content === 'object' && !(content instanceof Uint8Array);

/** The scanner of a command's secrets; with none (history, merge, baseline, judge) it still finds Authorization values. */
export const artifactScanner = (secrets: readonly string[]): SecretScanner => createSecretScanner(secrets);

/**
 * Scans each file once, unless this scanner already cleared its text; label names a refused file in its error (a
 * section of a file, a path outside the folder).
 */
export function screenArtifacts(files: readonly Artifact[], scanner: SecretScanner, label = (name: string) => name): Screening {
  const passed: ScreenedArtifact[] = [];
  const refused: RunError[] = [];
  for (const { name, content } of files) {
    const written = isClearedText(content) ? (content.bytes ?? content.text) : content;
    const secret =
      isClearedText(content) && isClearedBy(content, scanner)
        ? undefined
        : scanner.find(typeof written === 'string' ? written : Buffer.from(written).toString('utf8'));
    if (secret) refused.push(leakError(label(name), secret));
    else passed.push({ name, content: written } as ScreenedArtifact);
  }
  return { passed, refused };
}

/** A view of a model: its file name and how it is rendered. */
export type View<M> = readonly [name: string, render: (model: M) => Artifact['content']];

interface Manifest {
  /** Paths relative to the folder, with "/" between segments. */
  files: string[];
  /** Folders the suite made; removed only once empty. */
  folders: string[];
}

/** The list's entries, from its text if there is one. */
function manifestOf(text: string | undefined): Manifest {
  // No list (a first run, or a folder written by an older suite): nothing is known to be ours, with no parse that throws.
  if (text === undefined) return { files: [], folders: [] };
  try {
    const parsed = JSON.parse(text) as Partial<Manifest>;
    const paths = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
    return { files: paths(parsed.files), folders: paths(parsed.folders) };
  } catch {
    // An unreadable list: nothing is known to be ours.
    return { files: [], folders: [] };
  }
}

async function readManifest(folder: string): Promise<Manifest> {
  return manifestOf(await readFile(join(folder, MANIFEST), 'utf8').catch(() => undefined));
}

/**
 * The text of the list with files and folders (paths relative to the folder) added, so the next run removes exactly
 * those; null when nothing is on it, so a folder the suite left empty stays empty. It holds only the names of files
 * the writer itself put there.
 */
function listText(earlier: Manifest, files: readonly string[], folders: readonly string[]): string | null {
  const list: Manifest = {
    files: [...new Set([...earlier.files, ...files])],
    folders: [...new Set([...earlier.folders, ...folders])],
  };
  return list.files.length === 0 && list.folders.length === 0 ? null : `${JSON.stringify(list, null, 2)}\n`;
}

/** Adds files and folders (paths relative to the folder, "/" between segments) to the folder's list. */
export async function listOwnOutputs(folder: string, files: readonly string[], folders: readonly string[] = []): Promise<void> {
  const text = listText(await readManifest(folder), files, folders);
  if (text !== null) await writeFile(join(folder, MANIFEST), text);
}

/**
 * The absolute path of an entry of the list, or undefined when it would leave the folder (a hand-edited list). The
 * folders' real paths are looked up once for a whole list: most entries share a few folders (allure-results/ above all).
 */
function insideOf(folder: string): (entry: string) => Promise<string | undefined> {
  const realPaths = new Map<string, Promise<string>>();
  const realPathOf = (path: string): Promise<string> => {
    let found = realPaths.get(path);
    if (!found) {
      found = realpath(path);
      // Awaited by each entry that needs it; a folder that is not there is one entry left alone, not an error here.
      found.catch(() => undefined);
      realPaths.set(path, found);
    }
    return found;
  };
  return async (entry) => {
    const path = normalize(entry.split('/').join(sep));
    if (path === '.' || isAbsolute(path) || path === '..' || path.startsWith(`..${sep}`)) return undefined;
    const full = join(folder, path);
    try {
      // The folder holding it must be the output folder or below it, not a link to somewhere else.
      const [root, parent] = await Promise.all([realPathOf(folder), realPathOf(dirname(full))]);
      const below = relative(root, parent);
      return below === '' || (!below.startsWith('..') && !isAbsolute(below)) ? full : undefined;
    } catch {
      return undefined;
    }
  };
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}

/**
 * Removes what the suite wrote in the folder the last time (the files of its list, then its folders left empty), except
 * the files named in keep (a recording being judged again), which stay on the list.
 */
export async function clearOwnOutputs(folder: string, keep: readonly string[] = []): Promise<void> {
  const manifest = await readManifest(folder);
  const inside = insideOf(folder);
  // Several at once, as they were written: a run's hundred files one after another kept the first request waiting.
  await eachAtOnce(
    manifest.files.filter((file) => !keep.includes(file)),
    async (entry) => {
      const path = await inside(entry);
      if (!path) return;
      const stats = await lstat(path).catch(() => undefined);
      // A file or a link to one is unlinked; the link's target is left alone. One removed meanwhile (another run into
      // the same folder clearing it too) is what was wanted.
      if (stats && (stats.isFile() || stats.isSymbolicLink())) await unlink(path).catch(ignoreMissing);
    },
  );
  const deepestFirst = [...manifest.folders].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const entry of deepestFirst) {
    const path = await inside(entry);
    // rmdir refuses a folder that is not empty: whatever another tool put there stays.
    if (path) await rmdir(path).catch(() => undefined);
  }
  await unlink(join(folder, MANIFEST)).catch(() => undefined);
  const kept = manifest.files.filter((file) => keep.includes(file));
  if (kept.length > 0) await listOwnOutputs(folder, kept);
}

export interface PutOptions {
  /**
   * Whether the files go on the folder's list, which the next run into the folder removes (true for a command's
   * reports; false for history.html, which a later run into the same folder leaves alone).
   */
  listed?: boolean;
  /**
   * The folder was made by this command, and holds only what the command put there and listed: nothing to clear, and
   * each file is created, never written over or through what is there.
   */
  newFolder?: boolean;
  /**
   * Files and folders the command wrote in the folder besides these (paths relative to it, "/" between segments), put
   * on its list with them: a matrix's new target folders, whose files are on no list of their own.
   */
  alsoListed?: { files: readonly string[]; folders: readonly string[] };
}

/** Whether nothing is at the path, so a folder made there is new: it holds no earlier run's files and no list. */
export async function isAbsent(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Files written or removed at once: enough to keep the file system busy, few enough to stay far from any open-file limit. */
const FILES_AT_ONCE = 16;

/**
 * Does the job for every item, a few at once: a run writes and removes a hundred small files (Allure's above all), each
 * mostly waiting on the file system. Every job settles before the first failure is told, so nothing is still under way
 * when the caller goes on.
 */
async function eachAtOnce<T>(items: readonly T[], job: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) await job(items[index] as T, index);
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(FILES_AT_ONCE, items.length) }, worker));
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The subfolders the files' names hold ("/" between segments), each once. */
function subfolders(files: readonly ScreenedArtifact[]): string[] {
  return [...new Set(files.map(({ name }) => dirname(name)))].filter((parent) => parent !== '.');
}

/**
 * The subfolders mkdir made on the way to parent, from the first it made (what a recursive mkdir returns) down: each is
 * listed, so the next run removes it once empty; one that was there stays.
 */
function foldersMade(folder: string, parent: string, firstMade: string | undefined): string[] {
  if (firstMade === undefined) return [];
  const segments = parent.split('/');
  const above = relative(folder, firstMade).split(sep).length - 1;
  return segments.slice(above).map((_, index) => segments.slice(0, above + index + 1).join('/'));
}

/**
 * Writes files that passed the screen into the folder (made if missing, with any subfolder a name holds) and adds them
 * to the folder's list. Returns the paths written, in order.
 */
export async function putArtifacts(
  folder: string,
  files: readonly ScreenedArtifact[],
  { listed = true, newFolder = false, alsoListed }: PutOptions = {},
): Promise<string[]> {
  if (newFolder) return putInNewFolder(folder, files, listed);
  await mkdir(folder, { recursive: true });
  const made: string[] = [];
  for (const parent of subfolders(files)) made.push(...foldersMade(folder, parent, await mkdir(join(folder, parent), { recursive: true })));
  const written = files.map(({ name }) => join(folder, ...name.split('/')));
  await eachAtOnce(files, (file, index) => writeFile(written[index] ?? '', file.content));
  if (listed)
    await listOwnOutputs(
      folder,
      [...files.map((file) => file.name), ...(alsoListed?.files ?? [])],
      [...made, ...(alsoListed?.folders ?? [])],
    );
  return written;
}

/**
 * Creates a file, never writing over or through what is there. The encoding named, Node writes a text from C++ as it
 * encodes it; without one it first copies the text into a Buffer of its own, garbage as soon as it is written.
 */
const CREATE = { flag: 'wx', encoding: 'utf8' } as const;

/**
 * Writes files into a folder the command made, and its list, one after another with the calls that wait: each file is
 * created where nothing is (so never through a link, into a pipe or over a file), which takes no time worth handing to
 * the thread pool, whose round trips and promises cost a fleet's busy thread more than the writing itself. The list is
 * created too; only if the command put files there before is it read and written again with them still on it.
 */
function putInNewFolder(folder: string, files: readonly ScreenedArtifact[], listed: boolean): string[] {
  mkdirSync(folder, { recursive: true });
  const made: string[] = [];
  for (const parent of subfolders(files)) made.push(...foldersMade(folder, parent, mkdirSync(join(folder, parent), { recursive: true })));
  const written = files.map(({ name, content }) => {
    const path = join(folder, ...name.split('/'));
    writeFileSync(path, content, CREATE);
    return path;
  });
  if (!listed) return written;
  const names = files.map(({ name }) => name);
  const listPath = join(folder, MANIFEST);
  const first = listText({ files: [], folders: [] }, names, made);
  if (first === null) return written;
  try {
    writeFileSync(listPath, first, CREATE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    writeFileSync(listPath, listText(manifestOf(readFileSync(listPath, 'utf8')), names, made) ?? first);
  }
  return written;
}

/** Screens the files, writes those that pass, and names those refused: the whole job for a command with one pass. */
export async function writeArtifacts(
  folder: string,
  files: readonly Artifact[],
  scanner: SecretScanner,
  options: PutOptions = {},
): Promise<{ written: string[]; refused: RunError[] }> {
  const { passed, refused } = screenArtifacts(files, scanner);
  return { written: await putArtifacts(folder, passed, options), refused };
}

/** Whether a file can be appended to, found by appending nothing: the error the real append would meet. */
export async function probeAppend(path: string): Promise<void> {
  await appendFile(path, '');
}

/**
 * Adds screened text to the end of a file (the comparison section of report.md, the job summary GitHub shows): the
 * file already holds only what passed the screen. A file that cannot take it is a problem of the environment.
 */

export async function appendArtifact(path: string, file: ScreenedArtifact, end = ''): Promise<void> {
  await appendFile(path, typeof file.content === 'string' ? `${file.content}${end}` : Buffer.concat([file.content, Buffer.from(end)]));
}

/** What the flags of writeNamedFile's open make a path that is no regular file fail with. */
const OPEN_REFUSALS: Record<string, string> = {
  ELOOP: 'it is a symbolic link, which is not followed',
  ENXIO: 'it is a named pipe or a device, not a regular file',
};

/**
 * Writes one file the user named (a baseline, the files of init), in a folder that must exist, screened like every
 * other: a refusal is thrown as the leak error, a path that cannot take it as a problem of the environment. Only a
 * regular file is written: never through a symbolic link (a dangling one would create its target elsewhere), never
 * into a named pipe or a device, which the open does not wait on. With a mode, the file gets it even if it existed.
 */
export async function writeNamedFile(
  path: string,
  content: string,
  scanner: SecretScanner,
  what: string,
  hint: string,
  { overwrite = true, mode }: { overwrite?: boolean; mode?: number } = {},
): Promise<void> {
  const { passed, refused } = screenArtifacts([{ name: path, content }], scanner);
  const [leak] = refused;
  if (leak) throw new HarnessError(leak.code, leak.message, leak.hint, leak.party);
  for (const file of passed) {
    // Without overwrite the file is created or nothing is written, even if another process made it meanwhile.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | (overwrite ? 0 : constants.O_EXCL);
    const handle = await open(path, flags, mode ?? 0o666).catch((problem: unknown) => {
      const reason = OPEN_REFUSALS[(problem as NodeJS.ErrnoException).code ?? ''];
      throw environmentError(`${what} cannot be written to ${path}`, reason === undefined ? problem : new Error(reason), hint);
    });
    try {
      if (!(await handle.stat()).isFile()) {
        throw environmentError(`${what} cannot be written to ${path}`, new Error('it is not a regular file'), hint);
      }
      if (mode !== undefined) await handle.chmod(mode);
      await handle.truncate(0);
      await handle.writeFile(file.content);
    } catch (problem) {
      if (problem instanceof HarnessError) throw problem;
      throw environmentError(`${what} cannot be written to ${path}`, problem, hint);
    } finally {
      await handle.close();
    }
  }
}
