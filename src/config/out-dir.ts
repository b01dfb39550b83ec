import { lstat, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigError, isSystemError, systemReason } from '../errors.js';

const HINT = 'Pass --out a folder this user can write (it is made if missing), e.g. --out reports';

function unusable(out: string, why: string): ConfigError {
  return new ConfigError('CONFIG_INVALID', `--out ${out} cannot hold the reports: ${why}`, HINT);
}

/** What stands where a folder should be, in words. */
async function whatIsAt(path: string): Promise<string> {
  const link = await lstat(path).catch(() => undefined);
  if (!link) return 'nothing';
  if (link.isSymbolicLink() && !(await stat(path).catch(() => undefined))) return 'a symbolic link to nothing';
  const target = await stat(path);
  if (target.isFile()) return 'a file';
  if (target.isCharacterDevice() || target.isBlockDevice()) return 'a device';
  return target.isDirectory() ? 'a folder' : 'not a folder';
}

/** The nearest folder up the path that exists, and what stands in the way when a part of the path is not a folder. */
async function existingAncestor(path: string): Promise<string> {
  let current = path;
  while ((await whatIsAt(current)) === 'nothing' && dirname(current) !== current) current = dirname(current);
  return current;
}

/**
 * Makes sure the output folder can take the reports before the first request is sent: it exists or can be made, is a
 * folder (not a file, a device, a dangling link, or under a file), and this user can write in it. Anything else is a
 * configuration error, said in one line.
 */
export async function prepareOutDir(out: string): Promise<void> {
  const path = resolve(out);
  const found = await whatIsAt(path);
  if (found !== 'nothing' && found !== 'a folder') throw unusable(out, `it is ${found}`);
  if (found === 'nothing') {
    const ancestor = await existingAncestor(path);
    const blocking = await whatIsAt(ancestor);
    if (blocking !== 'a folder') throw unusable(out, `${ancestor} is ${blocking}, not a folder`);
    // Made one level at a time: a recursive mkdir can spin forever under /proc.
    const missing: string[] = [];
    for (let current = path; current !== ancestor; current = dirname(current)) missing.unshift(current);
    for (const folder of missing) {
      await mkdir(folder).catch((error: unknown) => {
        if (!(isSystemError(error) && error.code === 'EEXIST')) throw unusable(out, `${folder} cannot be made: ${systemReason(error)}`);
      });
    }
  }
  const probe = resolve(path, `.write-check-${process.pid}`);
  try {
    await writeFile(probe, '');
  } catch (error) {
    throw unusable(out, `it cannot be written: ${systemReason(error)}`);
  }
  await rm(probe, { force: true });
}
