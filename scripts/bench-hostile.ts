import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startReferenceServer } from '../src/reference-server/server.js';
import { hostileTargets } from '../test/helpers/hostile-targets.js';

/**
 * Peak memory against the targets that try hardest to exhaust it (a 50 MB body, a gzip bomb), next to a well-behaved target:
 * once for the HTTP client alone (scripts/bench-client.ts), once for the whole CLI (which carries the spec runner's own weight).
 */
const LIMIT_MB = 150;
/** What a hostile body may add over a well-behaved target: the cap times the concurrency, and room for the collector. */
const EXTRA_LIMIT_MB = 50;
const RUNS = 3;
const TOKEN = 'bench-token-0c7a55e1';
const root = resolve(import.meta.dirname, '..');
const cli = join(root, 'src', 'cli', 'main.ts');
const client = join(root, 'scripts', 'bench-client.ts');
const probe = pathToFileURL(join(root, 'scripts', 'peak-rss-probe.ts')).href;

async function peakMb(args: string[], work: string): Promise<number> {
  const rssFile = join(work, 'peak.rss');
  await new Promise<void>((done) => {
    execFile(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), '--import', probe, ...args],
      { cwd: work, env: { ...process.env, PEAK_RSS_FILE: rssFile }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      () => done(),
    );
  });
  return Number(await readFile(rssFile, 'utf8')) / 1024;
}

async function median(times: number, measure: () => Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let run = 0; run < times; run += 1) values.push(await measure());
  values.sort((a, b) => a - b);
  return Math.round((values[Math.floor(values.length / 2)] ?? 0) * 10) / 10;
}

async function bench(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-hostile-'));
  const rows: { target: string; client: number; cli: number }[] = [];
  try {
    const reference = await startReferenceServer({ token: TOKEN });
    const targets = [{ name: 'reference (baseline)', url: reference.url, close: reference.close }];
    for (const name of ['body-50mb', 'gzip-bomb'] as const) {
      const target = await hostileTargets[name](TOKEN);
      targets.push({ name, url: target.url, close: target.close });
    }
    for (const target of targets) {
      const alone = await median(RUNS, () => peakMb([client, target.url, TOKEN], work));
      const whole = await median(RUNS, () => peakMb([cli, '--base-url', target.url, '--token', TOKEN, '--out', join(work, 'out')], work));
      rows.push({ target: target.name, client: alone, cli: whole });
      await target.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const baseline = rows[0] ?? { client: 0, cli: 0 };
  const extra = (value: number, base: number): number => Math.round((value - base) * 10) / 10;
  console.log(`Peak RSS in MB, median of ${RUNS} runs; "+" is the cost over the well-behaved target`);
  console.log(`${'target'.padEnd(22)} ${'client alone'.padStart(12)} ${'+'.padStart(6)} ${'whole CLI'.padStart(10)} ${'+'.padStart(6)}`);
  for (const row of rows) {
    console.log(
      [
        row.target.padEnd(22),
        String(row.client).padStart(12),
        String(extra(row.client, baseline.client)).padStart(6),
        String(row.cli).padStart(10),
        String(extra(row.cli, baseline.cli)).padStart(6),
      ].join(' '),
    );
  }
  const costly = rows.filter((row) => Math.max(extra(row.client, baseline.client), extra(row.cli, baseline.cli)) >= EXTRA_LIMIT_MB);
  const clientOver = rows.filter((row) => row.client >= LIMIT_MB);
  console.log(
    costly.length === 0
      ? `No hostile body costs ${EXTRA_LIMIT_MB} MB or more over the well-behaved target: memory does not follow what the target sends.`
      : `Costs ${EXTRA_LIMIT_MB} MB or more over the well-behaved target: ${costly.map((row) => row.target).join(', ')}`,
  );
  console.log(
    clientOver.length === 0
      ? `The client alone stays under ${LIMIT_MB} MB against every target.`
      : `The client alone reaches ${LIMIT_MB} MB against: ${clientOver.map((row) => row.target).join(', ')}`,
  );
  console.log('Absolute figures include Node and tsx; the whole CLI also carries Vitest, which it loads for every run.');
  process.exitCode = costly.length === 0 ? 0 : 1;
}

await bench();
