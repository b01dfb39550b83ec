import { createHash } from 'node:crypto';
import {
  ContentType,
  LabelName,
  Severity,
  Stage,
  Status,
  type Attachment,
  type Label,
  type StatusDetails,
  type TestResult,
} from 'allure-js-commons';
import { InMemoryWriter, stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import type { Category, EnvironmentInfo, ExecutorInfo } from 'allure-js-commons/sdk';
import { groupByExchange, requestText, responseText } from './exchange-text.js';
import { failingChecks, failureLines, skipReason, WARNING_NOTE } from './failure-text.js';
import { outcomesOf, type Outcome } from '../model/outcomes.js';
import type { Report, RequirementResult } from '../model/types.js';
import type { Diagnosis } from '../../diagnosis/types.js';
import type { Level } from '../../requirements/types.js';
import { VERDICT_WORDS } from './vocabulary.js';

/** One file of the allure-results folder: its name there and its text, as Allure's file-system writer would give it. */
export interface AllureFile {
  name: string;
  content: string;
}

/** Allure 2 reads these two flags of statusDetails (known issue, flaky test); the commons model leaves them out. */
type FlaggedStatusDetails = StatusDetails & { known?: boolean; flaky?: boolean };

const EXECUTOR_FILE = 'executor.json';

/**
 * The outcomes the gate reads (report/model/outcomes.ts) as Allure's statuses. Allure counts failed (product defects)
 * and broken (test defects) as unsuccessful and leaves skipped and unknown out of its success rate, so what the gate
 * lets through is skipped, each kind in a category of its own: a SHOULD or CLIENT not met without --strict, a failure
 * the baseline waives (marked known), an INFO observation. Unknown would say the suite does not know what happened,
 * which it does. What could not be judged is broken, as the exit code 2 is.
 */
const STATUS: Record<Outcome, Status> = {
  passed: Status.PASSED,
  failed: Status.FAILED,
  warned: Status.SKIPPED,
  waived: Status.SKIPPED,
  skipped: Status.SKIPPED,
  observed: Status.SKIPPED,
  unjudged: Status.BROKEN,
};

const SEVERITY: Record<Level, Severity> = {
  MUST: Severity.CRITICAL,
  SHOULD: Severity.NORMAL,
  CLIENT: Severity.MINOR,
  INFO: Severity.TRIVIAL,
};

/** The tag a failure's message carries when a diagnosis explains the run; its category matches on it. */
const causeTag = (diagnosis: Diagnosis): string => `[cause: ${diagnosis.id}]`;
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Diagnoses first (categories are matched in order), then the kinds of result. */
function categories(report: Report): Category[] {
  return [
    ...report.diagnoses.map((diagnosis) => ({
      name: `Cause: ${diagnosis.summary}`,
      description: [diagnosis.evidence, ...diagnosis.advice].join('\n'),
      matchedStatuses: [Status.FAILED, Status.BROKEN],
      messageRegex: `.*${escapeRegex(causeTag(diagnosis))}.*`,
    })),
    { name: 'Verdicts that changed between repeated runs (flaky)', matchedStatuses: [Status.FAILED], messageRegex: '.* flaky.*' },
    { name: 'MUST requirements not met', matchedStatuses: [Status.FAILED], messageRegex: '.*\\(MUST\\).*' },
    {
      name: `SHOULD requirements not met${report.options.strict ? ' (failures: --strict)' : `: ${WARNING_NOTE}`}`,
      matchedStatuses: [Status.FAILED, Status.SKIPPED],
      messageRegex: '.*\\(SHOULD\\) warn.*',
    },
    {
      name: `The official client would fail (CLIENT)${report.options.strict ? ' (failures: --strict)' : `: ${WARNING_NOTE}`}`,
      matchedStatuses: [Status.FAILED, Status.SKIPPED],
      messageRegex: '.*\\(CLIENT\\) warn.*',
    },
    { name: 'Not judged: the suite could not reach a verdict', matchedStatuses: [Status.BROKEN] },
    { name: 'Observations where the document sets no rule (INFO)', matchedStatuses: [Status.SKIPPED], messageRegex: '.*\\(INFO\\) info.*' },
  ];
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const uuidOf = (...parts: string[]): string => {
  const hex = sha256(parts.join('\n'));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

function statusDetails(report: Report, result: RequirementResult, waived: boolean): FlaggedStatusDetails {
  const failing = failingChecks(result);
  const agreed = result.verdict === 'flaky' ? `: ${result.repeat?.agreed ?? 0} of ${result.repeat?.runs ?? 0} runs agreed` : '';
  const lead = `${result.id} (${result.level}) ${result.verdict}${agreed}`;
  const why = failing[0]?.description ?? (result.verdict === 'skip' ? skipReason(result) : undefined);
  const cause = failing.length > 0 && report.diagnoses[0] ? ` ${causeTag(report.diagnoses[0])}` : '';
  return {
    message: `${why ? `${lead}: ${why}` : lead}${cause}`,
    ...(failing.length > 0 ? { trace: failing.map((check) => failureLines(report, result, check).join('\n')).join('\n\n') } : {}),
    ...(result.verdict === 'flaky' ? { flaky: true } : {}),
    ...(waived ? { known: true } : {}),
  };
}

function labels(report: Report, result: RequirementResult): Label[] {
  return [
    { name: LabelName.PARENT_SUITE, value: report.target.baseUrl },
    { name: LabelName.SUITE, value: result.family },
    { name: LabelName.EPIC, value: result.family },
    { name: LabelName.STORY, value: result.id },
    { name: LabelName.SEVERITY, value: SEVERITY[result.level] },
    { name: LabelName.TAG, value: result.level },
    { name: LabelName.FRAMEWORK, value: report.suite.name },
  ];
}

/**
 * Each exchange the checks of one result judged (already redacted) as one attachment: the request, the repro and the
 * answer. Each result has its own files: Allure shows an attachment under one result only, however many name it.
 */
function attachmentsOf(report: Report, result: RequirementResult, uuid: string): { attachments: Attachment[]; files: AllureFile[] } {
  const attachments: Attachment[] = [];
  const files: AllureFile[] = [];
  for (const { exchange } of groupByExchange(report, result.checks)) {
    if (!exchange) continue;
    const { request, response, repro } = exchange;
    const number = attachments.length + 1;
    const source = `${uuid}-${number}-attachment.txt`;
    const answer = `HTTP ${response.status}`;
    attachments.push({ name: `${number}: ${request.method} ${new URL(request.url).pathname} → ${answer}`, source, type: ContentType.TEXT });
    const parts = [requestText(request), `Reproduce: ${repro}`, responseText(response)];
    files.push({ name: source, content: parts.join('\n\n') });
  }
  return { attachments, files };
}

/** The requirement's words, then every check with its verdict, expected and actual (Markdown). */
function description(result: RequirementResult): string {
  const checks = result.checks.map((check) => {
    const detail = [check.expected ? `expected ${check.expected}` : '', check.actual ? `actual ${check.actual}` : '']
      .filter(Boolean)
      .join('; ');
    return `- **${VERDICT_WORDS[check.verdict].label}** ${check.description}${detail ? `: ${detail}` : ''}`;
  });
  return [`${result.id} (${result.level}): "${result.quote}"`, '', 'Checks:', '', ...checks].join('\n');
}

/** The Environment panel: what was tested, with which settings, and what the gate said. */
function environment(report: Report): EnvironmentInfo {
  return {
    Target: report.target.baseUrl,
    'Embedded reference server': String(report.target.embeddedReference),
    Verdict: report.verdict,
    'Exit code': String(report.exitCode),
    Suite: `${report.suite.name} ${report.suite.version}`,
    'Status id': String(report.options.statusId),
    Strict: String(report.options.strict),
    Repeat: String(report.options.repeat),
    'Requests sent': String(report.requests.sent),
    Server: report.target.fingerprint?.server.join(', ') || undefined,
    Baseline: report.baseline?.file,
  };
}

/** The Executor panel: the suite, and the CI job that ran it when the environment names one (GitHub Actions, GitLab CI). */
export function executor(report: Report, env: NodeJS.ProcessEnv = {}): ExecutorInfo {
  const github =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? {
          type: 'github',
          buildName: `${env.GITHUB_WORKFLOW ?? 'workflow'} #${env.GITHUB_RUN_NUMBER ?? env.GITHUB_RUN_ID}`,
          buildUrl: `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`,
        }
      : undefined;
  const gitlab = env.CI_JOB_URL
    ? { type: 'gitlab', buildName: `${env.CI_JOB_NAME ?? 'job'} #${env.CI_JOB_ID ?? ''}`, buildUrl: env.CI_JOB_URL }
    : undefined;
  return {
    name: `${report.suite.name} ${report.suite.version}`,
    type: 'ticketing-conformance',
    reportName: `Conformance of ${report.target.baseUrl}: ${report.verdict}`,
    buildName: `${report.verdict} run of ${report.startedAt}`,
    ...(github ?? gitlab ?? {}),
  };
}

/**
 * The report as Allure results, written into an Allure writer: one test result per requirement, with the same verdicts
 * as report.json (merged --repeat runs, baseline waivers), so the Allure view never disagrees with the gate.
 */
export function writeAllureResults(report: Report, writer: Writer, env: NodeJS.ProcessEnv = {}): void {
  const start = Date.parse(report.startedAt);
  const stop = Date.parse(report.finishedAt);
  for (const { result, outcome } of outcomesOf(report)) {
    const uuid = uuidOf(report.startedAt, report.target.baseUrl, result.id);
    const { attachments, files } = attachmentsOf(report, result, uuid);
    const testResult: TestResult = {
      uuid,
      historyId: uuidOf(report.target.baseUrl, result.id),
      testCaseId: result.id,
      name: `${result.id} (${result.level}): ${result.title}`,
      fullName: `${report.target.baseUrl} ${result.id}`,
      titlePath: [report.target.baseUrl, result.family],
      status: STATUS[outcome],
      statusDetails: statusDetails(report, result, outcome === 'waived'),
      stage: Stage.FINISHED,
      description: description(result),
      labels: labels(report, result),
      links: [],
      parameters: [],
      steps: [],
      attachments,
      start,
      stop,
    };
    writer.writeResult(testResult);
    for (const file of files) writer.writeAttachment(file.name, Buffer.from(file.content));
  }
  writer.writeCategoriesDefinitions(categories(report));
  writer.writeEnvironmentInfo(environment(report));
  // Allure reads executor.json beside the results; the writer has no method of its own for it.
  writer.writeAttachment(EXECUTOR_FILE, Buffer.from(JSON.stringify(executor(report, env))));
}

/** Every file of allure-results/, from Allure's own in-memory writer, for the artifact writer to screen and put on disk. */
export function allureFiles(report: Report, env: NodeJS.ProcessEnv = {}): AllureFile[] {
  const results = new InMemoryWriter();
  writeAllureResults(report, results, env);
  return [
    ...results.tests.map((test) => ({ name: `${test.uuid}-result.json`, content: JSON.stringify(test) })),
    ...Object.entries(results.attachments).map(([name, content]) => ({ name, content: content.toString() })),
    { name: 'categories.json', content: JSON.stringify(results.categories ?? []) },
    { name: 'environment.properties', content: stringifyEnvInfo(results.envInfo ?? {}) },
  ];
}
