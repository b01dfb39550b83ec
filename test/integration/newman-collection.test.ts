import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { coveredRequirements, newmanCollection } from '../../scripts/bench/newman-collection.js';
import { documentCatalog } from '../../src/requirements/catalog.js';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { fileResources } from '../helpers/file-resources.js';
import { repoRoot } from '../helpers/run-cli.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

const TOKEN = 'newman-token-2e8f1a';
const { cleanUpAfterAll, tempFolder } = fileResources();

/** Runs Newman on the generated collection against a reference server with these faults; returns its failed test names. */
async function newmanFailures(faults: string[]): Promise<{ requests: number; failed: string[] }> {
  const server = await startReferenceServer({ token: TOKEN, variants: faults });
  cleanUpAfterAll(server.close);
  const dir = await tempFolder('conformance-newman-');
  await writeFile(
    join(dir, 'collection.json'),
    JSON.stringify(newmanCollection({ baseUrl: server.url, token: TOKEN, password: 'x', statusId: 1 })),
  );
  const newman = join(repoRoot, 'node_modules', 'newman', 'bin', 'newman.js');
  await new Promise<void>((done) => {
    execFile(
      process.execPath,
      [newman, 'run', 'collection.json', '--reporters', 'json', '--reporter-json-export', 'run.json'],
      { cwd: dir, timeout: SAFETY_NET_MS },
      () => done(),
    );
  });
  const run = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as {
    run: { stats: { requests: { total: number } }; failures: { error: { test: string } }[] };
  };
  return {
    requests: run.run.stats.requests.total,
    failed: [...new Set(run.run.failures.map((failure) => failure.error.test.split(' ')[0] ?? ''))].sort(),
  };
}

describe('the Newman collection the bench compares with', () => {
  test("asserts or observes every requirement of the document's catalog (a profile's are the suite's own)", () => {
    expect(coveredRequirements(1)).toEqual(documentCatalog.map((requirement) => requirement.id).sort());
    expect(coveredRequirements(3)).toEqual(documentCatalog.map((requirement) => requirement.id).sort());
  });

  test('passes against a conformant server with the same 22 requests, and fails where the suite fails', async () => {
    const [conformant, broken] = await Promise.all([newmanFailures([]), newmanFailures(['colour-missing', 'wrong-token-accepted'])]);
    expect(conformant).toEqual({ requests: 22, failed: [] });
    expect(broken.failed).toEqual([
      'AUTH-NEAR-MISS-TOKEN-REFUSED',
      'AUTH-TOKEN-AS-USER-NAME',
      'AUTH-WRONG-TOKEN-REFUSED',
      'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS',
      'STATUS-COLOUR',
    ]);
  });
});
