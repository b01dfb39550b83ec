import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { fileResources } from '../helpers/file-resources.js';
import { repoRoot } from '../helpers/run-cli.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';
import { userEnv } from '../helpers/user-env.js';

const { tempFolder } = fileResources();

function exec(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd, env: { ...userEnv, NO_COLOR: '1' }, timeout: SAFETY_NET_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

// What a project gets from `npm install github:OWNER/ticketing-conformance`: npm clones the repository, installs its
// dependencies, runs prepare and installs what `files` lists. The clone holds the committed HEAD only.
test('installed from a git URL, the package builds through prepare and its command runs', async () => {
  const work = await tempFolder('conformance-git-install-');
  const clone = join(work, 'clone');
  const cloned = await exec('git', ['clone', '--quiet', '--depth', '1', `file://${repoRoot}`, clone], work);
  expect(cloned.code, cloned.stderr).toBe(0);
  expect(existsSync(join(clone, 'dist'))).toBe(false);

  const project = join(work, 'project');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), '{ "name": "uses-conformance", "private": true }\n');
  const install = await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${clone}`], project);
  expect(install.code, install.stderr).toBe(0);
  expect(existsSync(join(project, 'node_modules', 'ticketing-conformance', 'dist', 'src', 'cli', 'main.js'))).toBe(true);

  // No --base-url: the embedded reference server, which conforms.
  const run = await exec(join(project, 'node_modules', '.bin', 'ticketing-conformance'), ['--out', join(work, 'reports')], project);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(existsSync(join(work, 'reports', 'report.json'))).toBe(true);
});
