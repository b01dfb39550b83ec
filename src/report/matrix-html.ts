import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Matrix, MatrixTarget } from './matrix-types.js';
import type { Verdict } from './types.js';

const SYMBOL: Record<Verdict, string> = { pass: '✓', fail: '✗', warn: '!', info: 'i', skip: '–', error: 'E', flaky: '~' };

const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

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
.pass { background: #d8f0dc; color: #0b4d1a; } .fail { background: #f8d4d4; color: #7a0b0b; font-weight: 700; }
.warn { background: #fbeac2; color: #5c3d00; } .info { background: #e3ecf8; color: #17345c; }
.skip { background: #eeeeee; color: #444; } .error { background: #ead7f2; color: #4a1261; font-weight: 700; }
.legend span { display: inline-block; padding: 0 .4rem; margin-right: .3rem; border: 1px solid #c8c8c8; }
a { color: #0645ad; } a:focus { outline: 3px solid #1a73e8; }
@media print { .scroll { overflow: visible; } thead th { position: static; } th[scope=row] { position: static; } }
`;

function reportLink(target: MatrixTarget, outDir: string): string {
  const html = `${target.reportDir}/report.html`;
  return existsSync(join(outDir, html)) ? html : `${target.reportDir}/report.md`;
}

/** The matrix as one self-contained page: targets down, requirements across, symbol and colour per verdict. */
export function renderMatrixHtml(matrix: Matrix, outDir: string): string {
  const head = matrix.requirements
    .map(
      (requirement) =>
        `<th scope="col" title="${escapeHtml(`${requirement.level}: ${requirement.title}`)}">${escapeHtml(requirement.id)}</th>`,
    )
    .join('');
  const rows = matrix.targets
    .map((target) => {
      const cells = matrix.requirements
        .map((requirement) => {
          const verdict = target.verdicts[requirement.id];
          if (!verdict) return '<td>·</td>';
          return `<td class="${verdict}" title="${escapeHtml(`${target.name} · ${requirement.id}: ${verdict}`)}">${SYMBOL[verdict]}</td>`;
        })
        .join('');
      return `<tr><th scope="row"><a href="${escapeHtml(reportLink(target, outDir))}">${escapeHtml(target.name)}</a> <small>${escapeHtml(target.verdict)} (exit ${target.exitCode})</small></th>${cells}</tr>`;
    })
    .join('\n');
  const attention = matrix.targets
    .filter((target) => target.exitCode !== 0)
    .map((target) => `<li><strong>${escapeHtml(target.name)}</strong>: ${escapeHtml(target.summary)}</li>`)
    .join('\n');
  const legend = (Object.entries(SYMBOL) as [Verdict, string][])
    .map(([verdict, symbol]) => `<span class="${verdict}">${symbol} ${verdict}</span>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ticketing API conformance matrix</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Ticketing API conformance matrix</h1>
<p class="verdict">${escapeHtml(matrix.summary)}</p>
<p>${escapeHtml(`${matrix.suite.name} ${matrix.suite.version}, started ${matrix.startedAt}, ${matrix.durationMs} ms, exit code ${matrix.exitCode}.`)}</p>
${attention ? `<h2>Targets that need attention</h2>\n<ul>\n${attention}\n</ul>` : ''}
<p class="legend">${legend}</p>
<div class="scroll">
<table>
<caption>Verdict of each requirement (columns) for each target (rows)</caption>
<thead><tr><th scope="col" class="name">Target</th>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
</main>
</body>
</html>
`;
}
