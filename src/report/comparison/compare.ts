import { schemaAt } from '../../validators/schema-refs.js';
import type { JudgedExchange } from '../../judge/scenario-result.js';
import type { ComparedServer, Comparison, ObservationAspect, ObservationDifference, VerdictDifference } from './types.js';
import { exchangeOf, type ExitCode, type Report, type RequirementResult } from '../model/types.js';
import { isObject } from '../../exchange/json-body.js';

const ASPECTS: readonly ObservationAspect[] = ['answer', 'observation', 'extra-fields', 'content-type'];
const STATUS_PATH = '/api/ticket/status/';
const SHOWN_CHARS = 300;
const NOT_SEEN = 'not requested';

/** One request as a report saw it, found by its exchange key, which names it the same whichever server answered it. */
interface SeenRequest {
  label: string;
  path: string;
  response: JudgedExchange['response'];
  requirements: Set<string>;
}

const documentedFields = (name: 'envelope' | 'ticket-status'): string[] =>
  Object.keys(schemaAt(name).properties as Record<string, unknown>);

function shorten(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

function relativePath(url: string, baseUrl: string): string {
  const parsed = new URL(url);
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const path = parsed.pathname.startsWith(prefix) ? parsed.pathname.slice(prefix.length) : parsed.pathname;
  return `${path}${parsed.search}`;
}

/** The request without its server: method, path and the credentials in words (the token is never in them). */
function requestLabel(exchange: JudgedExchange, baseUrl: string): { label: string; path: string } {
  const path = relativePath(exchange.request.url, baseUrl);
  return { label: `${exchange.request.method} ${path} (${exchange.request.credentials})`, path };
}

/** Every request the report's checks judged, by exchange key, with the requirements that judged it. */
function requestsOf(report: Report): Map<string, SeenRequest> {
  const seen = new Map<string, SeenRequest>();
  for (const [key, exchange] of Object.entries(report.exchanges)) {
    seen.set(key, { ...requestLabel(exchange, report.target.baseUrl), response: exchange.response, requirements: new Set() });
  }
  for (const result of report.requirements) {
    for (const check of result.checks) if (check.exchange !== undefined) seen.get(check.exchange)?.requirements.add(result.id);
  }
  return seen;
}

function answer(request: SeenRequest | undefined): string {
  return request ? shorten(`HTTP ${request.response.status} ${request.response.body || '<empty body>'}`) : NOT_SEEN;
}

const contentType = (request: SeenRequest | undefined): string =>
  request ? (request.response.headers['content-type'] ?? 'none sent') : NOT_SEEN;

const succeeded = (request: SeenRequest | undefined): boolean =>
  request !== undefined && request.response.status >= 200 && request.response.status < 300;

function extraFields(request: SeenRequest | undefined): string | undefined {
  if (!succeeded(request) || !request) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(request.response.body);
  } catch {
    return undefined;
  }
  if (!isObject(body)) return undefined;
  const extra = (fields: string[], documented: string[]): string[] => fields.filter((field) => !documented.includes(field)).sort();
  const parts = [];
  const top = extra(Object.keys(body), documentedFields('envelope'));
  if (top.length > 0) parts.push(`top level: ${top.join(', ')}`);
  if (request.path.startsWith(STATUS_PATH) && isObject(body.data)) {
    const data = extra(Object.keys(body.data), documentedFields('ticket-status'));
    if (data.length > 0) parts.push(`data: ${data.join(', ')}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'none';
}

interface Observation {
  requirement: string;
  /** The key of the exchange observed, if any. */
  exchange?: string;
  label: string;
  value: string;
}

/** INFO checks of one report, keyed by requirement, exchange key and their order, so the two reports pair up. */
function observationsOf(report: Report): Map<string, Observation> {
  const recorded = new Map<string, Observation>();
  for (const result of report.requirements) {
    for (const check of result.checks.filter((candidate) => candidate.verdict === 'info')) {
      const exchange = exchangeOf(report, check);
      const label = exchange ? requestLabel(exchange, report.target.baseUrl).label : 'no request';
      let key = '';
      for (let n = 0; key === '' || recorded.has(key); n += 1) key = `${result.id} ${exchange ? check.exchange : ''} #${n}`;
      recorded.set(key, {
        requirement: result.id,
        ...(exchange ? { exchange: check.exchange } : {}),
        label,
        value: shorten(`${check.description}: ${check.actual ?? ''}`),
      });
    }
  }
  return recorded;
}

function observationDifferences(target: Report, compareTo: Report): ObservationDifference[] {
  const differences: ObservationDifference[] = [];
  const add = (aspect: ObservationAspect, request: string, requirements: Iterable<string>, left: string, right: string): void => {
    if (left !== right) differences.push({ aspect, requests: [request], requirements: [...requirements], target: left, compareTo: right });
  };
  const left = requestsOf(target);
  const right = requestsOf(compareTo);
  const answersDiffer = new Set<string>();
  for (const key of new Set([...left.keys(), ...right.keys()])) {
    const a = left.get(key);
    const b = right.get(key);
    const label = (a ?? b)?.label ?? key;
    const requirements = new Set([...(a?.requirements ?? []), ...(b?.requirements ?? [])]);
    if ((!succeeded(a) || !succeeded(b)) && answer(a) !== answer(b)) {
      answersDiffer.add(key);
      add('answer', label, requirements, answer(a), answer(b));
    }
    const extraA = extraFields(a);
    const extraB = extraFields(b);
    // Neither aspect belongs to a requirement: the document neither forbids extra fields nor names a media type.
    if (extraA !== undefined && extraB !== undefined) add('extra-fields', label, [], extraA, extraB);
    add('content-type', label, [], contentType(a), contentType(b));
  }
  const infoA = observationsOf(target);
  const infoB = observationsOf(compareTo);
  for (const key of new Set([...infoA.keys(), ...infoB.keys()])) {
    const a = infoA.get(key);
    const b = infoB.get(key);
    const observed = (a ?? b) as Observation;
    const exchange = observed.exchange ?? '';
    // Said already: a differing answer on this request, or a Content-Type, which has its own aspect.
    if (answersDiffer.has(exchange)) continue;
    const withoutType = (value: string | undefined, seen: SeenRequest | undefined): string | undefined =>
      seen?.response.headers['content-type'] ? value?.replaceAll(seen.response.headers['content-type'], '<content-type>') : value;
    if (withoutType(a?.value, left.get(exchange)) === withoutType(b?.value, right.get(exchange))) continue;
    add('observation', observed.label, [observed.requirement], a?.value ?? 'not recorded', b?.value ?? 'not recorded');
  }
  return group(differences);
}

/** Differences that read the same on several requests (a Content-Type on every answer) are listed once. */
function group(differences: ObservationDifference[]): ObservationDifference[] {
  const grouped = new Map<string, ObservationDifference>();
  for (const difference of differences) {
    const key = JSON.stringify([difference.aspect, difference.target, difference.compareTo]);
    const existing = grouped.get(key);
    if (existing) {
      existing.requests.push(...difference.requests);
      existing.requirements = [...new Set([...existing.requirements, ...difference.requirements])];
    } else {
      grouped.set(key, { ...difference, requests: [...difference.requests] });
    }
  }
  return [...grouped.values()]
    .map((difference) => ({ ...difference, requirements: [...difference.requirements].sort() }))
    .sort((a, b) => ASPECTS.indexOf(a.aspect) - ASPECTS.indexOf(b.aspect));
}

function detail(result: RequirementResult): string | undefined {
  if (result.verdict === 'pass' || result.verdict === 'info') return undefined;
  const check = result.checks.find((candidate) => candidate.verdict === 'fail' || candidate.verdict === 'error') ?? result.checks[0];
  if (!check) return undefined;
  const found = check.error ? `${check.error.code}: ${check.error.message}` : check.actual;
  return shorten(found ? `${check.description}: ${found}` : check.description);
}

function verdictDifferences(target: Report, compareTo: Report): VerdictDifference[] {
  return target.requirements.flatMap((mine) => {
    const theirs = compareTo.requirements.find((candidate) => candidate.id === mine.id);
    if (!theirs || theirs.verdict === mine.verdict) return [];
    const targetDetail = detail(mine);
    const compareToDetail = detail(theirs);
    return [
      {
        id: mine.id,
        level: mine.level,
        title: mine.title,
        target: mine.verdict,
        compareTo: theirs.verdict,
        ...(targetDetail ? { targetDetail } : {}),
        ...(compareToDetail ? { compareToDetail } : {}),
      },
    ];
  });
}

const server = (report: Report): ComparedServer => ({
  baseUrl: report.target.baseUrl,
  embeddedReference: report.target.embeddedReference,
  verdict: report.verdict,
  exitCode: report.exitCode,
  summary: report.summary,
  totals: report.totals,
});

function summarise(comparison: Omit<Comparison, 'summary'>): string {
  const unjudged = [comparison.target, comparison.compareTo].filter((side) => side.exitCode === 2);
  if (unjudged.length > 0) return `Could not compare: no verdict for ${unjudged.map((side) => side.baseUrl).join(' nor ')}.`;
  const musts = comparison.requirements.filter((difference) => difference.level === 'MUST').map((difference) => difference.id);
  const verdicts = `${comparison.requirements.length} requirement verdict(s) differ${musts.length > 0 ? ` (MUST: ${musts.join(', ')})` : ''}`;
  return `${verdicts}; ${comparison.observations.length} observation(s) differ.`;
}

/**
 * Where two servers differ: per requirement (its verdict) and per observation (answers, recorded INFO, extra fields,
 * Content-Type). Could not judge either side: exit 2; a MUST verdict differs: exit 1; otherwise the target's exit code.
 */
export function compareReports(target: Report, compareTo: Report): Comparison {
  const requirements = verdictDifferences(target, compareTo);
  const mustDiffers = requirements.some((difference) => difference.level === 'MUST');
  const exitCode: ExitCode = target.exitCode === 2 || compareTo.exitCode === 2 ? 2 : mustDiffers ? 1 : target.exitCode;
  const comparison: Omit<Comparison, 'summary'> = {
    schemaVersion: 1,
    target: server(target),
    compareTo: server(compareTo),
    mustDiffers,
    exitCode,
    requirements,
    observations: observationDifferences(target, compareTo),
  };
  return { ...comparison, summary: summarise(comparison) };
}
