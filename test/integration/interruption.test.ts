import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { formatSchemaErrors, validator } from '../../src/validators/schemas.js';
import type { Report } from '../../src/report/model/types.js';
import { hostileTargets } from '../helpers/hostile-targets.js';
import { serveHttp, type LoopbackServer } from '../helpers/loopback-server.js';
import { COMPILED_CLI, cliEnv } from '../helpers/run-cli.js';
import { SAFETY_NET_MS, TEST_SAFETY_NET_MS, removeFolder } from '../helpers/safety-net.js';

const TOKEN = 'interrupted-token-3c9f';

interface Stalling {
  url: string;
  /** The server the suite talks to, whose requests tell when one is left hanging. */
  front: LoopbackServer;
  /** Whether a request now hangs there, so that the signal comes while one is on its way. */
  hanging(): boolean;
  close(): Promise<void>;
}

/** Targets that leave a request hanging, each in its own way, so that the run is stopped by the signal alone. */
const stallingTargets: Record<string, () => Promise<Stalling>> = {
  'never answers': async () => {
    const front = await serveHttp(() => undefined);
    return { url: front.url, front, hanging: () => front.requests.length > 0, close: () => front.close() };
  },
  'sends the headers, then never the body': async () => {
    const front = await serveHttp((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"status":"success",');
    });
    return { url: front.url, front, hanging: () => front.requests.length > 0, close: () => front.close() };
  },
  'answers like the reference, except with lang': async () => {
    const target = await hostileTargets['lang-stalls'](TOKEN);
    const hanging = (): boolean => target.front.requests.some((request) => request.url.includes('lang='));
    return { url: target.url, front: target.front, hanging, close: () => target.close() };
  },
};

interface Stopped {
  code: number | null;
  stderr: string;
  report: Report;
  /** Requests the target saw once the signal was sent, and once the run had ended. */
  requestsAtSignal: number;
  requestsAtEnd: number;
}

/** Runs the real CLI against the target, sends the signal once a request hangs, and waits for the CLI to end. */
async function interruptRun(target: Stalling, signal: NodeJS.Signals): Promise<Stopped> {
  const folder = await mkdtemp(join(tmpdir(), 'conformance-interrupted-'));
  try {
    const out = join(folder, 'out');
    // One request at a time: once one hangs at the target, none other is on its way, so any that arrives later was sent
    // after the signal.
    const args = [COMPILED_CLI, '--base-url', target.url, '--token', TOKEN, '--concurrency', '1', '--out', out];
    const child = spawn(process.execPath, args, {
      cwd: folder,
      env: cliEnv({}),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const waitUntil = Date.now() + SAFETY_NET_MS;
    while (!target.hanging() && Date.now() < waitUntil) await sleep(20);
    const requestsAtSignal = target.front.requests.length;
    child.kill(signal);
    const code = await exited;
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    return { code, stderr, report, requestsAtSignal, requestsAtEnd: target.front.requests.length };
  } finally {
    await removeFolder(folder);
  }
}

const cases = Object.keys(stallingTargets).flatMap((name) => [
  [name, 'SIGINT', 130, /^Interrupted by Ctrl-C \(SIGINT\): no request was sent after it; .*every report is marked as cut short\.$/m],
  [name, 'SIGTERM', 143, /^Interrupted by SIGTERM: no request was sent after it; .*every report is marked as cut short\.$/m],
]) as [string, NodeJS.Signals, number, RegExp][];

test.each(cases)(
  'a target that %s: %s stops the sending, the run judges what it recorded and exits %i, its report cut short',
  async (name, signal, exitCode, line) => {
    const target = await (stallingTargets[name] as () => Promise<Stalling>)();
    try {
      const stopped = await interruptRun(target, signal);
      expect(stopped.code, stopped.stderr).toBe(exitCode);
      expect(stopped.stderr).toMatch(line);
      const validate = validator('report');
      expect(validate(stopped.report), formatSchemaErrors(validate.errors)).toBe(true);
      expect(stopped.report.complete).toBe(false);
      expect(stopped.report.verdict).toBe('inconclusive');
      expect(stopped.report.errors.map((error) => error.code)).toContain('HARNESS_INTERRUPTED');
      expect(stopped.requestsAtEnd).toBe(stopped.requestsAtSignal);
    } finally {
      await target.close();
    }
  },
  TEST_SAFETY_NET_MS,
);

test(
  'what a run answered before Ctrl-C is judged: the reference answers without lang pass',
  async () => {
    const target = await (stallingTargets['answers like the reference, except with lang'] as () => Promise<Stalling>)();
    try {
      const stopped = await interruptRun(target, 'SIGINT');
      const passed = stopped.report.requirements
        .filter((requirement) => requirement.verdict === 'pass')
        .map((requirement) => requirement.id);
      expect(passed).toContain('AUTH-TOKEN-ACCEPTED');
      expect(stopped.report.exitCode).toBe(2);
    } finally {
      await target.close();
    }
  },
  TEST_SAFETY_NET_MS,
);
