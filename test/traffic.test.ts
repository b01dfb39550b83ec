import { describe, expect, test } from 'vitest';
import { MAX_RETRIES_PER_REQUEST } from '../src/http/rate-limit.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { startConnectProxy } from './helpers/connect-proxy.js';
import { expectSettledRun } from './helpers/expect-run.js';
import { hostileTargets, type HostileTarget, type HostileTargetName } from './helpers/hostile-targets.js';
import { fileResources } from './helpers/file-resources.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'traffic-token-51be7d09';
const { inProcess, cleanUpAfterAll } = fileResources();

/** The run command in this process, its recording judged by the file's shared spec runner. */
async function runAgainst(name: HostileTargetName, args: string[] = []): Promise<{ run: CliRun; target: HostileTarget }> {
  const target = await hostileTargets[name](TOKEN);
  cleanUpAfterAll(target.close);
  const run = await inProcess.run(['--base-url', target.url, '--token', TOKEN, ...args]);
  cleanUpAfterAll(run.cleanup);
  return { run, target };
}

/** Requests the target saw twice, same credentials and same URL: retries. */
const repeated = (target: HostileTarget): string[] => {
  const keys = target.front.requests.map((request) => `${request.authorization ?? 'none'} ${request.url}`);
  return keys.filter((key, index) => keys.indexOf(key) !== index);
};

describe.concurrent('HTTP 429', () => {
  test('Retry-After is honoured, the retries are counted, and the run still judges the target', async () => {
    const { run, target } = await runAgainst('rate-limited-once');
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: target.servers });
    expect(run.report?.requests.rateLimited).toBeGreaterThan(0);
    expect(run.report?.requests.waitedMs).toBeGreaterThan(0);
    expect(target.front.requests.length).toBe(run.report?.requests.sent);
    expect(repeated(target).length).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/requests sent \(\d+ asked to wait: HTTP 429, or 503 with Retry-After; paused \d+ ms\)/);
  });

  test('retries count against the request budget', async () => {
    const { run, target } = await runAgainst('rate-limited-once', ['--max-requests', '20']);
    await expectSettledRun(run, { exit: 2, code: 'HARNESS_REQUEST_BUDGET', token: TOKEN, servers: target.servers });
    expect(target.front.requests.length).toBeLessThanOrEqual(20);
    // The cap is the suite's, the cause the target's rate limit: both are named, and the fix first.
    expect(run.report?.diagnoses[0]?.id).toBe('rate-limited');
    expect(run.stdout).toMatch(/Next: Slow the suite down below the limit: --rate-limit/);
  });

  test('a target that keeps answering 429 gets its retries, then its answer is kept and named as rate limiting', async () => {
    // A budget large enough that the retries a request gets, not the budget, are what end it.
    const { run, target } = await runAgainst('rate-limited-always', ['--max-requests', '500']);
    await expectSettledRun(run, { exit: 2, token: TOKEN, servers: target.servers });
    expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['rate-limited']);
    expect(run.report?.requests.waitedMs).toBeGreaterThan(0);
    expect(target.front.requests.length).toBe(run.report?.requests.sent);
    const sends = new Map<string, number>();
    for (const request of target.front.requests) {
      const key = `${request.authorization ?? 'none'} ${request.url}`;
      sends.set(key, (sends.get(key) ?? 0) + 1);
    }
    expect(Math.max(...sends.values())).toBe(1 + MAX_RETRIES_PER_REQUEST);
  });
});

describe.concurrent('--concurrency bounds the requests in flight', () => {
  test.each([
    [['--concurrency', '2'], 2],
    [[], 16],
  ])('%j: at most %i at once', async (args, most) => {
    const { run, target } = await runAgainst('slow-reference', args);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: target.servers });
    expect(target.front.maxInFlight).toBeLessThanOrEqual(most);
    expect(run.report?.options.concurrency).toBe(most);
  });

  test('a higher setting does overlap requests, so the bound above is what held them back', async () => {
    const { run, target } = await runAgainst('slow-reference', ['--concurrency', '8']);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: target.servers });
    expect(target.front.maxInFlight).toBeGreaterThan(4);
  });
});

// The real CLI: the proxy settings come from its environment.
describe.concurrent('proxies from the environment', () => {
  test('HTTP_PROXY carries every request, through a tunnel that sees no credentials', async () => {
    const [proxy, reference] = await Promise.all([startConnectProxy(), startReferenceServer({ token: TOKEN })]);
    cleanUpAfterAll(reference.close);
    cleanUpAfterAll(proxy.close);
    const run = await runCli(['--base-url', reference.url, '--token', TOKEN], { HTTP_PROXY: proxy.url });
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: [] });
    const origin = new URL(reference.url).host;
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(proxy.tunnels.filter((tunnel) => tunnel.target !== origin || tunnel.credentials)).toEqual([]);
  });

  test('NO_PROXY keeps the target direct', async () => {
    const [proxy, reference] = await Promise.all([startConnectProxy(), startReferenceServer({ token: TOKEN })]);
    cleanUpAfterAll(reference.close);
    cleanUpAfterAll(proxy.close);
    const run = await runCli(['--base-url', reference.url, '--token', TOKEN], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: [] });
    expect(proxy.tunnels).toEqual([]);
  });
});

describe('a proxy address that undici cannot use', () => {
  const unusable = ['http://user:pa/SECRET-proxy-pw@127.0.0.1:9', 'proxy.example:3128', 'socks5://127.0.0.1:1080'];

  test.each(unusable)('%s: one line, exit 2, naming the variable and not the address', async (address) => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    const result = await inProcess.exec(['--base-url', reference.url, '--token', TOKEN], { HTTPS_PROXY: address });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^CONFIG_INVALID: HTTPS_PROXY in the environment is not an http:\/\/ or https:\/\/ proxy address/);
    expect(result.stderr).not.toContain(address);
    expect(result.stderr).not.toContain('SECRET');
  });

  test('the embedded reference server, which no proxy reaches, runs whatever the variables hold', async () => {
    const run = await inProcess.run([], { HTTPS_PROXY: unusable[0] ?? '' });
    cleanUpAfterAll(run.cleanup);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  test('a recording that fails as a whole is named in the report, not left as scenarios that did not run', async () => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    // The command's environment has no proxy, so its settings pass; undici reads the process's, where one is broken.
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = unusable[0];
    try {
      const run = await inProcess.run(['--base-url', reference.url, '--token', TOKEN]);
      cleanUpAfterAll(run.cleanup);
      expect(run.code).toBe(2);
      expect(run.report?.errors.map((error) => error.message)).toContain('recording the target failed: Invalid URL');
      expect(run.stdout).toContain('recording the target failed: Invalid URL');
      expect(run.stdout + run.stderr).not.toContain('SECRET');
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });
});
