import { xml } from './escape/xml.js';
import { outcomeCounts } from '../model/outcomes.js';
import type { Report } from '../model/types.js';

/** The gate's three answers, and amber for a run it passes with something to look at (a warning, a known failure). */
const COLOUR = { passed: '#2e7d32', warned: '#9a5b00', failed: '#c62828', unjudged: '#6a1b9a' } as const;

/** The badge's colour, from the exit code and the outcomes it was settled by: red only when the run fails. */
function colourOf(report: Report): keyof typeof COLOUR {
  if (report.exitCode === 2) return 'unjudged';
  if (report.exitCode === 1) return 'failed';
  const counts = outcomeCounts(report);
  return counts.warned + counts.waived > 0 ? 'warned' : 'passed';
}
const LABEL = 'conformance';

/** Width of a text in 11px Verdana, the shields.io face: near enough from per-character classes. */
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[il.:|!'/ ]/.test(char) ? 4 : /[mwMW]/.test(char) ? 10 : /[A-Z0-9]/.test(char) ? 7.5 : 6.5;
  return Math.ceil(width);
}

/** The badge's right half: MUST requirements passed out of those in the catalog, or that the run reached no verdict. */
export function badgeMessage(report: Report): string {
  if (report.verdict === 'inconclusive') return 'no verdict';
  const must = report.requirements.filter((result) => result.level === 'MUST');
  return `${must.filter((result) => result.verdict === 'pass').length}/${must.length} MUST`;
}

/** badge.svg: a shields-style badge ("conformance | 25/25 MUST") for a README or a status page. */
export function renderBadge(report: Report): string {
  const message = badgeMessage(report);
  const left = textWidth(LABEL) + 12;
  const right = textWidth(message) + 12;
  const width = left + right;
  const colour = colourOf(report);
  const title = `${LABEL}: ${message} (${report.verdict}${colour === 'warned' ? ', with warnings or known failures' : ''})`;
  return xml`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">
<title>${title}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${COLOUR[colour]}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${left / 2}" y="15" fill="#010101" fill-opacity=".3">${LABEL}</text><text x="${left / 2}" y="14">${LABEL}</text>
<text x="${left + right / 2}" y="15" fill="#010101" fill-opacity=".3">${message}</text><text x="${left + right / 2}" y="14">${message}</text>
</g>
</svg>
`.toString();
}
