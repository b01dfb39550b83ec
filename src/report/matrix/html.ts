import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { htmlPage, markup, type Html } from '../views/escape/html.js';
import { pathLink } from '../views/escape/link.js';
import { outcomeCountsLine } from '../views/failure-text.js';
import { OUTCOMES, type Outcome } from '../model/outcomes.js';
import { OUTCOME_WORD, targetOutcome } from './cells.js';
import type { Matrix, MatrixTarget } from './types.js';

const SYMBOL: Record<Outcome, string> = { passed: '✓', failed: '✗', warned: '!', waived: 'w', skipped: '–', observed: 'i', unjudged: 'E' };
/** Outcomes whose cell names itself on hover; the others are the bulk of a large grid and say enough by symbol. */
const NAMED_CELL: ReadonlySet<Outcome> = new Set(['failed', 'warned', 'waived', 'unjudged']);

/** Up to this many targets, a matrix with nothing to look at opens on all of them. */
const OPEN_ALL_MAX = 100;

/** What the filter offers: each choice hides the rows of the other kinds, by CSS alone. */
const FILTERS = [
  { id: 'all', label: 'All', hides: '' },
  { id: 'attention', label: 'Need attention', hides: 'tr.ok' },
  { id: 'not-conformant', label: 'Not conformant', hides: 'tr:not(.not-conformant)' },
  { id: 'inconclusive', label: 'Without a verdict', hides: 'tr:not(.inconclusive)' },
  { id: 'conformant', label: 'Conformant', hides: 'tr:not(.conformant)' },
] as const;

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 1rem; color: #1a1a1a; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; } h2 { font-size: 1.1rem; margin: 1rem 0 .3rem; }
.verdict { font-size: 1.1rem; font-weight: 600; margin: .5rem 0 1rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; }
caption { text-align: left; font-weight: 600; padding: .4rem 0; }
th, td { border: 1px solid #c8c8c8; padding: .2rem .4rem; text-align: center; }
th[scope=row] { text-align: left; white-space: nowrap; position: sticky; left: 0; background: #fff; }
thead th { position: sticky; top: 0; background: #f3f3f3; font-size: .75rem; writing-mode: vertical-rl; transform: rotate(180deg); }
thead th.name { writing-mode: horizontal-tb; transform: none; }
.passed { background: #d8f0dc; color: #0b4d1a; } .failed { background: #f8d4d4; color: #7a0b0b; font-weight: 700; }
.warned { background: #fbeac2; color: #5c3d00; } .observed { background: #e3ecf8; color: #17345c; }
.skipped, .waived { background: #eeeeee; color: #444; } .unjudged { background: #ead7f2; color: #4a1261; font-weight: 700; }
.legend span { display: inline-block; padding: 0 .4rem; margin-right: .3rem; border: 1px solid #c8c8c8; }
.filter { border: 1px solid #c8c8c8; padding: .3rem .6rem; margin: .5rem 0; }
.filter label { margin-right: .8rem; white-space: nowrap; }
.filter input[type=search] { margin-left: .5rem; }
a { color: #0645ad; } a:focus, input:focus { outline: 3px solid #1a73e8; }
${FILTERS.filter((filter) => filter.hides)
  .map((filter) => `main:has(#show-${filter.id}:checked) tbody ${filter.hides} { display: none; }`)
  .join('\n')}
main:not(:has(#show-attention:checked)) .nothing { display: none; }
@media print { .scroll { overflow: visible; } thead th { position: static; } th[scope=row] { position: static; } .filter { display: none; } }
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

function reportLink(target: MatrixTarget, outDir: string): string {
  const page = `${target.reportDir}/report.html`;
  return pathLink(existsSync(join(outDir, page)) ? page : `${target.reportDir}/report.md`);
}

function row(target: MatrixTarget, requirements: Matrix['requirements'], outDir: string): Html {
  const cells = requirements.map((requirement) => {
    const outcome = targetOutcome(target, requirement);
    if (!outcome) return markup`<td>·</td>`;
    const title = NAMED_CELL.has(outcome) ? markup` title="${`${requirement.id}: ${OUTCOME_WORD[outcome]}`}"` : undefined;
    return markup`<td class="${outcome}"${title}>${SYMBOL[outcome]}</td>`;
  });
  const kind = `${target.verdict}${target.exitCode === 0 ? ' ok' : ''}`;
  return markup`<tr class="${kind}" data-name="${target.name.toLowerCase()}"><th scope="row"><a href="${reportLink(target, outDir)}">${target.name}</a> <small>${target.verdict} (exit ${target.exitCode})</small></th>${cells}</tr>\n`;
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
 * attention when there are any, so a large fleet shows its few problems at once.
 */
export function renderMatrixHtml(matrix: Matrix, outDir: string): string {
  const head = matrix.requirements.map(
    (requirement) => markup`<th scope="col" title="${`${requirement.level}: ${requirement.title}`}">${requirement.id}</th>`,
  );
  const ordered = [...matrix.targets].sort((a, b) => urgency(a) - urgency(b) || a.position - b.position);
  const attention = ordered
    .filter((target) => target.exitCode !== 0)
    .map((target) => markup`<li><strong>${target.name}</strong>: ${target.summary}</li>\n`);
  const attentionList = attention.length > 0 ? markup`<h2>Targets that need attention</h2>\n<ul>\n${attention}</ul>\n` : undefined;
  const legend = OUTCOMES.map((outcome) => markup`<span class="${outcome}">${SYMBOL[outcome]} ${OUTCOME_WORD[outcome]}</span>`);
  const run = `${matrix.suite.name} ${matrix.suite.version}, started ${matrix.startedAt}, ${matrix.durationMs} ms, exit code ${matrix.exitCode}.`;
  return htmlPage({
    title: 'Ticketing API conformance matrix',
    style: STYLE,
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
${ordered.map((target) => row(target, matrix.requirements, outDir))}</tbody>
</table>
</div>
</main>`,
  });
}
