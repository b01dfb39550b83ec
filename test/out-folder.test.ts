import { chmod, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { MANIFEST } from '../src/files/artifacts.js';
import type { Report } from '../src/report/model/types.js';
import { serveHttp } from './helpers/loopback-server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { execCli, lastLine, type CliOutput } from './helpers/run-cli.js';

const TOKEN = 'out-folder-token-3c9d20';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources({ reports: REPORT_KINDS });

const folder = (): Promise<string> => tempFolder('conformance-out-');

/** Runs a command line in a folder: the real CLI there, or the command in this process (whose paths are all absolute). */
type Exec = (args: string[], cwd: string) => Promise<CliOutput>;

const list = async (dir: string): Promise<string[]> => (await readdir(dir)).sort();
const NOT_A_SUITE_BUG = /bug in the suite|HARNESS_INTERNAL|\n\s+at /;

describe('--out: a run removes only what the suite wrote', () => {
  test.concurrent(
    "allure-results/ keeps other tools' files, compare-to/ is left alone without --compare-to, and nothing else in the folder is touched",
    async () => {
      const server = await startReferenceServer({ token: TOKEN });
      cleanUpAfterAll(server.close);
      const dir = await folder();
      const out = join(dir, 'out');
      await mkdir(join(out, 'allure-results'), { recursive: true });
      await mkdir(join(out, 'compare-to'));
      await writeFile(join(out, 'allure-results', 'other-tool-result.json'), '{"name":"another tool"}');
      await writeFile(join(out, 'compare-to', 'report.json'), 'kept: not written by this run');
      await writeFile(join(out, 'notes.txt'), 'mine');
      const run = (): Promise<CliOutput> => inProcess.exec(['--base-url', server.url, '--token', TOKEN, '--out', out]);

      expect((await run()).code).toBe(0);
      const first = await list(join(out, 'allure-results'));
      expect(first).toContain('other-tool-result.json');
      expect((await run()).code).toBe(0);
      const second = await list(join(out, 'allure-results'));
      // The first run's results are gone, the second's are there, the other tool's stay.
      expect(second).toContain('other-tool-result.json');
      expect(second.filter((name) => first.includes(name) && name.endsWith('-result.json'))).toEqual(['other-tool-result.json']);
      expect(second).toHaveLength(first.length);
      expect(await readFile(join(out, 'compare-to', 'report.json'), 'utf8')).toBe('kept: not written by this run');
      expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
      const manifest = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files: string[]; folders: string[] };
      expect(manifest.files).toEqual(expect.arrayContaining(['report.json', 'report.md', 'report.html', 'junit.xml']));
      expect(manifest.files).not.toContain('allure-results/other-tool-result.json');
      expect(manifest.files.filter((file) => file.startsWith('compare-to'))).toEqual([]);
    },
  );

  test.concurrent(
    '--compare-to replaces what it wrote in compare-to/; a later plain run removes comparison.json but leaves compare-to/',
    async () => {
      const server = await startReferenceServer({ token: TOKEN });
      cleanUpAfterAll(server.close);
      const dir = await folder();
      const out = join(dir, 'out');
      await mkdir(join(out, 'compare-to'), { recursive: true });
      await writeFile(join(out, 'compare-to', 'keep.txt'), "not the suite's");
      const compare = ['--base-url', server.url, '--token', TOKEN, '--compare-to', server.url, '--compare-token', TOKEN, '--out', out];
      expect((await inProcess.exec(compare)).code).toBe(0);
      expect(existsSync(join(out, 'comparison.json'))).toBe(true);
      const compared = await list(join(out, 'compare-to'));
      expect(compared).toEqual(expect.arrayContaining(['keep.txt', 'report.json', MANIFEST]));

      expect((await inProcess.exec(['--base-url', server.url, '--token', TOKEN, '--out', out])).code).toBe(0);
      expect(existsSync(join(out, 'comparison.json'))).toBe(false);
      expect(await list(join(out, 'compare-to'))).toEqual(compared);
    },
  );

  test.concurrent('a list edited to name files outside the folder, or through a link, removes nothing there', async () => {
    const server = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(server.close);
    const dir = await folder();
    const out = join(dir, 'out');
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(out);
    await mkdir(elsewhere);
    await writeFile(join(dir, 'outside.txt'), 'outside');
    await writeFile(join(elsewhere, 'report.json'), 'behind a link');
    await symlink(elsewhere, join(out, 'linked'));
    await writeFile(
      join(out, MANIFEST),
      JSON.stringify({ files: ['../outside.txt', join(dir, 'outside.txt'), 'linked/report.json'], folders: ['..', 'linked'] }),
    );
    expect((await inProcess.exec(['--base-url', server.url, '--token', TOKEN, '--out', out])).code).toBe(0);
    expect(await readFile(join(dir, 'outside.txt'), 'utf8')).toBe('outside');
    expect(await readFile(join(elsewhere, 'report.json'), 'utf8')).toBe('behind a link');
  });
});

describe('an --out that cannot take the reports: exit 2 before the first request, and the process ends', () => {
  const unusable: [string, (dir: string) => Promise<string>, RegExp][] = [
    ['a file', async (dir) => (await writeFile(join(dir, 'file'), 'x'), join(dir, 'file')), /it is a file/],
    [
      'a dangling symbolic link',
      async (dir) => (await symlink(join(dir, 'nowhere'), join(dir, 'dangling')), join(dir, 'dangling')),
      /a symbolic link to nothing/,
    ],
    ['/dev/null', () => Promise.resolve('/dev/null'), /it is a device/],
    [
      'a path under a file',
      async (dir) => (await writeFile(join(dir, 'file'), 'x'), join(dir, 'file', 'reports')),
      /file is a file, not a folder/,
    ],
    [
      'a folder this user cannot write',
      async (dir) => {
        if (process.getuid?.() === 0) return '/sys/kernel';
        await mkdir(join(dir, 'locked'), { mode: 0o555 });
        await chmod(join(dir, 'locked'), 0o555);
        return join(dir, 'locked');
      },
      /cannot be written: (permission denied|operation not permitted|the file system is read-only)/,
    ],
    ['a folder that cannot be made', () => Promise.resolve('/proc/no-such-folder/reports'), /cannot be made: no such file or folder/],
  ];

  async function refusedWithEmbeddedServer(exec: Exec, make: (dir: string) => Promise<string>, why: RegExp): Promise<void> {
    const dir = await folder();
    const out = await make(dir);
    const run = await exec(['--out', out], dir);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    expect(run.stderr.trim()).toMatch(new RegExp(`^CONFIG_INVALID: --out ${out.replaceAll('/', '\\/')} cannot hold the reports: `));
    expect(run.stderr).toMatch(why);
    expect(run.stderr).toContain('Pass --out a folder this user can write');
    expect(run.stdout + run.stderr).not.toMatch(NOT_A_SUITE_BUG);
  }

  test.concurrent.each(unusable)('%s, with the embedded server', async (_name, make, why) => {
    await refusedWithEmbeddedServer((args) => inProcess.exec(args), make, why);
  });

  // The binary's own exit: the process ends by itself, with status 2, not killed at the time-out.
  test.concurrent.each(unusable.slice(0, 1))('%s, with the embedded server, from the real CLI', async (_name, make, why) => {
    await refusedWithEmbeddedServer((args, cwd) => execCli(args, cwd), make, why);
  });

  test.concurrent.each(unusable)('%s, with a target: not one request is sent', async (_name, make) => {
    const target = await serveHttp((_request, response) => response.end('{}'));
    cleanUpAfterAll(target.close);
    const dir = await folder();
    const run = await inProcess.exec(['--base-url', target.url, '--token', TOKEN, '--out', await make(dir)]);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    expect(run.stderr).toMatch(/^CONFIG_INVALID: --out /);
    expect(target.requests).toEqual([]);
  });

  test.concurrent('merge to an unusable --out says so in one line', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'file'), 'x');
    const run = await inProcess.exec(['merge', join(dir, 'missing.json'), '--out', join(dir, 'file')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^CONFIG_INVALID: --out .* cannot hold the reports: it is a file/);
    expect(run.stdout + run.stderr).not.toMatch(NOT_A_SUITE_BUG);
  });
});

describe('problems of the environment are named as such, and the verdict is still given', () => {
  test.concurrent.each([
    ['a folder', (dir: string) => dir],
    ['a path under a file', (dir: string) => join(dir, 'file', 'summary.md')],
    ['a path in a missing folder', (dir: string) => join(dir, 'missing', 'summary.md')],
  ])('GITHUB_STEP_SUMMARY is %s: the reports and the verdict as usual, a warning naming the environment', async (_name, path) => {
    const server = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(server.close);
    const dir = await folder();
    await writeFile(join(dir, 'file'), 'x');
    const out = join(dir, 'out');
    const run = await inProcess.exec(['--base-url', server.url, '--token', TOKEN, '--out', out], { GITHUB_STEP_SUMMARY: path(dir) });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Verdict for .*: This deployment is conformant/m);
    expect(lastLine(run)).toMatch(/^\d+ passed, 0 failed, \d+ skipped, \d+ info in [\d.]+ s$/);
    expect(run.stdout).toMatch(
      /WARNING STEP_SUMMARY_NOT_WRITTEN: the job summary could not be appended to GITHUB_STEP_SUMMARY .*problem of the environment/,
    );
    expect(run.stdout + run.stderr).not.toMatch(NOT_A_SUITE_BUG);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.warnings?.map((warning) => warning.code)).toEqual(['STEP_SUMMARY_NOT_WRITTEN']);
    expect(report.exitCode).toBe(0);
  });

  test.concurrent('serve on a port already in use', async () => {
    // The real CLI: serve waits for a signal once it listens.
    const busy = await serveHttp((_request, response) => response.end());
    cleanUpAfterAll(busy.close);
    const dir = await folder();
    const run = await execCli(['serve', '--port', String(busy.port)], dir);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    expect(run.stderr.trim()).toMatch(new RegExp(`^CONFIG_INVALID: port ${busy.port} on 127.0.0.1 is already in use\\. `));
    expect(run.stderr).not.toMatch(NOT_A_SUITE_BUG);
  });

  test.concurrent('a baseline written where it cannot be', async () => {
    const server = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
    cleanUpAfterAll(server.close);
    const dir = await folder();
    const out = join(dir, 'out');
    expect((await inProcess.exec(['--base-url', server.url, '--token', TOKEN, '--out', out])).code).toBe(1);
    const target = join(dir, 'missing', 'baseline.json');
    const run = await inProcess.exec([
      'baseline',
      '--from',
      join(out, 'report.json'),
      '--owner',
      'ops',
      '--reason',
      'known',
      '--expires',
      '2099-01-01',
      '--out',
      target,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `HARNESS_ENVIRONMENT: the baseline cannot be written to ${target}: no such file or folder (ENOENT). Pass --out a file path in a folder this user can write`,
    );
  });
});
