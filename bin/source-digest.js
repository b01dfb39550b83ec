// What a checkout's build was made from: a digest of the TypeScript source, the specs and what decides how they are
// compiled and bundled. The build records it (dist/source-digest.txt); the bin runs the build instead of the source
// only when the two agree, so an edit takes effect at once and an unchanged checkout starts as fast as the package.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const FOLDERS = ['src', 'specs'];
const FILES = ['package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/generate/bundle-cli.ts'];
export const DIGEST_FILE = join('dist', 'source-digest.txt');

/** The digest of the source under `root`: every file's path and content, in a fixed order. */
export function sourceDigest(root) {
  const hash = createHash('sha256');
  const add = (path) => {
    let content;
    try {
      content = readFileSync(join(root, path));
    } catch {
      return; // a folder (listed with the files), or a file that went away while this ran
    }
    hash.update(`${path}\0${content.length}\0`);
    hash.update(content);
  };
  for (const folder of FOLDERS) {
    const names = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).sort();
    for (const name of names) add(join(folder, name));
  }
  for (const file of FILES) add(file);
  return hash.digest('hex');
}

/** Whether the build under `root` was made from the source as it is now. */
export function buildIsCurrent(root) {
  try {
    return readFileSync(join(root, DIGEST_FILE), 'utf8').trim() === sourceDigest(root);
  } catch {
    return false;
  }
}
