import { htmlPage, markup, type Html } from '../views/escape/html.js';
import { pathLink } from '../views/escape/link.js';
import { outcomeCountsLine } from '../views/failure-text.js';
import { OUTCOMES, type Outcome } from '../model/outcomes.js';
import { targetOutcome } from './cells.js';
import type { Matrix, MatrixTarget } from './types.js';
import { stylesheet, toneClass } from '../views/stylesheet.js';
import { OUTCOME_WORDS, RUN_VERDICT_WORDS, sentenceCase } from '../views/vocabulary.js';
/** Outcomes whose cell names itself on hover; the others are the bulk of a large grid and say enough by symbol. */
const NAMED_CELL: ReadonlySet<Outcome> = new Set(['failed', 'warned', 'waived', 'unjudged']);

/** Up to this many targets, a matrix with nothing to look at opens on all of them. */
const OPEN_ALL_MAX = 100;

/** What the filter offers: each choice hides the rows of the other kinds, by CSS alone. */
const FILTERS = [
  { id: 'all', label: 'All', hides: '' },
  { id: 'attention', label: 'Need attention', hides: 'tr.ok' },
  { id: 'not-conformant', label: sentenceCase(RUN_VERDICT_WORDS['not-conformant'].label), hides: 'tr:not(.not-conformant)' },
  { id: 'inconclusive', label: 'Without a verdict', hides: 'tr:not(.inconclusive)' },
  { id: 'conformant', label: sentenceCase(RUN_VERDICT_WORDS.conformant.label), hides: 'tr:not(.conformant)' },
] as const;

/** Each filter hides the rows of the other kinds. */
const FILTER_RULES = `
${FILTERS.filter((filter) => filter.hides)
  .map((filter) => `main:has(#show-${filter.id}:checked) tbody ${filter.hides}{display:none}`)
  .join('\n')}
main:not(:has(#show-attention:checked)) .nothing{display:none}
`;

/** Narrows the rows to the targets whose name holds the text typed; the verdict filter works without it. */
const SCRIPT = `
(function () {
  var box = document.getElementById('name-filter');
  var rows = document.querySelectorAll('tbody tr');
  box.hidden = false;
  box.addEventListener('input', function () {
    var wanted = box.value.trim().toLowerCase();
    rows.forEach(function (row) { row.hidden = wanted !== '' && row.dataset.name.indexOf(wanted) < 0; });
  });
})();
`;

/** Targets that could not be judged first, then the not conformant, then the rest; each kind in the file's order. */
const urgency = (target: MatrixTarget): number => (target.exitCode === 0 ? (target.verdict === 'conformant' ? 3 : 2) : 2 - target.exitCode);

/** A target's report.html where it wrote one, else its report.md. */
function reportLink(target: MatrixTarget, pages: ReadonlySet<string>): string {
  return pathLink(`${target.reportDir}/${pages.has(target.reportDir) ? 'report.html' : 'report.md'}`);
}

const cell = (outcome: Outcome): string => `cell ${toneClass(OUTCOME_WORDS[outcome].tone)}`;

function row(target: MatrixTarget, requirements: Matrix['requirements'], pages: ReadonlySet<string>): Html {
  const cells = requirements.map((requirement) => {
    const outcome = targetOutcome(target, requirement);
    if (!outcome) return markup`<td>·</td>`;
    const title = NAMED_CELL.has(outcome) ? markup` title="${`${requirement.id}: ${OUTCOME_WORDS[outcome].word}`}"` : undefined;
    return markup`<td class="${cell(outcome)}"${title}>${OUTCOME_WORDS[outcome].symbol}</td>`;
  });
  const kind = `${target.verdict}${target.exitCode === 0 ? ' ok' : ''}`;
  return markup`<tr class="${kind}" data-name="${target.name.toLowerCase()}"><th scope="row"><a href="${reportLink(target, pages)}">${target.name}</a> <small>${target.verdict} (exit ${target.exitCode})</small></th>${cells}</tr>\n`;
}

function filter(matrix: Matrix): Html {
  const counts: Record<(typeof FILTERS)[number]['id'], number> = {
    all: matrix.totals.targets,
    attention: matrix.targets.filter((target) => target.exitCode !== 0).length,
    'not-conformant': matrix.totals.notConformant,
    inconclusive: matrix.totals.inconclusive,
    conformant: matrix.totals.conformant,
  };
  // A large fleet opens on what needs attention, even when nothing does: rows hidden from the start cost the browser
  // no layout, and a page of thousands of green rows says no more than the summary.
  const opening = counts.attention > 0 || counts.all > OPEN_ALL_MAX ? 'attention' : 'all';
  const choices = FILTERS.map(
    (choice) =>
      markup`<label><input type="radio" name="show" id="show-${choice.id}"${choice.id === opening ? markup` checked` : undefined}> ${choice.label} (${counts[choice.id]})</label>`,
  );
  const nothing =
    counts.attention === 0 ? markup`<p class="nothing">No target needs attention; choose All to see every target.</p>` : undefined;
  return markup`<fieldset class="filter"><legend>Show targets</legend>${choices}<input type="search" id="name-filter" placeholder="Name contains…" aria-label="Show targets whose name contains" hidden></fieldset>${nothing}`;
}

/**
 * The matrix as one self-contained page: targets down (those that need attention first), requirements across, symbol
 * and colour per verdict, and a filter by verdict that works without script. It opens on the targets that need
 * attention when there are any, so a large fleet shows its few problems at once. pages holds the report folders of the
 * targets that wrote a report.html, which a target's name links to (report.md otherwise).
 */
export function renderMatrixHtml(matrix: Matrix, pages: ReadonlySet<string>): string {
  const head = matrix.requirements.map(
    (requirement) => markup`<th scope="col" title="${`${requirement.level}: ${requirement.title}`}">${requirement.id}</th>`,
  );
  const ordered = [...matrix.targets].sort((a, b) => urgency(a) - urgency(b) || a.position - b.position);
  const attention = ordered
    .filter((target) => target.exitCode !== 0)
    .map((target) => markup`<li><strong>${target.name}</strong>: ${target.summary}</li>\n`);
  const attentionList = attention.length > 0 ? markup`<h2>Targets that need attention</h2>\n<ul>\n${attention}</ul>\n` : undefined;
  const legend = OUTCOMES.map(
    (outcome) => markup`<span class="${cell(outcome)}">${OUTCOME_WORDS[outcome].symbol} ${OUTCOME_WORDS[outcome].word}</span>`,
  );
  const run = `${matrix.suite.name} ${matrix.suite.version}, started ${matrix.startedAt}, ${matrix.durationMs} ms, exit code ${matrix.exitCode}.`;
  return htmlPage({
    title: 'Ticketing API conformance matrix',
    style: `${stylesheet('matrix')}${FILTER_RULES}`,
    script: SCRIPT,
    body: markup`<main>
<h1>Ticketing API conformance matrix</h1>
<p class="verdict">${matrix.summary}</p>
<p class="plain">${outcomeCountsLine(matrix.totals.outcomes)}, over all targets.</p>
<p>${run}</p>
${attentionList}${filter(matrix)}
<p class="legend">${legend}</p>
<div class="scroll">
<table>
<caption>Outcome of each requirement (columns) for each target (rows), as its exit code counts it; targets that need attention first</caption>
<thead><tr><th scope="col" class="name">Target</th>${head}</tr></thead>
<tbody>
${ordered.map((target) => row(target, matrix.requirements, pages))}</tbody>
</table>
</div>
</main>`,
  });
}
