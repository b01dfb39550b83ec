import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../src/index.js';
import { startReferenceServer } from '../src/reference-server/server.js';

/**
 * npm run fixtures:recordings: records the reference server, as it is and with a few faults, into
 * test/fixtures/recordings/, where plain Vitest (vitest.specs.config.ts) and the self-tests judge them.
 * Run again when the specs ask for a request the fixtures do not hold.
 */
const FIXTURES = 'test/fixtures/recordings';
const TOKEN = 'fixture-token-5e81c0';
const recordings: Record<string, string[]> = {
  reference: [],
  'colour-missing': ['colour-missing'],
  'authorization-stripped': ['authorization-stripped'],
};

await mkdir(FIXTURES, { recursive: true });
for (const [name, variants] of Object.entries(recordings)) {
  const server = await startReferenceServer({ token: TOKEN, variants });
  const out = await mkdtemp(join(tmpdir(), 'fixture-'));
  try {
    const report = await run({ baseUrl: server.url, token: TOKEN, out });
    await copyFile(join(out, 'recording.json'), join(FIXTURES, `${name}.recording.json`));
    console.log(`${FIXTURES}/${name}.recording.json: ${report.verdict}`);
  } finally {
    await Promise.all([server.close(), rm(out, { recursive: true, force: true })]);
  }
}
