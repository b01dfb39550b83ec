import { createHash } from 'node:crypto';
import { groupByExchange, requestText, responseText } from '../harness/exchange-text.js';
import { failingChecks, failureLines } from './failure-text.js';
import { waivedRequirements } from './verdicts.js';
import type { Report, RequirementResult, Verdict } from './types.js';

/** One file of the allure-results folder: its name there and its text. */
export interface AllureFile {
  name: string;
  content: string;
}

type AllureStatus = 'passed' | 'failed' | 'broken' | 'skipped';
interface Label {
  name: string;
  value: string;
}
interface Attachment {
  name: string;
  source: string;
  type: string;
}
/** known, flaky: what Allure shows as a known issue and as a flaky test. */
interface StatusDetails {
  message: string;
  trace?: string;
  known?: boolean;
  flaky?: boolean;
}
/** A test result in the Allure results format (one `<uuid>-result.json` file). */
interface TestResult {
  uuid: string;
  historyId: string;
  testCaseId: string;
  name: string;
  fullName: string;
  titlePath: string[];
  status: AllureStatus;
  statusDetails: StatusDetails;
  stage: 'finished';
  description: string;
  labels: Label[];
  links: [];
  parameters: [];
  steps: [];
  attachments: Attachment[];
  start: number;
  stop: number;
}
interface Category {
  name: string;
  messageRegex?: string;
  matchedStatuses?: AllureStatus[];
}

const STATUS: Record<Verdict, AllureStatus> = {
  pass: 'passed',
  info: 'passed',
  // A SHOULD not met does not gate, but it is still a rule the target broke: the category below tells it apart.
  warn: 'failed',
  fail: 'failed',
  error: 'broken',
  flaky: 'broken',
  skip: 'skipped',
};

const SEVERITY = { MUST: 'critical', SHOULD: 'normal', INFO: 'trivial' } as const;

const CATEGORIES: Category[] = [
  { name: 'MUST requirements not met', matchedStatuses: ['failed'], messageRegex: '.*\\(MUST\\).*' },
  { name: 'SHOULD requirements not met (warnings, do not gate)', matchedStatuses: ['failed'], messageRegex: '.*\\(SHOULD\\).*' },
  { name: 'Verdicts that changed between repeated runs (flaky)', matchedStatuses: ['broken'], messageRegex: '.* flaky.*' },
  { name: 'Not judged: the suite could not reach a verdict', matchedStatuses: ['broken'] },
];

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const uuidOf = (...parts: string[]): string => {
  const hex = sha256(parts.join('\n'));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

function statusDetails(result: RequirementResult, waived: boolean): StatusDetails {
  const failing = failingChecks(result);
  const lead = `${result.id} (${result.level}) ${result.verdict}${result.verdict === 'flaky' ? `: ${result.repeat?.agreed ?? 0} of ${result.repeat?.runs ?? 0} runs agreed` : ''}`;
  const message = failing[0] ? `${lead}: ${failing[0].description}` : lead;
  return {
    message,
    ...(failing.length > 0 ? { trace: failing.map((check) => failureLines(result, check).join('\n')).join('\n\n') } : {}),
    ...(result.verdict === 'flaky' ? { flaky: true } : {}),
    ...(waived ? { known: true } : {}),
  };
}

function labels(report: Report, result: RequirementResult): Label[] {
  return [
    { name: 'parentSuite', value: report.target.baseUrl },
    { name: 'suite', value: result.family },
    { name: 'epic', value: result.family },
    { name: 'story', value: result.id },
    { name: 'severity', value: SEVERITY[result.level] },
    { name: 'tag', value: result.level },
    { name: 'framework', value: report.suite.name },
  ];
}

/**
 * Each exchange the checks of one result judged (already redacted) as one attachment: the request, the repro and the
 * answer. Each result has its own files: Allure shows an attachment under one result only, however many name it.
 */
function attachmentsOf(result: RequirementResult, uuid: string): { attachments: Attachment[]; files: AllureFile[] } {
  const attachments: Attachment[] = [];
  const files: AllureFile[] = [];
  const exchanges = groupByExchange(result.checks).filter((group) => group.request);
  for (const { request, response, repro } of exchanges) {
    if (!request) continue;
    const number = attachments.length + 1;
    const source = `${uuid}-${number}-attachment.txt`;
    const answer = response ? `HTTP ${response.status}` : 'no answer';
    attachments.push({ name: `${number}: ${request.method} ${new URL(request.url).pathname} → ${answer}`, source, type: 'text/plain' });
    const parts = [requestText(request), ...(repro ? [`Reproduce: ${repro}`] : []), response ? responseText(response) : answer];
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
    return `- **${check.verdict.toUpperCase()}** ${check.description}${detail ? `: ${detail}` : ''}`;
  });
  return [`${result.id} (${result.level}): "${result.quote}"`, '', 'Checks:', '', ...checks].join('\n');
}

/**
 * The report as Allure results: one test result per requirement, with the same verdicts as report.json
 * (merged --repeat runs, baseline waivers), so the Allure view never disagrees with the gate.
 */
export function allureFiles(report: Report): AllureFile[] {
  const waived = waivedRequirements(report);
  const start = Date.parse(report.startedAt);
  const stop = Date.parse(report.finishedAt);
  const files: AllureFile[] = [];
  for (const result of report.requirements) {
    const uuid = uuidOf(report.startedAt, report.target.baseUrl, result.id);
    const { attachments, files: attached } = attachmentsOf(result, uuid);
    const testResult: TestResult = {
      uuid,
      historyId: uuidOf(report.target.baseUrl, result.id),
      testCaseId: result.id,
      name: `${result.id} (${result.level}): ${result.title}`,
      fullName: `${report.target.baseUrl} ${result.id}`,
      titlePath: [report.target.baseUrl, result.family],
      status: STATUS[result.verdict],
      statusDetails: statusDetails(result, waived.has(result.id)),
      stage: 'finished',
      description: description(result),
      labels: labels(report, result),
      links: [],
      parameters: [],
      steps: [],
      attachments,
      start,
      stop,
    };
    files.push({ name: `${uuid}-result.json`, content: JSON.stringify(testResult) }, ...attached);
  }
  files.push({ name: 'categories.json', content: JSON.stringify(CATEGORIES) });
  return files;
}
