import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer } from '../src/reference-server/server.js';
import { hostileTargets } from '../test/helpers/hostile-targets.js';
import { compile, compiledCli, root } from './bench/compile.js';
import { measure } from './bench/process-stats.js';

/**
 * npm run bench:hostile: peak memory against the targets that try hardest to exhaust it (a 50 MB body, a gzip bomb),
 * next to a well-behaved target: once for the HTTP client alone, once for the whole compiled CLI (which carries Vitest).
 */
const LIMIT_MB = 150;
/** What a hostile body may add over a well-behaved target: the cap times the concurrency, and room for the collector. */
const EXTRA_LIMIT_MB = 50;
const RUNS = 3;
const TOKEN = 'bench-token-0c7a55e1';

/** As many requests as a full run sends, all at once, through the suite's HTTP client with its default limits. */
const clientAlone = (baseUrl: string): string[] => [
  '--input-type=module',
  '-e',
  `
    const { HttpClient } = await import(${JSON.stringify(join(root, 'dist', 'src', 'http', 'client.js'))});
    const client = new HttpClient({ baseUrl: ${JSON.stringify(baseUrl)}, token: ${JSON.stringify(TOKEN)}, password: 'x', timeoutMs: 10000,
      maxBodyBytes: 1024 * 1024, maxRequests: 40, userAgent: 'bench', concurrency: 16 });
    await Promise.allSettled(Array.from({ length: 17 }, (_, index) => client.get({ path: '/api/ticket/status/' + (index + 1), credentials: 'valid' })));
    await client.close();
  `,
];

async function medianPeakMb(args: string[], work: string): Promise<number> {
  const values: number[] = [];
  for (let run = 0; run < RUNS; run += 1) values.push((await measure(process.execPath, args, { cwd: work })).peakRssMb);
  values.sort((a, b) => a - b);
  return Math.round((values[Math.floor(values.length / 2)] ?? 0) * 10) / 10;
}

async function bench(): Promise<void> {
  await compile();
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
      const alone = await medianPeakMb(clientAlone(target.url), work);
      const whole = await medianPeakMb([compiledCli, '--base-url', target.url, '--token', TOKEN, '--out', join(work, 'out')], work);
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
  const over = rows.filter((row) => row.cli >= LIMIT_MB);
  console.log(
    costly.length === 0
      ? `No hostile body costs ${EXTRA_LIMIT_MB} MB or more over the well-behaved target: memory does not follow what the target sends.`
      : `Costs ${EXTRA_LIMIT_MB} MB or more over the well-behaved target: ${costly.map((row) => row.target).join(', ')}`,
  );
  console.log(
    over.length === 0
      ? `The whole CLI stays under ${LIMIT_MB} MB against every target.`
      : `The whole CLI reaches ${LIMIT_MB} MB against: ${over.map((row) => row.target).join(', ')}`,
  );
  console.log('Compiled code (dist/), as the installed package runs it; the figures include Node itself.');
  process.exitCode = costly.length === 0 && over.length === 0 ? 0 : 1;
}

await bench();
