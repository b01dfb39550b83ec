import type { Comparison, ObservationAspect } from './types.js';
import { markdownText } from '../views/escape/markdown.js';
import { terminalLines } from '../views/escape/terminal.js';
import { VERDICT_WORDS } from '../views/vocabulary.js';

const ASPECT_LABEL: Record<ObservationAspect, string> = {
  answer: 'answer (status code and body)',
  observation: 'recorded observation',
  'extra-fields': 'fields beyond the document',
  'content-type': 'Content-Type',
};

/** The difference list for a terminal: requirements first, then observations, each with both sides. */
export function renderComparisonTerminal(comparison: Comparison): string {
  const lines = [`Compared with ${comparison.compareTo.baseUrl}: ${comparison.compareTo.summary}`];
  if (comparison.requirements.length > 0) {
    lines.push('', 'Requirement verdicts that differ (target / compare-to):');
    for (const difference of comparison.requirements) {
      lines.push(
        `  ${difference.id} (${difference.level})  ${VERDICT_WORDS[difference.target].label} / ${VERDICT_WORDS[difference.compareTo].label}  ${difference.title}`,
      );
      if (difference.targetDetail) lines.push(`    target:     ${difference.targetDetail}`);
      if (difference.compareToDetail) lines.push(`    compare-to: ${difference.compareToDetail}`);
    }
  }
  if (comparison.observations.length > 0) {
    lines.push('', 'Observations that differ:');
    for (const difference of comparison.observations) {
      const more = difference.requests.length > 1 ? ` and ${difference.requests.length - 1} more request(s)` : '';
      lines.push(
        `  ${ASPECT_LABEL[difference.aspect]}${difference.requirements.length > 0 ? ` [${difference.requirements.join(', ')}]` : ''}`,
        `    on:         ${difference.requests[0] ?? ''}${more}`,
        `    target:     ${difference.target}`,
        `    compare-to: ${difference.compareTo}`,
      );
    }
  }
  lines.push('', `Comparison: ${comparison.summary}`);
  return terminalLines(lines);
}

/** The comparison as a section of report.md. */
export function renderComparisonMarkdown(comparison: Comparison): string {
  const lines = [
    '',
    `## Comparison with ${markdownText(comparison.compareTo.baseUrl)}`,
    '',
    `**${markdownText(comparison.summary)}**`,
    '',
    `- Target: ${markdownText(comparison.target.summary)}`,
    `- Compare-to: ${markdownText(comparison.compareTo.summary)}`,
    '',
  ];
  if (comparison.requirements.length > 0) {
    lines.push('| Requirement | Level | Target | Compare-to | What was found |', '|---|---|---|---|---|');
    for (const difference of comparison.requirements) {
      const found = [
        difference.targetDetail && `target: ${difference.targetDetail}`,
        difference.compareToDetail && `compare-to: ${difference.compareToDetail}`,
      ]
        .filter(Boolean)
        .join('; ');
      lines.push(
        `| ${markdownText(difference.id)} | ${difference.level} | ${VERDICT_WORDS[difference.target].label} | ${VERDICT_WORDS[difference.compareTo].label} | ${markdownText(found)} |`,
      );
    }
    lines.push('');
  }
  for (const difference of comparison.observations) {
    lines.push(
      `- **${ASPECT_LABEL[difference.aspect]}**${difference.requirements.length > 0 ? ` (${difference.requirements.join(', ')})` : ''} on ${difference.requests.map(markdownText).join(', ')}`,
      `  - target: ${markdownText(difference.target)}`,
      `  - compare-to: ${markdownText(difference.compareTo)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
