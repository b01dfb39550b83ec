import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root } from './compile.js';

/**
 * Peers the bench runs that nothing else needs: installed on the bench's first call into a folder of their own under
 * node_modules/.cache, not as dev dependencies, so that `npm ci` (and CI) does not pay for them on every install.
 */
const PEERS_DIR = join(root, 'node_modules', '.cache', 'ticketing-conformance', 'bench-peers');

/** The path of `bin` in package `name` at exactly `version`, installed from the npm registry if it is not there yet. */
export async function peerTool(name: string, version: string, bin: string): Promise<string> {
  const dir = join(PEERS_DIR, `${name}-${version}`);
  const path = join(dir, 'node_modules', name, bin);
  if (existsSync(path)) return path;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "private": true }\n');
  console.error(`installing ${name}@${version} for the bench into ${dir}`);
  await new Promise<void>((resolve, reject) => {
    execFile(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${version}`],
      { cwd: dir },
      (error, _out, stderr) =>
        error ? reject(new Error(`could not install ${name}@${version} for the bench: ${stderr.trim() || error.message}`)) : resolve(),
    );
  });
  return path;
}
