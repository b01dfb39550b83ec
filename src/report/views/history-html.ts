import { htmlPage, markup, type Html } from './escape/html.js';
import type { History, HistoryRun, TargetHistory } from '../model/history.js';
import { countOutcomes } from '../model/outcomes.js';
import type { RunVerdict, Verdict } from '../model/types.js';

const STYLE = `
:root{--fg:#1a1a1a;--muted:#4a4a4a;--bg:#fff;--panel:#f3f4f6;--line:#c9ced6;
--pass:#1b5e20;--fail:#b00020;--warn:#8a4b00;--info:#0b5394;--skip:#545454;--error:#6a1b9a;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
.wrap{padding:1rem 1.25rem}
h1{font-size:1.4rem;margin:0 0 .25rem}
h2{font-size:1.2rem;margin:2.5rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem;overflow-wrap:anywhere}
h3{font-size:1rem;margin:1.25rem 0 .35rem}
.plain{color:var(--muted);margin:.25rem 0}
.latest{font-weight:650;padding:.4rem .75rem;border-left:.4rem solid var(--skip);background:var(--panel)}
.latest.conformant{border-color:var(--pass)}.latest.not-conformant{border-color:var(--fail)}.latest.inconclusive{border-color:var(--error)}
.chart{overflow-x:auto}
.chart svg{display:block;height:auto;font:11px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.chart text{fill:var(--muted)}
.bar-pass{fill:var(--pass)}.bar-fail{fill:var(--fail)}.bar-other{fill:#9aa1ab}
.dot-conformant{fill:var(--pass)}.dot-not-conformant{fill:var(--fail)}.dot-inconclusive{fill:var(--error)}
.axis{stroke:var(--line)}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:.25rem 0;font-size:.85rem;color:var(--muted)}
.key{display:inline-block;width:.8rem;height:.8rem;border-radius:.15rem;margin-right:.3rem;vertical-align:-.05rem;-webkit-print-color-adjust:exact;print-color-adjust:exact}
.k-pass{background:var(--pass)}.k-fail{background:var(--fail)}.k-other{background:#9aa1ab}
.grid,.runs{overflow-x:auto;border:1px solid var(--line);border-radius:.3rem}
table{border-collapse:collapse;font-size:.8rem;width:100%}
th,td{padding:.2rem .35rem;border-bottom:1px solid var(--line);text-align:center;white-space:nowrap}
.grid th:first-child,.grid td:first-child{text-align:left;position:sticky;left:0;background:var(--bg);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
thead th{font-weight:600;color:var(--muted)}
.runs td.n{text-align:right;font-variant-numeric:tabular-nums}
.runs .failed{color:var(--fail);font-weight:700}
.runs td.cause{text-align:left;width:100%;max-width:0;min-width:14rem}
.runs td.cause>span{display:block;overflow:hidden;text-overflow:ellipsis}
.v{display:inline-block;min-width:2.6rem;border-radius:.2rem;color:#fff;font:700 .7rem/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;-webkit-print-color-adjust:exact;print-color-adjust:exact}
.v-pass{background:var(--pass)}.v-fail{background:var(--fail)}.v-warn{background:var(--warn)}.v-info{background:var(--info)}
.v-skip{background:var(--skip)}.v-error{background:var(--error)}.v-flaky{background:var(--warn)}.v-none{background:none;color:var(--muted)}
.changes li{margin:.2rem 0}
.started{color:var(--fail);font-weight:600}.stopped{color:var(--pass);font-weight:600}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
footer{margin:2.5rem 0 1rem;font-size:.85rem;color:var(--muted);border-top:1px solid var(--line);padding-top:.5rem}
`;

const VERDICT_TEXT: Record<RunVerdict, string> = {
  conformant: 'conformant',
  'not-conformant': 'not conformant',
  inconclusive: 'no verdict',
};
const VERDICT_CLASS: Record<RunVerdict, Verdict> = { conformant: 'pass', 'not-conformant': 'fail', inconclusive: 'error' };
const SHORT: Record<Verdict, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  info: 'INFO',
  skip: 'SKIP',
  error: 'ERR',
  flaky: 'FLAKY',
};

const when = (run: HistoryRun): string => run.startedAt.replace('T', ' ').slice(0, 16);

/** The MUST counts in words, so that none passed reads as nothing judged when nothing was, not as all failed. */
export const mustText = (run: HistoryRun): string =>
  `MUST ${run.must.passed} passed, ${run.must.failed} failed, ${run.must.skipped} skipped`;

/** Stacked bars (passed, failed, the rest) per run, with the run's verdict as a dot under its bar. */
function timelineSvg(target: TargetHistory, index: number): Html {
  // Wide bars for a few runs, narrow ones for a year of nights.
  const step = Math.max(16, Math.min(120, Math.floor(1100 / Math.max(1, target.runs.length))));
  const left = 34;
  const top = 10;
  const height = 120;
  const width = left + target.runs.length * step + 10;
  const most = Math.max(1, ...target.runs.map((run) => Object.keys(run.outcomes).length));
  const scale = (count: number): number => (count / most) * height;
  const parts: Html[] = [
    markup`<line class="axis" x1="${left - 4}" y1="${top + height}" x2="${width}" y2="${top + height}"/>`,
    markup`<text x="${left - 8}" y="${top + 8}" text-anchor="end">${most}</text>`,
    markup`<text x="${left - 8}" y="${top + height}" text-anchor="end">0</text>`,
  ];
  target.runs.forEach((run, at) => {
    const x = left + at * step + 4;
    const counts = countOutcomes(Object.values(run.outcomes));
    const { passed, failed } = counts;
    const other = Object.keys(run.outcomes).length - passed - failed;
    let y = top + height;
    const bars: Html[] = [];
    for (const [kind, count] of [
      ['pass', passed],
      ['fail', failed],
      ['other', other],
    ] as const) {
      const h = scale(count);
      y -= h;
      if (h > 0)
        bars.push(
          markup`<rect class="bar-${kind}" x="${x}" y="${y.toFixed(1)}" width="${Math.max(6, step - 8)}" height="${h.toFixed(1)}"/>`,
        );
    }
    const label = `Run ${at + 1}, ${when(run)}: ${VERDICT_TEXT[run.verdict]}; ${passed} passed, ${failed} failed, ${other} other; ${mustText(run)}`;
    parts.push(
      markup`<g><title>${label}</title>${bars}<circle class="dot-${run.verdict}" cx="${x + (step - 8) / 2}" cy="${top + height + 12}" r="6"/><text x="${x + (step - 8) / 2}" y="${top + height + 32}" text-anchor="middle">${at + 1}</text></g>`,
    );
  });
  const first = target.runs[0];
  const last = target.runs.at(-1);
  const description = `${target.runs.length} runs of ${target.baseUrl}${first && last ? ` from ${when(first)} to ${when(last)}` : ''}: ${target.runs.map((run) => VERDICT_TEXT[run.verdict]).join(', ')}`;
  return markup`<svg role="img" aria-labelledby="timeline-${index}" width="${width}" viewBox="0 0 ${width} ${top + height + 40}" xmlns="http://www.w3.org/2000/svg"><title id="timeline-${index}">${description}</title>${parts}</svg>`;
}

function grid(target: TargetHistory): Html {
  const head = target.runs.map(
    (run, at) => markup`<th scope="col" title="${`${run.startedAt} ${run.file}`}">${at + 1}<br>${when(run).slice(5)}</th>`,
  );
  const verdictRow = target.runs.map(
    (run) => markup`<td><span class="v v-${VERDICT_CLASS[run.verdict]}" title="${mustText(run)}">${VERDICT_TEXT[run.verdict]}</span></td>`,
  );
  const rows = target.requirements.map((id) => {
    const cells = target.runs.map((run) => {
      const verdict = run.verdicts[id];
      return verdict
        ? markup`<td><span class="v v-${verdict}">${SHORT[verdict]}</span></td>`
        : markup`<td><span class="v v-none">-</span></td>`;
    });
    return markup`<tr><th scope="row">${id}</th>${cells}</tr>`;
  });
  return markup`<div class="grid"><table>
<thead><tr><th scope="col">Requirement \\ run</th>${head}</tr></thead>
<tbody><tr><th scope="row">Run verdict</th>${verdictRow}</tr>${rows}</tbody>
</table></div>`;
}

/** One line per run, the newest first: when, the verdict, the MUST counts, and the most likely cause it named. */
function runsTable(target: TargetHistory): Html {
  const rows = target.runs
    .map((run, at) => {
      const failed = run.must.failed > 0 ? markup`<span class="failed">${run.must.failed}</span>` : run.must.failed;
      return markup`<tr><td>${at + 1}</td><td>${when(run)}</td><td><span class="v v-${VERDICT_CLASS[run.verdict]}">${VERDICT_TEXT[run.verdict]}</span></td><td class="n">${run.must.passed}</td><td class="n">${failed}</td><td class="n">${run.must.skipped}</td><td class="cause"><span title="${run.diagnosis ?? ''}">${run.diagnosis ?? '-'}</span></td></tr>`;
    })
    .reverse();
  return markup`<div class="runs"><table>
<thead><tr><th scope="col">Run</th><th scope="col">Started</th><th scope="col">Verdict</th><th scope="col">MUST passed</th><th scope="col">MUST failed</th><th scope="col">MUST skipped</th><th scope="col">Most likely cause</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

function changes(target: TargetHistory): Html {
  if (target.changes.length === 0) return markup`<p class="plain">No requirement started or stopped failing over these runs.</p>`;
  const items = target.changes.map((change) => {
    const run = target.runs[change.run];
    const kind =
      change.kind === 'started-failing'
        ? markup`<span class="started">started failing</span>`
        : markup`<span class="stopped">stopped failing</span>`;
    return markup`<li><code>${change.requirement}</code> ${kind} in run ${change.run + 1} (${run ? when(run) : '?'}): ${change.from.toUpperCase()} → ${change.to.toUpperCase()}</li>`;
  });
  const failing = target.requirements.filter((id) => target.runs.at(-1)?.outcomes[id] === 'failed');
  const codes = failing.map((id, at) => markup`${at > 0 ? ', ' : ''}<code>${id}</code>`);
  const now = failing.length > 0 ? markup`<p>Failing in the latest run: ${codes}.</p>` : undefined;
  return markup`${now}<ul class="changes">${items}</ul>`;
}

function targetSection(target: TargetHistory, index: number): Html {
  const latest = target.runs.at(-1);
  const summary = latest
    ? markup`<p class="latest ${latest.verdict}">Latest run (${when(latest)}): ${VERDICT_TEXT[latest.verdict]}; ${mustText(latest)}. ${target.runs.length} runs.</p>\n`
    : undefined;
  return markup`<section aria-labelledby="target-${index}">
<h2 id="target-${index}">${target.baseUrl}</h2>
${summary}<h3>Verdicts over time</h3>
<div class="chart">${timelineSvg(target, index)}</div>
<ul class="legend"><li><span class="key k-pass"></span>passed</li><li><span class="key k-fail"></span>failed the run (a MUST; a SHOULD with --strict; flaky)</li><li><span class="key k-other"></span>warnings, waived, observed, skipped or not judged</li><li>dot: the run verdict</li></ul>
<h3>Runs, the newest first</h3>
${runsTable(target)}
<h3>When requirements started or stopped failing</h3>
${changes(target)}
<h3>Requirement by run</h3>
${grid(target)}
</section>
`;
}

/** history.html: one self-contained page, no script, no request, charts drawn as inline SVG. */
export function renderHistoryHtml(history: History, source: string, generatedAt: Date): string {
  const runs = history.targets.reduce((sum, target) => sum + target.runs.length, 0);
  const left = history.skipped.map((entry, at) => markup`${at > 0 ? '; ' : ''}<code>${entry.file}</code> (${entry.reason})`);
  const skipped =
    history.skipped.length > 0 ? markup`<p class="plain">Left out (could not be read as a report): ${left}.</p>\n` : undefined;
  return htmlPage({
    title: 'Ticketing API conformance history',
    style: STYLE,
    body: markup`<main class="wrap">
<h1>Ticketing API conformance history</h1>
<p class="plain">${runs} runs of ${history.targets.length} target${history.targets.length === 1 ? '' : 's'}, read from ${source}.</p>
${skipped}${history.targets.map(targetSection)}</main>
<footer class="wrap"><p>Made by ticketing-conformance history on ${generatedAt.toISOString()}.</p></footer>`,
  });
}
