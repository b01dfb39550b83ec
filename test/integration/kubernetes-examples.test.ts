import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, test } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference-server/server.js';
import type { Matrix } from '../../src/report/matrix/types.js';
import { freePort } from '../helpers/free-port.js';
import { COMPILED_CLI, repoRoot } from '../helpers/run-cli.js';
import { SAFETY_NET_MS, removeFolder } from '../helpers/safety-net.js';

const EXAMPLES = join(repoRoot, 'examples', 'kubernetes');

/** The Kubernetes models (their JSON Schemas) for the kinds the examples use, by apiVersion and kind. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

async function manifests(file: string): Promise<Manifest[]> {
  const documents = parseAllDocuments(await readFile(join(EXAMPLES, file), 'utf8'));
  return (Array.isArray(documents) ? documents : [documents]).map((document) => document.toJS() as Manifest);
}

function validate(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) throw new Error(`no model for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest as never).validate();
}

const named = (all: Manifest[], kind: string, name?: string): Manifest => {
  const found = all.find((manifest) => manifest.kind === kind && (name === undefined || manifest.metadata.name === name));
  if (!found) throw new Error(`no ${kind} ${name ?? ''}`);
  return found;
};

interface PodSpec {
  containers: {
    args?: string[];
    command?: string[];
    env?: { name: string; value: string }[];
    envFrom?: { secretRef: { name: string } }[];
    ports?: { name: string; containerPort: number }[];
    volumeMounts: { name: string; mountPath: string }[];
  }[];
  volumes: { name: string; secret?: { secretName: string } }[];
}

describe('examples/kubernetes', () => {
  test.each(['exporter.yaml', 'audit-job.yaml', 'audit-merge-job.yaml'])('%s is valid against the Kubernetes schemas', async (file) => {
    const all = await manifests(file);
    expect(all.length).toBeGreaterThan(0);
    for (const manifest of all) validate(manifest);
  });

  test('the schemas are strict enough to catch a broken manifest', async () => {
    const [job] = (await manifests('audit-job.yaml')).filter((manifest) => manifest.kind === 'Job');
    const broken = structuredClone(job) as Manifest & { spec: { completions: unknown } };
    broken.spec.completions = 'four';
    expect(() => validate(broken)).toThrow();
    const deployment = named(await manifests('exporter.yaml'), 'Deployment') as Manifest & { spec: { template: { spec: PodSpec } } };
    const noContainers = structuredClone(deployment) as unknown as Manifest & { spec: { template: { spec: Record<string, unknown> } } };
    delete noContainers.spec.template.spec.containers;
    expect(() => validate(noContainers)).toThrow();
  });

  test('the exporter reads its targets from the Secret, its tokens from the other, and listens where the Service sends', async () => {
    const all = await manifests('exporter.yaml');
    const deployment = named(all, 'Deployment') as Manifest & {
      spec: {
        selector: { matchLabels: Record<string, string> };
        template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
      };
    };
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    const args = container?.args ?? [];
    expect(args[0]).toBe('exporter');
    const targetsPath = args[args.indexOf('--targets') + 1] ?? '';
    const mount = container?.volumeMounts.find((volume) => targetsPath.startsWith(`${volume.mountPath}/`));
    const secretName = pod.volumes.find((volume) => volume.name === mount?.name)?.secret?.secretName;
    const targetsSecret = named(all, 'Secret', secretName) as Manifest & { stringData: Record<string, string> };
    const targetsFile = targetsSecret.stringData[targetsPath.slice((mount?.mountPath.length ?? 0) + 1)] ?? '';
    const { targets } = parse(targetsFile) as { targets: { name: string; tokenEnv: string }[] };
    expect(targets.length).toBeGreaterThan(0);
    const tokens = named(all, 'Secret', container?.envFrom?.[0]?.secretRef.name) as Manifest & { stringData: Record<string, string> };
    // Every tokenEnv of the targets file is a key of the tokens Secret, so the exporter starts.
    for (const target of targets) expect(Object.keys(tokens.stringData)).toContain(target.tokenEnv);
    expect(targetsFile).not.toMatch(/token:/i);

    const listen = args[args.indexOf('--listen') + 1] ?? '';
    const port = container?.ports?.find((entry) => entry.name === 'http')?.containerPort;
    expect(listen).toBe(`0.0.0.0:${port}`);
    const service = named(all, 'Service') as Manifest & { spec: { selector: Record<string, string>; ports: { targetPort: string }[] } };
    expect(service.spec.ports[0]?.targetPort).toBe('http');
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
  });

  test('the audit Job runs one shard per index, numbered from 1, and the merge reads every shard', async () => {
    const all = await manifests('audit-job.yaml');
    const job = named(all, 'Job') as Manifest & {
      spec: { completionMode: string; completions: number; parallelism: number; template: { spec: PodSpec } };
    };
    expect(job.spec.completionMode).toBe('Indexed');
    const [container] = job.spec.template.spec.containers;
    const shards = Number(container?.env?.find((entry) => entry.name === 'SHARDS')?.value);
    expect(job.spec.completions).toBe(shards);
    expect(job.spec.parallelism).toBe(shards);
    const script = container?.command?.at(-1) ?? '';
    expect(script).toContain('shard=$((JOB_COMPLETION_INDEX + 1))');
    expect(script).toContain('--shard "$shard/$SHARDS"');
    expect(script).toContain('--out "/reports/shard-$shard"');
    expect(script).toContain('--exit-zero-when-judged');
    const [merge] = (await manifests('audit-merge-job.yaml')) as (Manifest & { spec: { template: { spec: PodSpec } } })[];
    expect(merge?.spec.template.spec.containers[0]?.command?.at(-1)).toContain('merge /reports/shard-*/matrix.json');
    expect(merge?.spec.template.spec.containers[0]?.command?.at(-1)).toContain('--exit-zero-when-judged');
  });
});

/** Runs a container's shell command as written, with the suite's bin as ticketing-conformance and the cluster paths moved here. */
function runScript(script: string, paths: Record<string, string>, env: Record<string, string>, bin: string): Promise<number> {
  const local = Object.entries(paths).reduce((text, [from, to]) => text.split(from).join(to), script);
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', local],
      { env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: tmpdir(), NO_COLOR: '1', ...env }, timeout: SAFETY_NET_MS },
      (error) => resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    );
  });
}

test("the audit Job and its merge, run as written over local targets one of which is down, complete with the fleet's verdict in the matrix", async () => {
  const work = await mkdtemp(join(tmpdir(), 'kubernetes-audit-'));
  const servers: RunningReferenceServer[] = [];
  try {
    const token = 'kubernetes-audit-token-4Jd8';
    for (let index = 0; index < 5; index += 1) {
      servers.push(await startReferenceServer({ token, variants: index === 4 ? ['colour-without-hash'] : [] }));
    }
    // site-3 is an install that is down: nothing listens on its port.
    const urls = servers.map((server) => server.url);
    urls.splice(2, 0, `http://127.0.0.1:${await freePort()}`);
    const names = urls.map((_, index) => `site-${index + 1}`);
    const bin = join(work, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'ticketing-conformance'), `#!/bin/sh\nexec "${process.execPath}" "${COMPILED_CLI}" "$@"\n`);
    await chmod(join(bin, 'ticketing-conformance'), 0o755);
    await writeFile(
      join(work, 'targets.yaml'),
      JSON.stringify({ targets: urls.map((url, index) => ({ name: names[index], baseUrl: url, tokenEnv: 'AUDIT_TOKEN' })) }),
    );
    const paths = { '/etc/ticketing-conformance/targets.yaml': join(work, 'targets.yaml'), '/reports': join(work, 'reports') };
    const job = named(await manifests('audit-job.yaml'), 'Job') as Manifest & {
      spec: { completions: number; template: { spec: PodSpec } };
    };
    const [container] = job.spec.template.spec.containers;
    const shards = String(job.spec.completions);
    for (let index = 0; index < job.spec.completions; index += 1) {
      // Every shard completes with its matrix written, the one holding the install that is down included.
      const code = await runScript(
        container?.command?.at(-1) ?? '',
        paths,
        { JOB_COMPLETION_INDEX: String(index), SHARDS: shards, AUDIT_TOKEN: token },
        bin,
      );
      expect(code, `shard ${index + 1}`).toBe(0);
      const shard = JSON.parse(await readFile(join(work, 'reports', `shard-${index + 1}`, 'matrix.json'), 'utf8')) as Matrix;
      expect(shard.targets.length).toBeGreaterThan(0);
    }
    const [merge] = (await manifests('audit-merge-job.yaml')) as (Manifest & { spec: { template: { spec: PodSpec } } })[];
    const mergeScript = merge?.spec.template.spec.containers[0]?.command?.at(-1) ?? '';
    expect(await runScript(mergeScript, paths, {}, bin)).toBe(0);
    const merged = JSON.parse(await readFile(join(work, 'reports', 'merged', 'matrix.json'), 'utf8')) as Matrix;
    expect(merged.targets.map((target) => target.name).sort()).toEqual([...names].sort());
    expect(Object.fromEntries(merged.targets.map((target) => [target.name, target.verdict]))).toEqual({
      'site-1': 'conformant',
      'site-2': 'conformant',
      'site-3': 'inconclusive',
      'site-4': 'conformant',
      'site-5': 'conformant',
      'site-6': 'not-conformant',
    });
    // One install not conformant makes the fleet not conformant, whatever the install that is down.
    expect(merged.exitCode).toBe(1);
    expect(await readFile(join(work, 'reports', 'merged', 'matrix.json'), 'utf8')).not.toContain(token);
    // The same merge without the option exits with that code, for a job that should fail on it.
    expect(await runScript(mergeScript.replace(' --exit-zero-when-judged', '').replace('/merged', '/merged-strict'), paths, {}, bin)).toBe(
      1,
    );

    // A shard that cannot run (its token is missing) exits 2, which fails the Job instead of merging a hole.
    const failing = await runScript(container?.command?.at(-1) ?? '', paths, { JOB_COMPLETION_INDEX: '0', SHARDS: shards }, bin);
    expect(failing).toBe(2);
    expect(
      (job.spec as { podFailurePolicy?: { rules: { action: string; onExitCodes?: { values: number[] } }[] } }).podFailurePolicy?.rules,
    ).toContainEqual(expect.objectContaining({ action: 'FailJob', onExitCodes: expect.objectContaining({ values: [2] }) }));
  } finally {
    await Promise.all(servers.map((server) => server.close()));
    await removeFolder(work);
  }
});
