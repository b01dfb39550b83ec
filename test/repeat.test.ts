import { expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';

const TOKEN = 'repeat-token-4410aa';
const { inProcess } = fileResources();

test.concurrent('a requirement whose verdict changes between runs is flaky, says how many runs agreed, and fails the run', async () => {
  const server = await startReferenceServer({ token: TOKEN, variants: ['colour-breaks-on-repeat'] });
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--repeat', '2']);
  try {
    const colour = run.report?.requirements.find((result) => result.id === 'STATUS-COLOUR');
    expect(colour?.verdict).toBe('flaky');
    expect(colour?.repeat).toEqual({ runs: 2, agreed: 1, verdicts: { pass: 1, fail: 1 } });
    expect(colour?.checks.some((check) => check.verdict === 'fail' && check.actual === 'data.colour: "green"')).toBe(true);
    expect(run.report?.totals.flaky).toBe(1);
    expect(run.report?.requirements.filter((result) => result.verdict === 'flaky').map((result) => result.id)).toEqual(['STATUS-COLOUR']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FLAKY\s+MUST\s+STATUS-COLOUR .*\(1 of 2 runs agreed\)/);
    // The verdict names what failed the gate, and the closing line counts it: never "0 failed" and exit 1 unexplained.
    expect(run.report?.summary).toMatch(/^Not conformant: 1 requirement\(s\) failed \(flaky STATUS-COLOUR\)/);
    expect(run.stdout).toMatch(/requests sent; failed includes 1 flaky\n/);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 1 failed, \d+ skipped, \d+ info in [\d.]+ s$/);
  } finally {
    await Promise.all([server.close(), run.cleanup()]);
  }
});

test.concurrent('repeated runs of a steady server agree, and the requests of every run are counted', async () => {
  const run = await inProcess.run(['--repeat', '2']);
  try {
    expect(run.code).toBe(0);
    expect(run.report?.totals.flaky).toBe(0);
    expect(run.report?.requirements.every((result) => result.repeat?.agreed === 2)).toBe(true);
    expect(run.report?.requests.sent).toBe(48);
  } finally {
    await run.cleanup();
  }
});
