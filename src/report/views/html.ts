import type { JudgedExchange, RecordedCheck } from '../../judge/scenario-result.js';
import { groupByExchange, requestText, responseText, type ExchangeGroup } from './exchange-text.js';
import { htmlPage, markup, type Html } from './escape/html.js';
import { outcomeLine, profileHeading, splitByProfile } from './failure-text.js';
import { SCRIPT } from './html-script.js';
import { stylesheet, toneClass } from './stylesheet.js';
import { countedVerdict, PROFILE_TONES, RUN_VERDICT_WORDS, sentenceCase, VERDICT_WORDS } from './vocabulary.js';
import { requestPath } from './request-path.js';
import type { Report, RequirementResult, Verdict } from '../model/types.js';
import { VERDICTS } from '../model/types.js';
import { sliceGrid } from '../model/slices.js';
import { outcomesOf, type Outcome } from '../model/outcomes.js';

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
/** The ids of the failures' details begin with it; a failure shows its exchanges in full. */
const FAILURE_PREFIX = 'failure';
/** What fails the run first, then what could not be judged, then what the gate lets through. */
const NEEDS_ATTENTION: Outcome[] = ['failed', 'unjudged', 'warned', 'waived'];

/** The requirements in the order a reader should open them: those that need attention first. */
function attentionFirst(report: Report, results: RequirementResult[]): { result: RequirementResult; outcome: Outcome }[] {
  const members = new Set(results);
  const rank = (outcome: Outcome): number =>
    NEEDS_ATTENTION.includes(outcome) ? NEEDS_ATTENTION.indexOf(outcome) : NEEDS_ATTENTION.length;
  return outcomesOf(report)
    .filter(({ result }) => members.has(result))
    .sort((a, b) => rank(a.outcome) - rank(b.outcome));
}

/** The one sentence at the top: the verdict and, when there is one, the most likely cause in plain words. */
export function headline(report: Report): string {
  const cause = report.diagnoses[0];
  if (report.verdict === 'not-conformant' && cause) return `${sentenceCase(RUN_VERDICT_WORDS[report.verdict].label)}: ${cause.summary}.`;
  return report.summary;
}

const badge = (verdict: Verdict): Html =>
  markup`<span class="badge b-${verdict} ${toneClass(VERDICT_WORDS[verdict].tone)}">${VERDICT_WORDS[verdict].label}</span>`;

/** Where an exchange is shown in full, once, for the requirements outside the failures to link to, and which link to it. */
interface SharedExchange {
  id: string;
  exchange: JudgedExchange;
  /** The requirements that link to it, in the page's order: each one's details' id and its own. */
  linkedFrom: { anchor: string; requirement: string }[];
}

/**
 * What one page's rendering keeps: the ids it gave out, unique in the page, the text of each exchange, escaped once
 * however many requirements show it, and the exchanges the page's last section shows once for the requirements that
 * link to them.
 */
class Page {
  private next = 0;
  private readonly exchanges = new Map<JudgedExchange, { http: Html; repro: Html }>();
  readonly shared = new Map<JudgedExchange, SharedExchange>();
  take(prefix: string): string {
    this.next += 1;
    return `${prefix}-${this.next}`;
  }
  exchangeText(exchange: JudgedExchange): { http: Html; repro: Html } {
    let text = this.exchanges.get(exchange);
    if (!text) {
      const { request, response, repro } = exchange;
      text = {
        http: markup`<dt>Request</dt><dd><pre>${requestText(request)}</pre></dd><dt>Response (secrets redacted)</dt><dd><pre>${responseText(response)}</pre></dd>`,
        repro: markup`${repro}`,
      };
      this.exchanges.set(exchange, text);
    }
    return text;
  }
  /** The id of the exchange's one copy in the page's last section, noting the requirement that links to it. */
  share(exchange: JudgedExchange, from: { anchor: string; requirement: string }): string {
    let shared = this.shared.get(exchange);
    if (!shared) {
      shared = { id: this.take('exchange'), exchange, linkedFrom: [] };
      this.shared.set(exchange, shared);
    }
    if (!shared.linkedFrom.some(({ anchor }) => anchor === from.anchor)) shared.linkedFrom.push(from);
    return shared.id;
  }
}

function fields(rows: [string, string | undefined][]): Html | undefined {
  const present = rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  if (present.length === 0) return undefined;
  return markup`<dl class="fields">${present.map(([name, value]) => markup`<dt>${name}</dt><dd>${value}</dd>`)}</dl>`;
}

function checkItem(check: RecordedCheck): Html {
  const detail = check.error
    ? fields([
        ['Error', `${check.error.code}: ${check.error.message}`],
        ['Fix', check.error.hint],
      ])
    : fields([
        ['Expected', check.expected],
        ['Actual', check.actual],
      ]);
  return markup`<li>${badge(check.verdict)} ${check.description}${detail}</li>`;
}

/** A block of text with a Copy button (shown once the script runs, so a page without it shows no dead button). */
function copyableBlock(text: string | Html, page: Page, kind: string): Html {
  const code = page.take(kind);
  const status = page.take('copied');
  return markup`<div class="repro"><pre id="${code}"><code>${text}</code></pre><button type="button" class="copy" data-copy="${code}" aria-describedby="${status}" hidden>Copy</button><span class="copied" id="${status}" role="status"></span></div>`;
}

/** An exchange's request, answer and repro in full. */
function exchangeDetails(exchange: JudgedExchange, page: Page): Html {
  const { http, repro } = page.exchangeText(exchange);
  return markup`<dl class="http">${http}<dt>Reproduce (put your token in place of &lt;API_TOKEN&gt;)</dt><dd>${copyableBlock(repro, page, 'repro')}</dd></dl>`;
}

/**
 * The checks made on one exchange, and the exchange: in full under a failure, where a reader looks first; elsewhere a
 * link to its one copy in the page's last section, since most exchanges are judged by several requirements.
 */
function exchangeBlock(group: ExchangeGroup, page: Page, from: { anchor: string; requirement: string }, inFull: boolean): Html {
  let exchange: Html | undefined;
  if (group.exchange && inFull) exchange = exchangeDetails(group.exchange, page);
  else if (group.exchange) {
    const { request, response } = group.exchange;
    exchange = markup`<p class="seen">Request, answer and repro: <a href="#${page.share(group.exchange, from)}">${request.method} ${request.url} &rarr; HTTP ${response.status}</a></p>`;
  }
  return markup`<div class="exchange"><ul class="checks">${group.checks.map(checkItem)}</ul>${exchange}</div>`;
}

function requirementDetails(report: Report, result: RequirementResult, idPrefix: string, page: Page): Html {
  const attention = (verdict: string): number => (['fail', 'flaky', 'error'].includes(verdict) ? 0 : 1);
  const ordered = [...result.checks].sort((a, b) => attention(a.verdict) - attention(b.verdict));
  const party = result.party ? markup`<p>Most likely at fault: ${PARTY_TEXT[result.party]}.</p>\n` : undefined;
  const anchor = `${idPrefix}-${result.id}`;
  const exchanges = groupByExchange(report, ordered).map(
    (group) => markup`${exchangeBlock(group, page, { anchor, requirement: result.id }, idPrefix === FAILURE_PREFIX)}\n`,
  );
  // The page's own curly quotes are character references, so that a page whose text is all Latin-1 stays a one-byte
  // string: a single character beyond Latin-1 makes the whole page two bytes a character to build, screen and write.
  return markup`<details class="req" id="${anchor}">
<summary>${badge(result.verdict)} <span class="level">${result.level}</span> <code class="rid">${result.id}</code> <span>${result.title}</span></summary>
<div class="req-body">
<blockquote><p>&ldquo;${result.quote}&rdquo;</p></blockquote>
<p class="source">${result.level === 'CLIENT' ? 'Client code' : 'API document'}, ${result.section}</p>
${party}${exchanges}</div>
</details>
`;
}

/** Each exchange the requirements outside the failures link to, once, with links back to them. */
function exchangesSection(page: Page): Html | undefined {
  if (page.shared.size === 0) return undefined;
  const items = [...page.shared.values()].map(({ id, exchange, linkedFrom }) => {
    const back = linkedFrom.map(
      ({ anchor, requirement }, index) => markup`${index > 0 ? ', ' : ''}<a href="#${anchor}">${requirement}</a>`,
    );
    return markup`<div class="exchange-record" id="${id}">
<p><code>${exchange.request.method} ${exchange.request.url}</code>, judged for ${back}</p>
${exchangeDetails(exchange, page)}</div>
`;
  });
  return markup`<section aria-labelledby="exchanges">
<h2 id="exchanges">Requests and answers</h2>
<p class="plain">Each request the requirements above link to, once: what went out, what came back (secrets redacted) and a curl command to reproduce it.</p>
${items}</section>
`;
}

function header(report: Report, exchanges: boolean): Html {
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
    .map(([name, value]) => markup`<dt>${name}</dt><dd>${value}</dd>`);
  const diagnosis = report.diagnoses.length > 0 ? markup`<li><a href="#diagnosis">Likely cause</a></li>` : undefined;
  const errors = report.errors.length > 0 ? markup`<li><a href="#run-errors">Run errors</a></li>` : undefined;
  const profile = report.profile ? markup`<li><a href="#official-client">Official client</a></li>` : undefined;
  const shared = exchanges ? markup`<li><a href="#exchanges">Requests and answers</a></li>` : undefined;
  return markup`<header class="wrap">
<h1>Ticketing API conformance report</h1>
<p class="verdict ${toneClass(RUN_VERDICT_WORDS[report.verdict].tone)}" id="verdict">${headline(report)}</p>
<dl class="meta">${meta}</dl>
<nav aria-label="Sections"><ul><li><a href="#totals">Totals</a></li>${diagnosis}${errors}<li><a href="#attention">Failures</a></li><li><a href="#families">All requirements</a></li>${profile}${shared}</ul></nav>
</header>
`;
}

function totalsSection(report: Report): Html {
  const items = VERDICTS.map(
    (verdict) =>
      markup`<li class="t-${verdict} ${toneClass(VERDICT_WORDS[verdict].tone)}"><span class="n">${report.totals[verdict]}</span> ${VERDICT_WORDS[verdict].counted}</li>`,
  );
  return markup`<section aria-labelledby="totals">
<h2 id="totals">Totals</h2>
<ul class="totals">${items}</ul>
<p class="plain">${outcomeLine(report)}, over ${report.requirements.length} requirements.</p>
</section>
`;
}

/** With several statuses or languages: each requirement judged per status or language, its verdict for each. */
function slicesSection(report: Report): Html | undefined {
  const grid = sliceGrid(report);
  if (grid.rows.length === 0) return undefined;
  const head = grid.columns.map((column) => markup`<th scope="col">${column}</th>`);
  const rows = grid.rows.map(
    ({ id, cells }) =>
      markup`<tr><th scope="row">${id}</th>${cells.map((verdict) => markup`<td>${verdict ? badge(verdict) : '-'}</td>`)}</tr>\n`,
  );
  return markup`<section aria-labelledby="slices">
<h2 id="slices">By status and language</h2>
<p class="plain">A requirement's own verdict is the worst of these and of its checks made once for the run.</p>
<div class="scroll"><table class="slices"><thead><tr><th scope="col">Requirement</th>${head}</tr></thead>
<tbody>${rows}</tbody></table></div>
</section>
`;
}

function diagnosisSection(report: Report, page: Page): Html | undefined {
  if (report.diagnoses.length === 0) return undefined;
  const items = report.diagnoses.map((diagnosis) => {
    const advice =
      diagnosis.advice.length > 0
        ? markup`<ol class="advice">${diagnosis.advice.map((line) => markup`<li>${line}</li>`)}</ol>\n`
        : undefined;
    const snippets = (diagnosis.snippets ?? []).map(
      (snippet) =>
        markup`<div class="snippet"><p class="snippet-where">${snippet.label}:</p>${copyableBlock(snippet.lines.join('\n'), page, 'config')}</div>\n`,
    );
    return markup`<div class="diagnosis">
${requestPath(diagnosis, page.take('path'))}
<p class="evidence">Evidence: ${diagnosis.evidence}</p>
${advice}${snippets}</div>
`;
  });
  return markup`<section aria-labelledby="diagnosis">
<h2 id="diagnosis">Likely cause and fix</h2>
${items}</section>
`;
}

function errorsSection(report: Report): Html | undefined {
  if (report.errors.length === 0) return undefined;
  const items = report.errors.map((error) => markup`<li><code>${error.code}</code>: ${error.message}. ${error.hint}</li>`);
  return markup`<section aria-labelledby="run-errors">
<h2 id="run-errors">The run could not judge everything</h2>
<ul>${items}</ul>
</section>
`;
}

/** The heading counts what fails the run as failures, and what the gate lets through apart from them. */
function attentionTitle(needing: { outcome: Outcome }[]): string {
  const count = (wanted: Outcome): number => needing.filter(({ outcome }) => outcome === wanted).length;
  const extras = [
    count('unjudged') > 0 ? `could not judge (${count('unjudged')})` : '',
    count('warned') > 0 ? `warnings, not failures (${count('warned')})` : '',
    count('waived') > 0 ? `known failures, waived (${count('waived')})` : '',
  ].filter(Boolean);
  return [`Failures (${count('failed')})`, ...extras].join(extras.length > 1 ? ', ' : ' and ');
}

function attentionSection(report: Report, page: Page): Html {
  const { document, profile } = splitByProfile(report);
  // The profile's requirements have a section of their own; one that fails the run (--strict) is a failure here too.
  const needing = [
    ...attentionFirst(report, document).filter(({ outcome }) => NEEDS_ATTENTION.includes(outcome)),
    ...attentionFirst(report, profile).filter(({ outcome }) => outcome === 'failed'),
  ];
  const failing = needing.map(({ result }) => result);
  const body =
    failing.length === 0
      ? markup`<p>Nothing failed, and nothing was left unjudged by an error.</p>\n`
      : markup`<p class="plain">Open a requirement for the document&rsquo;s words, what was expected and what came back, and a curl command to reproduce it.</p>
${failing.map((result) => requirementDetails(report, result, FAILURE_PREFIX, page))}`;
  return markup`<section aria-labelledby="attention">
<h2 id="attention">${attentionTitle(needing)}</h2>
${body}</section>
`;
}

function familiesSection(report: Report, page: Page): Html {
  const { document } = splitByProfile(report);
  const families = [...new Set(document.map((result) => result.family))];
  const blocks = families.map((family) => {
    const members = document.filter((result) => result.family === family);
    const counts = VERDICTS.map((verdict) => [verdict, members.filter((result) => result.verdict === verdict).length] as const)
      .filter(([, count]) => count > 0)
      .map(([verdict, count]) => countedVerdict(verdict, count))
      .join(', ');
    return markup`<section aria-labelledby="family-${family}">
<h3 id="family-${family}">${FAMILY_TITLE[family] ?? family}</h3>
<p class="plain">${counts}</p>
${members.map((result) => requirementDetails(report, result, 'requirement', page))}</section>
`;
  });
  return markup`<section aria-labelledby="families">
<h2 id="families">All requirements by family</h2>
${blocks}</section>
`;
}

/** The profile's requirements on their own: what the vendor's client would make of the server, failures open first. */
function profileSection(report: Report, page: Page): Html | undefined {
  if (!report.profile) return undefined;
  const { profile } = splitByProfile(report);
  const ordered = attentionFirst(report, profile).map(({ result }) => result);
  return markup`<section aria-labelledby="official-client">
<h2 id="official-client">${profileHeading(report.profile)}</h2>
<p class="verdict ${toneClass(PROFILE_TONES[report.profile.outcome])}">${report.profile.summary}</p>
<p class="plain">These checks follow the client's own code, quoted with each; they fail the run only with --strict.</p>
${ordered.map((result) => requirementDetails(report, result, 'client', page))}</section>
`;
}

function footer(report: Report): Html {
  const lines = [
    `${report.suite.name} ${report.suite.version}; finished ${report.finishedAt}. This page is self-contained: it loads nothing from the network.`,
  ];
  if (report.integrity?.content)
    lines.push(`Content hash of report.json: ${report.integrity.content} (check it with: ticketing-conformance verify report.json)`);
  if (report.integrity) lines.push(`Catalog ${report.integrity.catalog}; configuration ${report.integrity.configuration}`);
  return markup`<footer class="wrap">${lines.map((line) => markup`<p>${line}</p>`)}</footer>`;
}

/** report.html: one self-contained page rendered from the report, for people who want a page and one sentence. */
export function renderHtml(report: Report): string {
  const page = new Page();
  const host = URL.canParse(report.target.baseUrl) ? new URL(report.target.baseUrl).host : report.target.baseUrl;
  // In the page's order, so that the last section holds the exchanges the sections before it linked to.
  const sections = markup`${totalsSection(report)}${slicesSection(report)}${diagnosisSection(report, page)}${errorsSection(report)}${attentionSection(report, page)}${familiesSection(report, page)}${profileSection(report, page)}`;
  return htmlPage({
    title: `${sentenceCase(RUN_VERDICT_WORDS[report.verdict].label)}: ${host} - ticketing API conformance`,
    style: stylesheet('report'),
    script: SCRIPT,
    body: markup`<a class="skip" href="#main">Skip to the results</a>
${header(report, page.shared.size > 0)}<main id="main" class="wrap">
${sections}${exchangesSection(page)}</main>
${footer(report)}`,
  });
}
