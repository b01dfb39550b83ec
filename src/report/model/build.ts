import type { JudgedExchange, RecordedCheck, ScenarioResult } from '../../judge/scenario-result.js';
import { judgedCatalog } from '../../requirements/catalog.js';
import type { Profile } from '../../requirements/types.js';
import { configurationHash, keepText, sealed } from './integrity.js';
import type { DiagnosedPass, Report, RequirementResult, RunWarning, TargetFingerprint, Verdict } from './types.js';
import type { Diagnosis } from '../../diagnosis/types.js';
import { exchangeOf, VERDICTS } from './types.js';
import { REPORT_SCHEMA_VERSION } from '../../version.js';
import { requirementVerdict, runOutcome } from './verdicts.js';
import { outcomesOf, waivedRequirements, type Outcome } from './outcomes.js';
import { profileResult } from './profile.js';
import { runSlices, sliceVerdicts } from './slices.js';
import { mergePasses } from './repeat.js';
import { baselineResults, type BaselineInput } from './baseline.js';
import type { RunError } from '../../errors.js';
import { catalogHash } from '../../hash.js';
import { clearedText, type ClearedText, type SecretScanner } from '../../secrets/scanner.js';
import { screened } from './screen.js';
import { deepFreeze } from './frozen.js';
import { formatSchemaErrors, validator } from '../../validators/schemas.js';

export interface ReportInput {
  suite: Report['suite'];
  runId?: string;
  target: Report['target'];
  options: Report['options'];
  startedAt: Date;
  finishedAt: Date;
  complete: boolean;
  scenarios: ScenarioResult[];
  errors: RunError[];
}

/** A response that merely repeats what the environment is blamed for (e.g. the refusal every request gets when the header is stripped). */
type EnvironmentAnswer = { status: number; body: string } | undefined;

function partyOf(
  result: Omit<RequirementResult, 'party'>,
  exchanges: Report['exchanges'],
  environmentAnswer: EnvironmentAnswer,
): RequirementResult['party'] {
  if (result.verdict === 'pass' || result.verdict === 'info' || result.verdict === 'skip') return undefined;
  // Stryker disable next-line OptionalChaining: the check found has an error; the second ?. is for the type checker
  if (result.verdict === 'error') return result.checks.find((check) => check.error)?.error?.party ?? 'suite';
  if (!environmentAnswer) return 'target';
  const failing = result.checks.filter((check) => check.verdict === 'fail');
  // A failed or warned requirement has a failed check. A failure without a recorded answer is not explained by the
  // answer everyone got.
  const explained = failing.every((check) => {
    const response = exchangeOf({ exchanges }, check)?.response;
    return response !== undefined && response.status === environmentAnswer.status && response.body === environmentAnswer.body;
  });
  return explained ? 'environment' : 'target';
}

function summarise(
  report: Pick<Report, 'verdict' | 'exitCode' | 'requirements' | 'diagnoses' | 'errors' | 'baseline' | 'options'>,
): string {
  const outcomes = outcomesOf(report);
  const having = (wanted: Outcome): RequirementResult[] => outcomes.filter(({ outcome }) => outcome === wanted).map(({ result }) => result);
  // Everything that fails the gate is named: a flaky MUST and, under --strict, a broken SHOULD too.
  const failed = having('failed');
  const cause = report.diagnoses[0]?.summary;
  if (report.verdict === 'conformant') {
    const skipped = report.requirements.filter((result) => result.level === 'MUST' && result.verdict === 'skip').length;
    const warned = having('warned').map((result) => result.id);
    const warnings = warned.length > 0 ? ` ${warned.length} warning(s), not failures without --strict: ${warned.join(', ')}.` : '';
    return skipped === 0
      ? `This deployment is conformant: every MUST requirement passed.${warnings}`
      : `This deployment is conformant on what could be checked; ${skipped} MUST requirement(s) could not be judged (skipped).${warnings}`;
  }
  // Past a conformant run, a passing exit code means every failure is one the baseline waives.
  if (report.exitCode === 0) {
    const known = having('waived').map((result) => result.id);
    return `Not conformant, but only in ${known.length} known failure(s) of the baseline (${known.join(', ')}): nothing new failed.`;
  }
  if (report.verdict === 'not-conformant') {
    const named = failed
      .slice(0, 3)
      .map((result) => (result.verdict === 'flaky' ? `flaky ${result.id}` : result.id))
      .join(', ');
    const more = failed.length > 3 ? ` and ${failed.length - 3} more` : '';
    return `Not conformant: ${failed.length} requirement(s) failed (${named}${more})${cause ? `; ${cause}` : ''}.`;
  }
  const unjudgeable = report.diagnoses.find((diagnosis) => diagnosis.inconclusive);
  if (unjudgeable) return `No verdict: the API could not be judged, ${unjudgeable.summary}.`;
  const checkError = report.requirements
    .flatMap((result) => result.checks)
    .find((check) => check.verdict === 'error' && check.error)?.error;
  // A MUST left unjudged because a front answered: the diagnosis names the front, and why nothing can be said.
  if (report.errors.length === 0 && checkError?.code === 'HARNESS_NOT_THE_API' && cause) {
    return `No verdict: the API could not be judged, ${cause}.`;
  }
  const reason =
    report.errors[0]?.message ??
    (checkError ? `${checkError.message} (${checkError.code})` : (cause ?? 'no MUST requirement could be judged'));
  const failedSoFar =
    failed.length > 0 ? ` ${failed.length} requirement(s) had failed by then (${failed.map((result) => result.id).join(', ')}).` : '';
  return `No verdict: ${reason}.${failedSoFar}`;
}

/** The target's fingerprint from the answers already recorded: no request is made for it. */
function fingerprintOf(scenarios: ScenarioResult[], exchanges: Report['exchanges']): TargetFingerprint {
  const servers = Object.values(exchanges).flatMap((exchange) => exchange.response.headers.server ?? []);
  const certificates = scenarios.flatMap((scenario) => scenario.tlsCertificates ?? []);
  return { server: [...new Set(servers)], tlsCertificateSha256: [...new Set(certificates)] };
}

/**
 * Each exchange the checks name, once: scenarios that judged the same request hand back the same answer (the Target
 * sends each request once per run), so the first copy stands for all.
 */
function exchangesOf(scenarios: ScenarioResult[]): Report['exchanges'] {
  const exchanges: Record<string, JudgedExchange> = {};
  for (const scenario of scenarios) {
    for (const { exchange: key } of scenario.checks) {
      // Stryker disable next-line ConditionalExpression: a guard for the type checker; no exchange is keyed "undefined"
      if (key === undefined) continue;
      const exchange = scenario.exchanges[key];
      if (exchange) exchanges[key] ??= exchange;
    }
  }
  return exchanges;
}

/** What the judge found, before any diagnosis: each requirement's checks and verdict, and the exchanges they name. */
export interface JudgedRun {
  requirements: Omit<RequirementResult, 'party'>[];
  exchanges: Report['exchanges'];
}

/** Folds the scenarios' checks into one result per requirement the run judges (the profile's too); one not judged says why. */
export function judgedRun(scenarios: ScenarioResult[], complete: boolean, profile?: Profile): JudgedRun {
  const checksByRequirement = new Map<string, RecordedCheck[]>();
  for (const scenario of scenarios) {
    for (const check of scenario.checks) {
      const checks = checksByRequirement.get(check.requirement);
      if (checks) checks.push(check);
      else checksByRequirement.set(check.requirement, [check]);
    }
  }
  const unjudged = complete ? 'not run' : 'not run: the run stopped early';
  const requirements = judgedCatalog(profile).map((requirement) => {
    const checks = checksByRequirement.get(requirement.id) ?? [
      { requirement: requirement.id, scenario: '-', verdict: 'skip' as const, description: unjudged },
    ];
    // Not a spread followed by members: V8 11 (Node 20) makes each such object several times slower to build.
    return Object.assign({}, requirement, { verdict: requirementVerdict(requirement, checks), checks });
  });
  return { requirements, exchanges: exchangesOf(scenarios) };
}

/**
 * What one pass found, diagnosed: its results, each judged once. A cause that leaves the API unjudged (its requests
 * never reached it, or the set-up points at nothing) sets aside what failed; a cause that names the environment's own
 * answer lays the failures made only of it at the environment's door.
 */
export function assembleDiagnosedPass(input: ReportInput, judged: JudgedRun, diagnoses: Diagnosis[]): DiagnosedPass {
  const { exchanges } = judged;
  const unjudgeable = diagnoses.find((diagnosis) => diagnosis.inconclusive);
  const environmentAnswer = diagnoses.find((diagnosis) => diagnosis.environmentAnswer)?.environmentAnswer;
  const slices = runSlices(input.options);
  const requirements: RequirementResult[] = judged.requirements.map((judgedResult) => {
    const asJudged = unjudgeable ? setAside(judgedResult, unjudgeable) : judgedResult;
    // Object.assign rather than spreads: see judgedRun.
    const result = Object.assign({}, asJudged, sliceVerdicts(asJudged, slices));
    const party = partyOf(result, exchanges, environmentAnswer);
    return party ? Object.assign(result, { party }) : result;
  });
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    suite: input.suite,
    ...(input.runId ? { runId: input.runId } : {}),
    target: { ...input.target, fingerprint: fingerprintOf(input.scenarios, exchanges) },
    options: input.options,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    complete: input.complete,
    requests: requestCounts(input.scenarios),
    requirements,
    exchanges,
    diagnoses,
    errors: input.errors,
  };
}

/** Everything a report is built from; nothing is added to it afterwards. */
export interface ReportParts {
  /** The passes over the target: one, or those of --repeat, merged requirement by requirement. */
  passes: readonly DiagnosedPass[];
  /** The known failures the run is judged against. */
  baseline?: BaselineInput;
  /** What went wrong around the judging, for every view to show: a recording file refused for a secret. */
  errors?: readonly RunError[];
  /** What the surroundings weaken, for every view to show: an insecure setting, a job summary that cannot be appended to. */
  warnings?: readonly RunWarning[];
  /** The secrets no report may hold. */
  scanner: SecretScanner;
  /** False for a report no file holds (an exporter's probe, read for its series): the seal vouches for a file, so it goes unsealed. */
  written?: boolean;
}

/**
 * The report, built once and frozen: the passes merged, the baseline judged, the verdict settled, the result checked
 * against its schema and sealed, and report.json's text screened for the secrets the scanner knows. A secret found is
 * redacted and said, and the report built again from the facts redacted. Every view renders it as it is. A report no
 * file holds is screened as facts, with no text made or sealed.
 */
export function buildReport({ passes, baseline, errors = [], warnings = [], scanner, written = true }: ReportParts): Report {
  const pass = mergePasses(passes);
  const facts: Facts = {
    ...pass,
    errors: [...pass.errors, ...errors],
    ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
    ...(baseline ? { baseline: baselineResults(baseline, pass.requirements, pass.options.strict) } : {}),
  };
  if (!written) return deepFreeze(checked(screenedFacts(facts, scanner)));
  const built = sealed(checked(facts));
  const cleared = clearedText(built.text, scanner, built.bytes);
  if ('text' in cleared) return kept(built.report, cleared);
  const rebuilt = sealed(checked(screenedFacts(facts, scanner)));
  const screenedAgain = clearedText(rebuilt.text, scanner, rebuilt.bytes);
  // A text still holding a secret is not vouched for: the writer screens it and refuses it.
  return kept(rebuilt.report, 'text' in screenedAgain ? screenedAgain : rebuilt.text);
}

/** The verdict settled from the facts; a report off its schema says so among its errors. */
function checked(facts: Facts): Report & Required<Pick<Report, 'integrity'>> {
  const report = settled(facts);
  const problem = schemaProblem(report);
  return problem ? settled({ ...facts, errors: [...facts.errors, problem] }) : report;
}

/** The facts with the scanner's secrets redacted, and the error that says so if one was found. */
function screenedFacts(facts: Facts, scanner: SecretScanner): Facts {
  const redacted = screened(facts, scanner, 'report');
  return { ...redacted.facts, errors: [...redacted.facts.errors, ...redacted.errors] };
}

function kept(report: Report, text: string | ClearedText): Report {
  keepText(report, text);
  return deepFreeze(report);
}

/** What the verdict is settled from. */
type Facts = DiagnosedPass & Pick<Report, 'baseline' | 'warnings'>;

/** The one place a verdict is decided: totals, verdict, exit code, summary and the profile's outcome, from the facts. */
function settled(facts: Facts): Report & Required<Pick<Report, 'integrity'>> {
  const { requests, requirements, exchanges, diagnoses, errors, baseline, warnings, ...head } = facts;
  const couldNotJudge = diagnoses.some((diagnosis) => diagnosis.inconclusive);
  const outcome = runOutcome(requirements, head.options.strict, errors, waivedRequirements(facts), couldNotJudge);
  const totals = Object.fromEntries(
    VERDICTS.map((name) => [name, requirements.filter((result) => result.verdict === name).length]),
  ) as Record<Verdict, number>;
  return {
    ...head,
    ...outcome,
    summary: summarise({ ...facts, ...outcome }),
    totals,
    requests,
    requirements,
    exchanges,
    diagnoses,
    errors,
    integrity: { catalog: catalogHash, configuration: configurationHash(facts) },
    ...(head.options.profile ? { profile: profileResult(head.options.profile, requirements) } : {}),
    ...(baseline ? { baseline } : {}),
    ...(warnings ? { warnings } : {}),
  };
}

/** A report off its published schema is a fault of the suite, said in the report itself. */
function schemaProblem(report: Report): RunError | undefined {
  const schemaCheck = validator('report');
  if (schemaCheck(report)) return undefined;
  return {
    code: 'HARNESS_INTERNAL',
    message: `report.json does not match schemas/report.schema.json: ${formatSchemaErrors(schemaCheck.errors)}`,
    hint: 'This is a bug in the suite; please report it',
    party: 'suite',
  };
}

/**
 * When the API was never reached, what failed says nothing about it: a requirement that failed is not judged, each of its
 * checks a skip that names the cause, keeping what was expected and seen.
 */
function setAside(result: Omit<RequirementResult, 'party'>, cause: Diagnosis): Omit<RequirementResult, 'party'> {
  if (result.verdict !== 'fail' && result.verdict !== 'warn') return result;
  const checks = result.checks.map((check) =>
    check.verdict === 'fail' || check.verdict === 'pass'
      ? { ...check, verdict: 'skip' as const, description: `${check.description}: not judged, ${cause.summary}` }
      : check,
  );
  return { ...result, checks, verdict: requirementVerdict(result, checks) };
}

/** Counters grow through the run, so the largest any scenario saw is the run's. */
function requestCounts(scenarios: ScenarioResult[]): Report['requests'] {
  const most = (count: (scenario: ScenarioResult) => number | undefined): number =>
    Math.max(0, ...scenarios.map((scenario) => count(scenario) ?? 0));
  const rateLimited = most((scenario) => scenario.rateLimited);
  return {
    sent: most((scenario) => scenario.requestsSent),
    ...(rateLimited > 0 ? { rateLimited, waitedMs: most((scenario) => scenario.waitedMs) } : {}),
  };
}
