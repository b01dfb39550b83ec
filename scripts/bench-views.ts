import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startReferenceServer } from '../src/reference-server/server.js';
import { compile, compiledCli, root } from './bench/compile.js';
import { measure } from './bench/process-stats.js';

/**
 * npm run bench:views: the CPU time of each file a run writes beside report.json (report.md, report.html, junit.xml,
 * ctrf.json, badge.svg, recording.json and recording.har), each rendered from one real run's report and recording (the
 * reference server's, at a matrix's defaults) and screened once, as a fleet's target does. With --against DIR, the
 * compiled views of another checkout (npm run build there) run in turn with ours, and each file is compared with ours.
 */
const TOKEN = 'bench-views-token-5d27';
const { values: options } = parseArgs({
  options: { against: { type: 'string' }, rounds: { type: 'string', default: '6' }, passes: { type: 'string', default: '100' } },
});

type Render = (model: never) => string;
type Texts = Map<string, () => string>;
interface Views {
  label: string;
  texts(report: unknown, recording: unknown): Texts;
  screen(text: string): unknown;
}

/** A checkout's compiled views, recording files and scanner, from its dist/src. */
async function viewsOf(checkout: string, label: string): Promise<Views> {
  const load = (path: string) => import(join(checkout, 'dist', 'src', path)) as Promise<Record<string, Render>>;
  const [markdown, html, junit, ctrf, badge, recordingFile, har, scanner] = await Promise.all(
    [
      'report/views/markdown.js',
      'report/views/html.js',
      'report/views/junit.js',
      'report/views/ctrf.js',
      'report/views/badge.js',
      'record/recording-file.js',
      'record/har.js',
      'secrets/scanner.js',
    ].map(load),
  );
  const secrets = (
    scanner?.createSecretScanner as unknown as (tokens: string[]) => { find(text: string): unknown; redact(text: string): string }
  )([TOKEN]);
  const render = (module: Record<string, Render> | undefined, name: string) => module?.[name] as unknown as (model: unknown) => string;
  // What the record stage writes from: the runs' answers as the client recorded them (read back, outside the timing).
  const recordingInput = (recording: Record<string, unknown>) => ({
    ...recording,
    runs: (recording.runs as { startedAt: string }[]).map((run) => ({
      startedAt: new Date(run.startedAt),
      recording: render(recordingFile, 'recordingOfRun')(run),
    })),
    redact: secrets.redact,
  });
  const recordingText = (input: unknown): { json: string; har: string } => {
    const file = render(recordingFile, 'recordingFile')(input);
    return { json: `${JSON.stringify(file, null, 2)}\n`, har: `${JSON.stringify(render(har, 'recordingHar')(file), null, 2)}\n` };
  };
  return {
    label,
    texts: (report, recording) => {
      const input = recordingInput(recording as Record<string, unknown>);
      return new Map([
        ['report.md', () => render(markdown, 'renderMarkdown')(report)],
        ['report.html', () => render(html, 'renderHtml')(report)],
        ['junit.xml', () => render(junit, 'renderJunit')(report)],
        ['ctrf.json', () => render(ctrf, 'renderCtrf')(report)],
        ['badge.svg', () => render(badge, 'renderBadge')(report)],
        ['recording.json and .har', () => Object.values(recordingText(input)).join('')],
      ]);
    },
    screen: (text) => secrets.find(text),
  };
}

/** One run's report.json and recording.json against the reference server. */
async function runFiles(): Promise<{ report: unknown; recording: unknown }> {
  const work = await mkdtemp(join(tmpdir(), 'bench-views-'));
  const reference = await startReferenceServer({ token: TOKEN });
  try {
    const run = await measure(process.execPath, [compiledCli, '--base-url', reference.url, '--token', TOKEN, '--out', work], { cwd: work });
    if (run.code !== 0) throw new Error(`the run against the reference server ended with exit ${run.code}`);
    const read = async (name: string): Promise<unknown> => JSON.parse(await readFile(join(work, name), 'utf8'));
    return { report: await read('report.json'), recording: await read('recording.json') };
  } finally {
    await reference.close();
    await rm(work, { recursive: true, force: true });
  }
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Each file's CPU time, in ms, rendered and screened once, as the mean of a round of passes. */
function round(texts: Texts, views: Views, passes: number): Map<string, number> {
  const times = new Map<string, number>();
  for (const [name, text] of texts) {
    const start = cpuMs();
    for (let pass = 0; pass < passes; pass += 1) views.screen(text());
    times.set(name, (cpuMs() - start) / passes);
  }
  return times;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function bench(): Promise<void> {
  await compile();
  const { report, recording } = await runFiles();
  const all = [await viewsOf(root, 'ours'), ...(options.against ? [await viewsOf(resolve(options.against), 'against')] : [])];
  const texts = all.map((views) => views.texts(report, recording));
  for (const [name, text] of texts[0] ?? []) {
    const other = texts[1]?.get(name);
    if (other && other() !== text()) console.log(`${name} differs from the other checkout's`);
  }
  const times = all.map(() => new Map<string, number[]>());
  for (let turn = 0; turn < Number(options.rounds); turn += 1) {
    all.forEach((views, index) => {
      for (const [name, ms] of round(texts[index] ?? new Map(), views, Number(options.passes))) {
        times[index]?.set(name, [...(times[index]?.get(name) ?? []), ms]);
      }
    });
  }
  console.log(
    `CPU ms a file, rendered and screened (median of ${options.rounds} rounds of ${options.passes}): ${all.map((views) => views.label).join(', ')}`,
  );
  for (const name of texts[0]?.keys() ?? [])
    console.log(`${name.padEnd(24)} ${times.map((by) => median(by.get(name) ?? []).toFixed(3)).join('  ')}`);
  const totals = times.map((by) => [...by.values()].reduce((sum, values) => sum + median(values), 0).toFixed(3));
  console.log(`${'all of them'.padEnd(24)} ${totals.join('  ')}`);
}

await bench();
