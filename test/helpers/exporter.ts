import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { loadTargets } from '../../src/config/targets.js';
import { startExporter, type RunningExporter } from '../../src/exporter/server.js';

export interface ExporterTarget {
  name: string;
  baseUrl: string;
  token: string;
  maxRequests?: number;
}

/** An exporter in this process over a targets file written for the test, tokens given as environment variables. */
export async function exporterFor(
  targets: ExporterTarget[],
  { minIntervalMs = 0, defaultProbeTimeoutMs = 30_000 }: { minIntervalMs?: number; defaultProbeTimeoutMs?: number } = {},
): Promise<RunningExporter> {
  const dir = await mkdtemp(join(tmpdir(), 'exporter-targets-'));
  const file = join(dir, 'targets.yaml');
  const env = Object.fromEntries(targets.map((target, index) => [`EXPORTER_TOKEN_${index}`, target.token]));
  await writeFile(
    file,
    stringify({
      targets: targets.map(({ name, baseUrl, maxRequests }, index) => ({
        name,
        baseUrl,
        tokenEnv: `EXPORTER_TOKEN_${index}`,
        ...(maxRequests ? { maxRequests } : {}),
      })),
    }),
  );
  try {
    const entries = loadTargets(loadConfig(['--targets', file], env, join(dir, '.env')), env, join(dir, '.env'));
    return await startExporter({ targets: entries, host: '127.0.0.1', port: 0, minIntervalMs, defaultProbeTimeoutMs });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The samples of a Prometheus text answer, keyed by the series as written (name and labels). */
export function samples(text: string): Map<string, number> {
  return new Map(
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const cut = line.lastIndexOf(' ');
        return [line.slice(0, cut), Number(line.slice(cut + 1))];
      }),
  );
}

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const answer = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  return { status: answer.status, text: await answer.text() };
}
