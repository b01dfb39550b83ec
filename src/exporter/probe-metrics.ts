import { Gauge, Registry } from 'prom-client';
import type { Report, RunVerdict } from '../report/model/types.js';
import { VERDICTS } from '../report/model/types.js';
import { OUTCOMES, outcomeCounts, outcomesOf } from '../report/model/outcomes.js';

/** Every series of a probe answer starts with this; the exporter's own series add `exporter_`. */
export const PREFIX = 'ticketing_conformance_';
const RUN_VERDICTS: readonly RunVerdict[] = ['conformant', 'not-conformant', 'inconclusive'];

/** What a probe answers with: the run it was given (finished or reused), or none when the scrape's time ran out first. */
export interface ProbeOutcome {
  report?: Report;
  /** The answer came from a run another probe started, or from one that finished less than --min-interval ago. */
  reused: boolean;
}

/** The kinds of error a run met, its own and its checks' (a spent budget, a time-out, a refused connection), once each. */
export function runErrors(report: Report): { code: string; party: string }[] {
  const checkErrors = report.requirements.flatMap((result) => result.checks.flatMap((check) => (check.error ? [check.error] : [])));
  const kinds = new Map([...report.errors, ...checkErrors].map(({ code, party }) => [`${code} ${party}`, { code, party }]));
  return [...kinds.values()];
}

function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  return new Gauge({ name: `${PREFIX}${name}`, help, labelNames, registers: [registry] });
}

/**
 * The Prometheus text of one probe. Labels are bounded sets (requirement IDs, levels, verdicts, diagnosis IDs, error
 * codes, parties): never a URL, a message or anything the target wrote, so no series multiplies and nothing secret shows.
 */
export async function probeMetrics({ report, reused }: ProbeOutcome): Promise<string> {
  const registry = new Registry();
  const finished = gauge(registry, 'run_finished', '1 if a finished run answers this probe; 0 if the scrape timed out first');
  const judged = gauge(registry, 'judged', '1 if the run could judge the target (conformant or not), 0 if it could not');
  finished.set(report ? 1 : 0);
  judged.set(report && report.verdict !== 'inconclusive' ? 1 : 0);
  if (!report) return registry.metrics();

  const verdict = gauge(registry, 'verdict', 'The run verdict, one series per possible verdict, 1 for the one reached', ['verdict']);
  for (const name of RUN_VERDICTS) verdict.set({ verdict: name }, report.verdict === name ? 1 : 0);
  gauge(registry, 'exit_code', 'The exit code the command line would give: 0 conformant, 1 not conformant, 2 could not judge').set(
    report.exitCode,
  );
  const requirement = gauge(
    registry,
    'requirement',
    'One series per requirement of the catalog, labelled with its level, verdict and outcome (failed only if it fails the run)',
    ['requirement', 'level', 'verdict', 'outcome'],
  );
  for (const { result, outcome } of outcomesOf(report)) {
    requirement.set({ requirement: result.id, level: result.level, verdict: result.verdict, outcome }, 1);
  }
  const totals = gauge(registry, 'requirements', 'Requirements per verdict (a SHOULD not met is warn, with --strict too)', ['verdict']);
  for (const name of VERDICTS) totals.set({ verdict: name }, report.totals[name]);
  const outcomes = gauge(registry, 'outcomes', 'Requirements per outcome, as the exit code counts them: failed fails the run', ['outcome']);
  const counts = outcomeCounts(report);
  for (const name of OUTCOMES) outcomes.set({ outcome: name }, counts[name]);
  const diagnosis = gauge(registry, 'diagnosis', 'One series per diagnosis of the hosting stack, with the party at fault', [
    'diagnosis',
    'party',
    'confidence',
  ]);
  for (const found of report.diagnoses) diagnosis.set({ diagnosis: found.id, party: found.party, confidence: found.confidence }, 1);
  const runError = gauge(registry, 'run_error', 'One series per kind of error that kept the run from judging everything', [
    'code',
    'party',
  ]);
  for (const error of runErrors(report)) runError.set(error, 1);
  gauge(registry, 'run_duration_seconds', 'How long the run took').set(report.durationMs / 1000);
  gauge(registry, 'run_requests', 'Requests the run sent to the target').set(report.requests.sent);
  gauge(registry, 'run_timestamp_seconds', 'When the run started, in seconds since the epoch').set(Date.parse(report.startedAt) / 1000);
  gauge(
    registry,
    'run_reused',
    '1 if this answer reused a run another probe started or one that finished less than --min-interval ago',
  ).set(reused ? 1 : 0);
  return registry.metrics();
}
