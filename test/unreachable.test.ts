import { expect, test } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { fileResources } from './helpers/file-resources.js';

const { inProcess } = fileResources();

test('a closed port gives exit 2, one clear line about it, and a report still written', async () => {
  const port = await freePort();
  const run = await inProcess.run(['--base-url', `http://127.0.0.1:${port}`, '--token', 'unreachable-token-1']);
  try {
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('HARNESS_UNREACHABLE');
    expect(run.stdout).toMatch(/connection refused/);
    expect(run.stdout).not.toMatch(/\n\s+at /);
    expect(run.report?.verdict).toBe('inconclusive');
    expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toContain('target-not-reachable');
    expect(run.report?.requirements.filter((result) => result.level === 'MUST').every((result) => result.verdict === 'error')).toBe(true);
    const unjudged = run.report?.totals.error ?? 0;
    expect(unjudged).toBeGreaterThan(0);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^0 passed, 0 failed, 0 skipped, ${unjudged} could not be judged in [\\d.]+ s$`),
    );
  } finally {
    await run.cleanup();
  }
});
