import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { recordTarget } from '../src/record/recorder.js';
import { targetSettings } from '../src/pipeline/pipeline.js';
import { SpecRunner } from '../src/judge/spec-runner.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';

const TOKEN = 'judging-thread-token-7Hq2';
const { cleanUpAfterAll, tempFolder } = fileResources();

/** How many objects of a class a V8 heap snapshot holds: what is still reachable once the snapshot's collection ran. */
function instances(snapshot: string, className: string): number {
  const {
    snapshot: meta,
    nodes,
    strings,
  } = JSON.parse(snapshot) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = meta.meta.node_fields.length;
  const type = meta.meta.node_fields.indexOf('type');
  const name = meta.meta.node_fields.indexOf('name');
  const objectType = meta.meta.node_types[0].indexOf('object');
  let count = 0;
  for (let node = 0; node < nodes.length; node += fields) {
    if (nodes[node + type] === objectType && strings[nodes[node + name] ?? -1] === className) count += 1;
  }
  return count;
}

test('the judging thread keeps no spec run but the latest: its test runners do not pile up batch after batch', async () => {
  const server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
  const folder = await tempFolder('judging-thread-');
  const config = loadConfig([], {}, join(repoRoot, 'no-such.env'));
  const runner = await SpecRunner.start({ timeoutMs: 60_000 });
  cleanUpAfterAll(() => runner.close());
  const judgeBatches = async (count: number): Promise<void> => {
    for (let batch = 0; batch < count; batch += 1) {
      const settings = targetSettings({ baseUrl: server.url, token: TOKEN, options: config, embeddedReference: true }, new Date());
      const judged = await runner.judge([{ settings, recording: await recordTarget(settings) }]);
      expect(judged.errors).toEqual([]);
      expect(judged.scenarios[0]?.length).toBeGreaterThan(0);
    }
  };
  const testRunners = async (name: string): Promise<number> => {
    const written = await runner.writeHeapSnapshot(join(folder, name));
    expect(written).toBe(join(folder, name));
    return instances(await readFile(join(folder, name), 'utf8'), 'TestRunner');
  };

  await judgeBatches(2);
  const early = await testRunners('early.heapsnapshot');
  expect(early).toBeGreaterThan(0);
  await judgeBatches(5);
  // Vitest's own thread would hold five more: the runner of every batch, each with its tasks and recordings. One more
  // than before is the latest run's runner, should the snapshot come before the thread let the previous one go.
  expect(await testRunners('late.heapsnapshot')).toBeLessThanOrEqual(early + 1);
});
