import type { Report, RunVerdict } from '../report/model/types.js';
import { VERDICTS } from '../report/model/types.js';
import { OUTCOMES, outcomeCounts, outcomesOf } from '../report/model/outcomes.js';

/** Every series of a probe answer starts with this; the exporter's own series add `exporter_`. */
export const PREFIX = 'ticketing_conformance_';
const RUN_VERDICTS: readonly RunVerdict[] = ['conformant', 'not-conformant', 'inconclusive'];

/**
 * What a probe answers with: the series of the run it was given (finished or reused), as runSeries wrote them once
 * the run finished, or none when the scrape's time ran out first.
 */
export interface ProbeOutcome {
  series?: string;
  /** The answer came from a run another probe started, or from one that finished less than --min-interval ago. */
  reused: boolean;
}

/** The kinds of error a run met, its own and its checks' (a spent budget, a time-out, a refused connection), once each. */
export function runErrors(report: Report): { code: string; party: string }[] {
  const checkErrors = report.requirements.flatMap((result) => result.checks.flatMap((check) => (check.error ? [check.error] : [])));
  const kinds = new Map([...report.errors, ...checkErrors].map(({ code, party }) => [`${code} ${party}`, { code, party }]));
  return [...kinds.values()];
}

type Labels = Readonly<Record<string, string>>;

/** Label values and help text escaped as the Prometheus text format asks: backslash and newline, and quotes in values. */
const escaped = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapedValue = (text: string): string => escaped(text).replace(/"/g, '\\"');

/**
 * One gauge of the Prometheus text format (0.0.4), its help, its type and a line per series, as prom-client writes it.
 * Written by hand since a probe answers once with series it already holds: a registry of gauges per probe was most of
 * an answer's cost.
 */
function gauge(name: string, help: string, series: readonly (readonly [Labels, number])[]): string {
  const lines = [`# HELP ${PREFIX}${name} ${escaped(help)}`, `# TYPE ${PREFIX}${name} gauge`];
  for (const [labels, value] of series) {
    const pairs = Object.entries(labels).map(([label, text]) => `${label}="${escapedValue(text)}"`);
    lines.push(`${PREFIX}${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} ${value}`);
  }
  return lines.join('\n');
}

/** A gauge of one series without labels. */
const single = (name: string, help: string, value: number): string => gauge(name, help, [[{}, value]]);

/** The text of the series, one gauge after another, as a scrape reads it. */
const text = (gauges: string[]): string => `${gauges.join('\n\n')}\n`;

const finished = (value: number): string =>
  single('run_finished', '1 if a finished run answers this probe; 0 if the scrape timed out first', value);
const judged = (value: number): string =>
  single('judged', '1 if the run could judge the target (conformant or not), 0 if it could not', value);

/**
 * The series of a finished run, written once as it finishes: each probe it answers adds only whether it reused the run.
 * Labels are bounded sets (requirement IDs, levels, verdicts, diagnosis IDs, error codes, parties): never a URL, a
 * message or anything the target wrote, so no series multiplies and nothing secret shows.
 */
export function runSeries(report: Report): string {
  const counts = outcomeCounts(report);
  return [
    finished(1),
    judged(report.verdict !== 'inconclusive' ? 1 : 0),
    gauge(
      'verdict',
      'The run verdict, one series per possible verdict, 1 for the one reached',
      RUN_VERDICTS.map((name) => [{ verdict: name }, report.verdict === name ? 1 : 0]),
    ),
    single('exit_code', 'The exit code the command line would give: 0 conformant, 1 not conformant, 2 could not judge', report.exitCode),
    gauge(
      'requirement',
      'One series per requirement of the catalog, labelled with its level, verdict and outcome (failed only if it fails the run)',
      outcomesOf(report).map(({ result, outcome }) => [
        { requirement: result.id, level: result.level, verdict: result.verdict, outcome },
        1,
      ]),
    ),
    gauge(
      'requirements',
      'Requirements per verdict (a SHOULD not met is warn, with --strict too)',
      VERDICTS.map((name) => [{ verdict: name }, report.totals[name]]),
    ),
    gauge(
      'outcomes',
      'Requirements per outcome, as the exit code counts them: failed fails the run',
      OUTCOMES.map((name) => [{ outcome: name }, counts[name]]),
    ),
    gauge(
      'diagnosis',
      'One series per diagnosis of the hosting stack, with the party at fault',
      report.diagnoses.map((found) => [{ diagnosis: found.id, party: found.party, confidence: found.confidence }, 1]),
    ),
    gauge(
      'run_error',
      'One series per kind of error that kept the run from judging everything',
      runErrors(report).map((error) => [error, 1]),
    ),
    single('run_duration_seconds', 'How long the run took', report.durationMs / 1000),
    single('run_requests', 'Requests the run sent to the target', report.requests.sent),
    single('run_timestamp_seconds', 'When the run started, in seconds since the epoch', Date.parse(report.startedAt) / 1000),
  ].join('\n\n');
}

/** The Prometheus text of one probe: its run's series and whether it reused the run, or that no run finished in time. */
export function probeMetrics({ series, reused }: ProbeOutcome): string {
  if (series === undefined) return text([finished(0), judged(0)]);
  return text([
    series,
    single(
      'run_reused',
      '1 if this answer reused a run another probe started or one that finished less than --min-interval ago',
      reused ? 1 : 0,
    ),
  ]);
}
