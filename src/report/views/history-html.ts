import { htmlPage, markup, type Html } from './escape/html.js';
import type { History, HistoryRun, TargetHistory } from '../model/history.js';
import { countOutcomes } from '../model/outcomes.js';
import type { RunVerdict, Verdict } from '../model/types.js';
import { stylesheet, toneClass } from './stylesheet.js';
import { OUTCOME_WORDS, RUN_VERDICT_WORDS, VERDICT_WORDS, type Tone } from './vocabulary.js';

const runVerdict = (verdict: RunVerdict): string => RUN_VERDICT_WORDS[verdict].label;
const runTone = (verdict: RunVerdict): string => toneClass(RUN_VERDICT_WORDS[verdict].tone);
/** A bar or a legend's key: coloured by its outcome's tone, or neutral for the outcomes counted together. */
const toned = (kind: string, tone: Tone | undefined): string => (tone ? `${kind} ${toneClass(tone)}` : kind);
const verdictBadge = (verdict: Verdict): Html =>
  markup`<span class="badge ${toneClass(VERDICT_WORDS[verdict].tone)}">${VERDICT_WORDS[verdict].label}</span>`;

const when = (run: HistoryRun): string => run.startedAt.replace('T', ' ').slice(0, 16);

/** The MUST counts in words, so that none passed reads as nothing judged when nothing was, not as all failed. */
const mustText = (run: HistoryRun): string => `MUST ${run.must.passed} passed, ${run.must.failed} failed, ${run.must.skipped} skipped`;

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
    for (const [tone, count] of [
      [OUTCOME_WORDS.passed.tone, passed],
      [OUTCOME_WORDS.failed.tone, failed],
      [undefined, other],
    ] as const) {
      const h = scale(count);
      y -= h;
      if (h > 0)
        bars.push(
          markup`<rect class="${toned('bar', tone)}" x="${x}" y="${y.toFixed(1)}" width="${Math.max(6, step - 8)}" height="${h.toFixed(1)}"/>`,
        );
    }
    const label = `Run ${at + 1}, ${when(run)}: ${runVerdict(run.verdict)}; ${passed} passed, ${failed} failed, ${other} other; ${mustText(run)}`;
    parts.push(
      markup`<g><title>${label}</title>${bars}<circle class="dot ${runTone(run.verdict)}" cx="${x + (step - 8) / 2}" cy="${top + height + 12}" r="6"/><text x="${x + (step - 8) / 2}" y="${top + height + 32}" text-anchor="middle">${at + 1}</text></g>`,
    );
  });
  const first = target.runs[0];
  const last = target.runs.at(-1);
  const description = `${target.runs.length} runs of ${target.baseUrl}${first && last ? ` from ${when(first)} to ${when(last)}` : ''}: ${target.runs.map((run) => runVerdict(run.verdict)).join(', ')}`;
  return markup`<svg role="img" aria-labelledby="timeline-${index}" width="${width}" viewBox="0 0 ${width} ${top + height + 40}" xmlns="http://www.w3.org/2000/svg"><title id="timeline-${index}">${description}</title>${parts}</svg>`;
}

function grid(target: TargetHistory): Html {
  const head = target.runs.map(
    (run, at) => markup`<th scope="col" title="${`${run.startedAt} ${run.file}`}">${at + 1}<br>${when(run).slice(5)}</th>`,
  );
  const verdictRow = target.runs.map(
    (run) => markup`<td><span class="badge ${runTone(run.verdict)}" title="${mustText(run)}">${runVerdict(run.verdict)}</span></td>`,
  );
  const rows = target.requirements.map((id) => {
    const cells = target.runs.map((run) => {
      const verdict = run.verdicts[id];
      return markup`<td>${verdict ? verdictBadge(verdict) : markup`<span class="badge none">-</span>`}</td>`;
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
      const failed =
        run.must.failed > 0
          ? markup`<span class="marked ${toneClass(OUTCOME_WORDS.failed.tone)}">${run.must.failed}</span>`
          : run.must.failed;
      return markup`<tr><td>${at + 1}</td><td>${when(run)}</td><td><span class="badge ${runTone(run.verdict)}">${runVerdict(run.verdict)}</span></td><td class="n">${run.must.passed}</td><td class="n">${failed}</td><td class="n">${run.must.skipped}</td><td class="cause"><span title="${run.diagnosis ?? ''}">${run.diagnosis ?? '-'}</span></td></tr>`;
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
        ? markup`<span class="marked ${toneClass(OUTCOME_WORDS.failed.tone)}">started failing</span>`
        : markup`<span class="marked ${toneClass(OUTCOME_WORDS.passed.tone)}">stopped failing</span>`;
    return markup`<li><code>${change.requirement}</code> ${kind} in run ${change.run + 1} (${run ? when(run) : '?'}): ${VERDICT_WORDS[change.from].label} → ${VERDICT_WORDS[change.to].label}</li>`;
  });
  const failing = target.requirements.filter((id) => target.runs.at(-1)?.outcomes[id] === 'failed');
  const codes = failing.map((id, at) => markup`${at > 0 ? ', ' : ''}<code>${id}</code>`);
  const now = failing.length > 0 ? markup`<p>Failing in the latest run: ${codes}.</p>` : undefined;
  return markup`${now}<ul class="changes">${items}</ul>`;
}

function targetSection(target: TargetHistory, index: number): Html {
  const latest = target.runs.at(-1);
  const summary = latest
    ? markup`<p class="latest ${runTone(latest.verdict)}">Latest run (${when(latest)}): ${runVerdict(latest.verdict)}; ${mustText(latest)}. ${target.runs.length} runs.</p>\n`
    : undefined;
  return markup`<section aria-labelledby="target-${index}">
<h2 id="target-${index}">${target.baseUrl}</h2>
${summary}<h3>Verdicts over time</h3>
<div class="chart">${timelineSvg(target, index)}</div>
<ul class="legend"><li><span class="${toned('key', OUTCOME_WORDS.passed.tone)}"></span>passed</li><li><span class="${toned('key', OUTCOME_WORDS.failed.tone)}"></span>failed the run (a MUST; a SHOULD with --strict; flaky)</li><li><span class="${toned('key', undefined)}"></span>warnings, waived, observed, skipped or not judged</li><li>dot: the run verdict</li></ul>
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
    style: stylesheet('history'),
    body: markup`<main class="wrap">
<h1>Ticketing API conformance history</h1>
<p class="plain">${runs} runs of ${history.targets.length} target${history.targets.length === 1 ? '' : 's'}, read from ${source}.</p>
${skipped}${history.targets.map(targetSection)}</main>
<footer class="wrap"><p>Made by ticketing-conformance history on ${generatedAt.toISOString()}.</p></footer>`,
  });
}
