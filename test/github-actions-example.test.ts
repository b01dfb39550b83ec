import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Matrix } from '../src/report/matrix/types.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot, execCli } from './helpers/run-cli.js';
import { removeFolder } from './helpers/safety-net.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Workflow {
  jobs: {
    install: { steps: Step[] };
    shard: { needs: string; strategy: { matrix: { shard: number[] } }; steps: Step[] };
    merge: { steps: Step[] };
  };
}

/** The suite as the install job leaves it in the cache: its program, which the test runs from this checkout. */
const INSTALLED = '.conformance/node_modules/.bin/ticketing-conformance';

const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();
let work = '';

/** The arguments with the paths the workflow gives relative to its workspace made absolute. */
function inWorkspace(args: string[]): string[] {
  return args.map((arg, index) => (['--targets', '--out'].includes(args[index - 1] ?? '') ? resolve(work, arg) : arg));
}

/** The CLI arguments of a workflow step, with the workflow's expressions replaced. */
function cliArgs(step: Step | undefined, values: Record<string, string>): string[] {
  const command = (step?.run ?? '').replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => values[name] ?? `<${name}>`);
  const words = command.trim().split(/\s+/);
  expect(words[0]).toBe(INSTALLED);
  return words.slice(1);
}

test('the GitHub Actions example runs as written: every shard, then the merge, give the matrix of all targets', async () => {
  const workflow = parse(await readFile(join(repoRoot, 'examples', 'github-actions-matrix.yml'), 'utf8')) as Workflow;
  const shards = workflow.jobs.shard.strategy.matrix.shard;
  const shardStep = workflow.jobs.shard.steps.find((step) => step.run?.includes('--shard'));
  const mergeStep = workflow.jobs.merge.steps.find((step) => step.run?.includes(' merge '));
  const upload = workflow.jobs.shard.steps.find((step) => step.with?.name?.startsWith('conformance-shard-'));
  const download = workflow.jobs.merge.steps.find((step) => step.with?.pattern);

  // The workspace of the jobs: targets.yaml with one target per token the workflow passes, and more.
  work = await tempFolder('conformance-actions-');
  const tokenNames = Object.keys(shardStep?.env ?? {});
  expect(tokenNames.length).toBeGreaterThan(0);
  const env: Record<string, string> = {};
  const targets: string[] = [];
  for (const [index, faults] of [[], ['colour-missing'], [], ['lang-ignored'], [], []].entries()) {
    const tokenEnv = tokenNames[index % tokenNames.length] ?? '';
    env[tokenEnv] = `actions-token-${tokenEnv}-51c0`;
    const server = await startReferenceServer({ token: env[tokenEnv], variants: faults });
    cleanUpAfterAll(server.close);
    targets.push(`  - { name: site-${index + 1}, baseUrl: '${server.url}', tokenEnv: ${tokenEnv} }`);
  }
  await writeFile(join(work, 'targets.yaml'), `targets:\n${targets.join('\n')}\n`);

  // The first shard's job is the real process in the workspace, its paths as written; the others are the same command
  // in this process, their paths taken from the workspace, all at once as the jobs run.
  const runs = await Promise.all(
    shards.map((shard, index) => {
      const args = cliArgs(shardStep, { 'matrix.shard': String(shard) });
      return index === 0 ? execCli(args, work, env) : inProcess.exec(inWorkspace(args), env);
    }),
  );
  for (const [index, shard] of shards.entries()) {
    expect(runs[index]?.stderr).toBe('');
    // Every target of the shard has its verdict, failures included: the shard's job succeeds and the merge gates.
    expect(runs[index]?.code).toBe(0);
    // What upload-artifact then download-artifact do: reports/shard-N ends up as reports/conformance-shard-N.
    const uploaded = (upload?.with?.path ?? '').replace('${{ matrix.shard }}', String(shard));
    const name = (upload?.with?.name ?? '').replace('${{ matrix.shard }}', String(shard));
    expect(name).toMatch(new RegExp(`^${(download?.with?.pattern ?? '').replace('*', '.*')}$`));
    await mkdir(join(work, 'downloaded'), { recursive: true });
    await cp(join(work, uploaded), join(work, 'downloaded', name), { recursive: true });
  }
  await removeFolder(join(work, 'reports'));
  await cp(join(work, 'downloaded'), join(work, download?.with?.path ?? ''), { recursive: true });

  const mergeArgs = cliArgs(mergeStep, {});
  const matrixFiles = shards.map((shard) => mergeArgs[1]?.replace('*', String(shard)) ?? '');
  // The merge job, as written: the real process in the workspace.
  const merge = await execCli([mergeArgs[0] ?? '', ...matrixFiles, ...mergeArgs.slice(2)], work, {});
  expect(merge.stderr).toBe('');
  expect(merge.code).toBe(1);
  const merged = JSON.parse(await readFile(join(work, 'reports', 'merged', 'matrix.json'), 'utf8')) as Matrix;
  expect(merged.targets.map((target) => [target.name, target.exitCode])).toEqual([
    ['site-1', 0],
    ['site-2', 1],
    ['site-3', 0],
    ['site-4', 1],
    ['site-5', 0],
    ['site-6', 0],
  ]);
  await expect(readFile(join(work, 'reports', 'merged', merged.targets[1]?.reportDir ?? '', 'report.json'), 'utf8')).resolves.toContain(
    'STATUS-COLOUR',
  );
});

test('the GitHub Actions example installs the suite once and the shards and the merge restore it, with no npm ci of their own', async () => {
  const workflow = parse(await readFile(join(repoRoot, 'examples', 'github-actions-matrix.yml'), 'utf8')) as Workflow;
  const { install, shard, merge } = workflow.jobs;
  const saved = install.steps.find((step) => step.uses?.startsWith('actions/cache@'));
  const build = install.steps.find((step) => step.run?.includes('npm ci'));
  expect(build?.if).toBe(`steps.${saved?.id ?? ''}.outputs.cache-hit != 'true'`);
  expect(build?.run).toContain(`--prefix ${saved?.with?.path ?? ''}`);
  expect(INSTALLED.startsWith(`${saved?.with?.path ?? ''}/`)).toBe(true);
  expect(shard.needs).toBe('install');
  for (const job of [shard, merge]) {
    expect(job.steps.filter((step) => step.run?.includes('npm '))).toEqual([]);
    const restored = job.steps.find((step) => step.uses?.startsWith('actions/cache/restore@'));
    expect(restored?.with).toMatchObject({ path: saved?.with?.path, key: saved?.with?.key, 'fail-on-cache-miss': true });
  }
  // The shards never gate; the merge does, once.
  expect(shard.steps.find((step) => step.run?.includes('--shard'))?.run).toContain('--exit-zero-when-judged');
  expect(merge.steps.find((step) => step.run?.includes(' merge '))?.run).not.toContain('--exit-zero-when-judged');
});
