import { xml } from './escape/xml.js';
import { outcomeCounts, type Outcome } from '../model/outcomes.js';
import type { Report } from '../model/types.js';
import { BADGE_COLOURS, OUTCOME_WORDS, RUN_VERDICT_WORDS, TONES } from './vocabulary.js';

/**
 * The badge's colour, from the exit code and the outcomes it was settled by: the gate's three answers, red only when
 * the run fails, and a warning's colour for a run it passes with something to look at (a warning, a known failure).
 */
function colourOf(report: Report): Extract<Outcome, 'passed' | 'warned' | 'failed' | 'unjudged'> {
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
  if (report.verdict === 'inconclusive') return RUN_VERDICT_WORDS.inconclusive.label;
  const must = report.requirements.filter((result) => result.level === 'MUST');
  return `${must.filter((result) => result.verdict === 'pass').length}/${must.length} MUST`;
}

/** badge.svg: a shields-style badge ("conformance | passed/all MUST") for a README or a status page. */
export function renderBadge(report: Report): string {
  const message = badgeMessage(report);
  const left = textWidth(LABEL) + 12;
  const right = textWidth(message) + 12;
  const width = left + right;
  const colour = colourOf(report);
  const title = `${LABEL}: ${message} (${report.verdict}${colour === 'warned' ? ', with warnings or known failures' : ''})`;
  return xml`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">
<title>${title}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="${BADGE_COLOURS.gloss}" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="${BADGE_COLOURS.text}"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="${BADGE_COLOURS.label}"/><rect x="${left}" width="${right}" height="20" fill="${TONES[OUTCOME_WORDS[colour].tone].ink}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="${BADGE_COLOURS.text}" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${left / 2}" y="15" fill="${BADGE_COLOURS.shadow}" fill-opacity=".3">${LABEL}</text><text x="${left / 2}" y="14">${LABEL}</text>
<text x="${left + right / 2}" y="15" fill="${BADGE_COLOURS.shadow}" fill-opacity=".3">${message}</text><text x="${left + right / 2}" y="14">${message}</text>
</g>
</svg>
`.toString();
}
