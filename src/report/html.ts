import type { RecordedCheck } from '../harness/scenario-result.js';
import { groupByExchange, requestText, responseText, type ExchangeGroup } from '../harness/exchange-text.js';
import { countsLine } from './failure-text.js';
import { CONTENT_SECURITY_POLICY, SCRIPT, STYLE } from './html-assets.js';
import { requestPathSvg } from './request-path.js';
import type { Report, RequirementResult, RunVerdict, Verdict } from './types.js';
import { VERDICTS } from './types.js';

// Control and bidirectional-override characters could hide or reorder what a target sent; show them as codes.
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Everything that reaches the page from a report goes through here: the target's answers are hostile input. */
export function escapeHtml(text: string): string {
  return text
    .replace(INVISIBLE, (char) => `\\u{${char.codePointAt(0)?.toString(16).padStart(4, '0') ?? ''}}`)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const RUN_VERDICT_LABEL: Record<RunVerdict, string> = {
  conformant: 'Conformant',
  'not-conformant': 'Not conformant',
  inconclusive: 'No verdict',
};
const VERDICT_LABEL: Record<Verdict, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  info: 'INFO',
  skip: 'SKIP',
  error: 'ERROR',
  flaky: 'FLAKY',
};
const TOTAL_LABEL: Record<Verdict, string> = {
  pass: 'passed',
  fail: 'failed',
  warn: 'warnings',
  info: 'observations',
  skip: 'skipped',
  error: 'could not judge',
  flaky: 'flaky',
};
const FAMILY_TITLE: Record<string, string> = {
  envelope: 'Response envelope',
  status: 'Ticket status',
  lang: 'Language parameter',
  auth: 'Authentication',
  selfservice: 'Self-service type listing',
};
const PARTY_TEXT = {
  target: 'the target (the API application)',
  environment: 'the environment (network, TLS, or the web server in front of the application)',
  suite: 'the suite itself',
};
/** Failures first: broken MUSTs, then what could not be judged, then broken SHOULDs. */
const NEEDS_ATTENTION: Verdict[] = ['fail', 'flaky', 'error', 'warn'];

/** The one sentence at the top: the verdict and, when there is one, the most likely cause in plain words. */
export function headline(report: Report): string {
  const cause = report.diagnoses[0];
  if (report.verdict === 'not-conformant' && cause) return `Not conformant: ${cause.summary}.`;
  return report.summary;
}

const badge = (verdict: Verdict): string => `<span class="badge b-${verdict}">${VERDICT_LABEL[verdict]}</span>`;

/** Gives each copyable block an id unique in the page. */
class Ids {
  private next = 0;
  take(prefix: string): string {
    this.next += 1;
    return `${prefix}-${this.next}`;
  }
}

function fields(rows: [string, string | undefined][]): string {
  const present = rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  if (present.length === 0) return '';
  return `<dl class="fields">${present.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

function checkItem(check: RecordedCheck): string {
  const detail = check.error
    ? fields([
        ['Error', `${check.error.code}: ${check.error.message}`],
        ['Fix', check.error.hint],
      ])
    : fields([
        ['Expected', check.expected],
        ['Actual', check.actual],
      ]);
  return `<li>${badge(check.verdict)} ${escapeHtml(check.description)}${detail}</li>`;
}

/** A block of text with a Copy button (shown once the script runs, so a page without it shows no dead button). */
function copyableBlock(text: string, ids: Ids, kind: string): string {
  const code = ids.take(kind);
  const status = ids.take('copied');
  return (
    `<div class="repro"><pre id="${code}"><code>${escapeHtml(text)}</code></pre>` +
    `<button type="button" class="copy" data-copy="${code}" aria-describedby="${status}" hidden>Copy</button>` +
    `<span class="copied" id="${status}" role="status"></span></div>`
  );
}

function exchangeBlock(group: ExchangeGroup, ids: Ids): string {
  const parts = [`<ul class="checks">${group.checks.map(checkItem).join('')}</ul>`];
  const http: string[] = [];
  if (group.request) http.push(`<dt>Request</dt><dd><pre>${escapeHtml(requestText(group.request))}</pre></dd>`);
  if (group.response) http.push(`<dt>Response (secrets redacted)</dt><dd><pre>${escapeHtml(responseText(group.response))}</pre></dd>`);
  if (group.repro) {
    http.push(`<dt>Reproduce (put your token in place of &lt;API_TOKEN&gt;)</dt><dd>${copyableBlock(group.repro, ids, 'repro')}</dd>`);
  }
  if (http.length > 0) parts.push(`<dl class="http">${http.join('')}</dl>`);
  return `<div class="exchange">${parts.join('')}</div>`;
}

function requirementDetails(result: RequirementResult, idPrefix: string, ids: Ids): string {
  const attention = (verdict: string): number => (['fail', 'flaky', 'error'].includes(verdict) ? 0 : 1);
  const ordered = [...result.checks].sort((a, b) => attention(a.verdict) - attention(b.verdict));
  const party = result.party ? `<p>Most likely at fault: ${escapeHtml(PARTY_TEXT[result.party])}.</p>` : '';
  return [
    `<details class="req" id="${idPrefix}-${escapeHtml(result.id)}">`,
    `<summary>${badge(result.verdict)} <span class="level">${escapeHtml(result.level)}</span> <code class="rid">${escapeHtml(result.id)}</code> <span>${escapeHtml(result.title)}</span></summary>`,
    '<div class="req-body">',
    `<blockquote><p>“${escapeHtml(result.quote)}”</p></blockquote>`,
    `<p class="source">API document, ${escapeHtml(result.section)}</p>`,
    party,
    ...groupByExchange(ordered).map((group) => exchangeBlock(group, ids)),
    '</div>',
    '</details>',
  ].join('\n');
}

function header(report: Report): string {
  const fingerprint = report.target.fingerprint;
  const rows: [string, string | undefined][] = [
    ['Target', `${report.target.baseUrl}${report.target.embeddedReference ? ' (embedded reference server)' : ''}`],
    ['Server', fingerprint?.server.join(', ')],
    ['TLS certificate SHA-256', fingerprint?.tlsCertificateSha256.join(', ')],
    ['Run', `${report.startedAt}, ${report.durationMs} ms, ${report.requests.sent} requests`],
    ['Exit code', `${report.exitCode} (${report.verdict})`],
  ];
  const meta = rows
    .filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '')
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  return [
    '<header class="wrap">',
    '<h1>Ticketing API conformance report</h1>',
    `<p class="verdict ${report.verdict}" id="verdict">${escapeHtml(headline(report))}</p>`,
    `<dl class="meta">${meta}</dl>`,
    '<nav aria-label="Sections"><ul><li><a href="#totals">Totals</a></li>',
    report.diagnoses.length > 0 ? '<li><a href="#diagnosis">Likely cause</a></li>' : '',
    report.errors.length > 0 ? '<li><a href="#run-errors">Run errors</a></li>' : '',
    '<li><a href="#attention">Failures</a></li><li><a href="#families">All requirements</a></li></ul></nav>',
    '</header>',
  ].join('\n');
}

function totalsSection(report: Report): string {
  const items = VERDICTS.map(
    (verdict) => `<li class="t-${verdict}"><span class="n">${report.totals[verdict]}</span> ${TOTAL_LABEL[verdict]}</li>`,
  ).join('');
  return [
    '<section aria-labelledby="totals">',
    '<h2 id="totals">Totals</h2>',
    `<ul class="totals">${items}</ul>`,
    `<p class="plain">${escapeHtml(countsLine(report.totals))}, over ${report.requirements.length} requirements.</p>`,
    '</section>',
  ].join('\n');
}

function diagnosisSection(report: Report, ids: Ids): string {
  if (report.diagnoses.length === 0) return '';
  const items = report.diagnoses.map((diagnosis) =>
    [
      '<div class="diagnosis">',
      `<p><strong>${escapeHtml(diagnosis.summary)}</strong></p>`,
      `<p class="source">Most likely ${escapeHtml(diagnosis.party)}; ${escapeHtml(diagnosis.confidence)} confidence.</p>`,
      `<figure class="path">${requestPathSvg(diagnosis, escapeHtml, ids.take('path'))}</figure>`,
      `<p>Evidence: ${escapeHtml(diagnosis.evidence)}</p>`,
      diagnosis.advice.length > 0 ? `<ol>${diagnosis.advice.map((advice) => `<li>${escapeHtml(advice)}</li>`).join('')}</ol>` : '',
      ...(diagnosis.snippets ?? []).map(
        (snippet) =>
          `<div class="snippet"><p class="snippet-where">${escapeHtml(snippet.label)}:</p>${copyableBlock(snippet.lines.join('\n'), ids, 'config')}</div>`,
      ),
      '</div>',
    ].join('\n'),
  );
  return ['<section aria-labelledby="diagnosis">', '<h2 id="diagnosis">Likely cause and fix</h2>', ...items, '</section>'].join('\n');
}

function errorsSection(report: Report): string {
  if (report.errors.length === 0) return '';
  const items = report.errors.map(
    (error) => `<li><code>${escapeHtml(error.code)}</code>: ${escapeHtml(error.message)}. ${escapeHtml(error.hint)}</li>`,
  );
  return [
    '<section aria-labelledby="run-errors">',
    '<h2 id="run-errors">The run could not judge everything</h2>',
    `<ul>${items.join('')}</ul>`,
    '</section>',
  ].join('\n');
}

function attentionTitle(failing: RequirementResult[]): string {
  const count = (verdict: Verdict): number => failing.filter((result) => result.verdict === verdict).length;
  const extras = [
    count('error') > 0 ? `could not judge (${count('error')})` : '',
    count('flaky') > 0 ? `flaky (${count('flaky')})` : '',
    count('warn') > 0 ? `warnings (${count('warn')})` : '',
  ].filter(Boolean);
  return [`Failures (${count('fail')})`, ...extras].join(extras.length > 1 ? ', ' : ' and ');
}

function attentionSection(report: Report, ids: Ids): string {
  const failing = NEEDS_ATTENTION.flatMap((verdict) => report.requirements.filter((result) => result.verdict === verdict));
  const body =
    failing.length === 0
      ? '<p>Nothing failed, and nothing was left unjudged by an error.</p>'
      : failing.map((result) => requirementDetails(result, 'failure', ids)).join('\n');
  return [
    '<section aria-labelledby="attention">',
    `<h2 id="attention">${escapeHtml(attentionTitle(failing))}</h2>`,
    failing.length > 0
      ? '<p class="plain">Open a requirement for the document’s words, what was expected and what came back, and a curl command to reproduce it.</p>'
      : '',
    body,
    '</section>',
  ].join('\n');
}

function familiesSection(report: Report, ids: Ids): string {
  const families = [...new Set(report.requirements.map((result) => result.family))];
  const blocks = families.map((family) => {
    const members = report.requirements.filter((result) => result.family === family);
    const counts = VERDICTS.map((verdict) => [verdict, members.filter((result) => result.verdict === verdict).length] as const)
      .filter(([, count]) => count > 0)
      .map(([verdict, count]) => `${count} ${TOTAL_LABEL[verdict]}`)
      .join(', ');
    return [
      `<section aria-labelledby="family-${escapeHtml(family)}">`,
      `<h3 id="family-${escapeHtml(family)}">${escapeHtml(FAMILY_TITLE[family] ?? family)}</h3>`,
      `<p class="plain">${escapeHtml(counts)}</p>`,
      ...members.map((result) => requirementDetails(result, 'requirement', ids)),
      '</section>',
    ].join('\n');
  });
  return ['<section aria-labelledby="families">', '<h2 id="families">All requirements by family</h2>', ...blocks, '</section>'].join('\n');
}

function footer(report: Report): string {
  const lines = [
    `${report.suite.name} ${report.suite.version}; finished ${report.finishedAt}. This page is self-contained: it loads nothing from the network.`,
  ];
  if (report.integrity?.content)
    lines.push(`Content hash of report.json: ${report.integrity.content} (check it with: ticketing-conformance verify report.json)`);
  if (report.integrity) lines.push(`Catalog ${report.integrity.catalog}; configuration ${report.integrity.configuration}`);
  return `<footer class="wrap">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</footer>`;
}

/** report.html: one self-contained page rendered from the report, for people who want a page and one sentence. */
export function renderHtml(report: Report): string {
  const ids = new Ids();
  const host = URL.canParse(report.target.baseUrl) ? new URL(report.target.baseUrl).host : report.target.baseUrl;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(`${RUN_VERDICT_LABEL[report.verdict]}: ${host} - ticketing API conformance`)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<a class="skip" href="#main">Skip to the results</a>',
    header(report),
    '<main id="main" class="wrap">',
    totalsSection(report),
    diagnosisSection(report, ids),
    errorsSection(report),
    attentionSection(report, ids),
    familiesSection(report, ids),
    '</main>',
    footer(report),
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');
}
