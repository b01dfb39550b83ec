import type { RecordedCheck, ScenarioResult } from '../harness/scenario-result.js';
import { catalog } from '../requirements/catalog.js';
import { diagnose } from './diagnose.js';
import type { Report, RequirementResult, RunError, Verdict } from './types.js';
import { VERDICTS } from './types.js';
import { requirementVerdict, runOutcome, waivedRequirements } from './verdicts.js';

export interface ReportInput {
  suite: Report['suite'];
  target: Report['target'];
  options: Report['options'];
  startedAt: Date;
  finishedAt: Date;
  complete: boolean;
  scenarios: ScenarioResult[];
  errors: RunError[];
}

function partyOf(result: Omit<RequirementResult, 'party'>, environmentBlamed: boolean): RequirementResult['party'] {
  if (result.verdict === 'pass' || result.verdict === 'info' || result.verdict === 'skip') return undefined;
  if (result.verdict === 'error') return result.checks.find((check) => check.error)?.error?.party ?? 'suite';
  return environmentBlamed && result.family === 'auth' ? 'environment' : 'target';
}

function summarise(report: Pick<Report, 'verdict' | 'exitCode' | 'requirements' | 'diagnoses' | 'errors' | 'baseline'>): string {
  const waived = waivedRequirements(report);
  const failed = report.requirements.filter((result) => result.verdict === 'fail' && !waived.has(result.id));
  const cause = report.diagnoses[0]?.summary;
  if (report.verdict === 'conformant') {
    const skipped = report.requirements.filter((result) => result.level === 'MUST' && result.verdict === 'skip').length;
    return skipped === 0
      ? 'This deployment is conformant: every MUST requirement passed.'
      : `This deployment is conformant on what could be checked; ${skipped} MUST requirement(s) could not be judged (skipped).`;
  }
  if (report.verdict === 'not-conformant' && report.exitCode === 0) {
    const known = [...waived];
    return `Not conformant, but only in ${known.length} known failure(s) of the baseline (${known.join(', ')}): nothing new failed.`;
  }
  if (report.verdict === 'not-conformant') {
    const named = failed
      .slice(0, 3)
      .map((result) => result.id)
      .join(', ');
    const more = failed.length > 3 ? ` and ${failed.length - 3} more` : '';
    return `Not conformant: ${failed.length || 'a'} requirement(s) failed (${named || 'SHOULD under --strict'}${more})${cause ? `; ${cause}` : ''}.`;
  }
  const reason = report.errors[0]?.message ?? cause ?? 'no MUST requirement could be judged';
  return `No verdict: ${reason}.`;
}

export function buildReport(input: ReportInput): Report {
  const checksByRequirement = new Map<string, RecordedCheck[]>();
  for (const check of input.scenarios.flatMap((scenario) => scenario.checks)) {
    checksByRequirement.set(check.requirement, [...(checksByRequirement.get(check.requirement) ?? []), check]);
  }
  const unjudged = input.complete ? 'not run' : 'not run: the run stopped early';
  const provisional = catalog.map((requirement) => {
    const checks = checksByRequirement.get(requirement.id) ?? [
      { requirement: requirement.id, scenario: '-', verdict: 'skip' as const, description: unjudged },
    ];
    return { ...requirement, verdict: requirementVerdict(requirement, checks), checks };
  });
  const diagnoses = diagnose(provisional);
  const environmentBlamed = diagnoses.some((diagnosis) => diagnosis.id === 'authorization-header-stripped');
  const requirements: RequirementResult[] = provisional.map((result) => {
    const party = partyOf(result, environmentBlamed);
    return party ? { ...result, party } : result;
  });
  const totals = Object.fromEntries(
    VERDICTS.map((name) => [name, requirements.filter((result) => result.verdict === name).length]),
  ) as Record<Verdict, number>;
  const report: Report = {
    schemaVersion: 1,
    suite: input.suite,
    target: input.target,
    options: input.options,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    complete: input.complete,
    verdict: 'inconclusive',
    exitCode: 2,
    summary: '',
    totals,
    requests: { sent: Math.max(0, ...input.scenarios.map((scenario) => scenario.requestsSent)) },
    requirements,
    diagnoses,
    errors: input.errors,
  };
  settleOutcome(report);
  return report;
}

/** Sets verdict, exit code and summary from the requirements and errors; call again after adding errors. */
export function settleOutcome(report: Report): void {
  Object.assign(report, runOutcome(report.requirements, report.options.strict, report.errors, waivedRequirements(report)));
  report.summary = summarise(report);
}
