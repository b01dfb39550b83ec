import { execFile } from 'node:child_process';
import { copyFile, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DIGEST_FILE, buildIsCurrent, sourceDigest } from '../bin/source-digest.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';

const { tempFolder } = fileResources();

/**
 * A checkout in miniature: the real bin, a source CLI and a built one that each say which they are, and the
 * repository's node_modules (for the TypeScript loader).
 */
async function miniCheckout(): Promise<string> {
  const root = await tempFolder('source-digest-');
  await mkdir(join(root, 'bin'));
  await mkdir(join(root, 'src', 'cli'), { recursive: true });
  await mkdir(join(root, 'specs'));
  await mkdir(join(root, 'dist', 'cli'), { recursive: true });
  for (const file of ['ticketing-conformance.js', 'source-digest.js']) await copyFile(join(repoRoot, 'bin', file), join(root, 'bin', file));
  await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(root, 'src', 'cli', 'main.ts'), "const ran: string = 'the source';\nconsole.log(ran);\n");
  await writeFile(join(root, 'specs', 'a.spec.ts'), 'export {};\n');
  await writeFile(join(root, 'dist', 'cli', 'main.js'), "console.log('the build');\n");
  await symlink(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

function bin(root: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(root, 'bin', 'ticketing-conformance.js')],
      { env: { ...process.env, CONFORMANCE_FROM_SOURCE: '', ...env }, timeout: SAFETY_NET_MS },
      (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(stdout.trim())),
    );
  });
}

test('the digest follows every file of the source, its name as its content, and the lock file', async () => {
  const root = await miniCheckout();
  const digests = [sourceDigest(root)];
  expect(sourceDigest(root)).toBe(digests[0]);
  await writeFile(join(root, 'src', 'cli', 'main.ts'), "console.log('the source, edited');\n");
  digests.push(sourceDigest(root));
  await writeFile(join(root, 'specs', 'b.spec.ts'), 'export {};\n');
  digests.push(sourceDigest(root));
  await rename(join(root, 'specs', 'b.spec.ts'), join(root, 'specs', 'c.spec.ts'));
  digests.push(sourceDigest(root));
  await writeFile(join(root, 'package-lock.json'), '{}\n');
  digests.push(sourceDigest(root));
  expect(new Set(digests).size).toBe(digests.length);
});

test('a checkout runs its build while the build was made from the source as it is, and its source otherwise', async () => {
  const root = await miniCheckout();
  // No digest: the build may be of anything.
  expect(buildIsCurrent(root)).toBe(false);
  expect(await bin(root)).toBe('the source');

  await writeFile(join(root, DIGEST_FILE), `${sourceDigest(root)}\n`);
  expect(await bin(root)).toBe('the build');
  expect(await bin(root, { CONFORMANCE_FROM_SOURCE: '1' })).toBe('the source');

  // An edit after the build: the source runs, as edited.
  await writeFile(join(root, 'src', 'cli', 'main.ts'), "console.log('the source, edited');\n");
  expect(await bin(root)).toBe('the source, edited');
});
