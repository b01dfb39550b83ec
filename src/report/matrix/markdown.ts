import { outcomeCountsLine } from '../views/failure-text.js';
import { markdownLink, markdownText } from '../views/escape/markdown.js';
import { pathLink, safeLink } from '../views/escape/link.js';
import type { Outcome } from '../model/outcomes.js';
import { targetOutcome } from './cells.js';
import { OUTCOME_WORDS } from '../views/vocabulary.js';
import type { Matrix, MatrixTarget } from './types.js';

/** Past this many targets the requirement grid is left to matrix.html and matrix.json. */
const GRID_MAX_TARGETS = 12;
/** The outcomes named by requirement; skips only counted, passes and INFO observations not at all. */
const NAMED: ReadonlySet<Outcome> = new Set(['failed', 'warned', 'waived', 'unjudged']);

/** The requirements that failed, warned, were waived or could not be judged, by ID; skips only counted. */
function notPassing(matrix: Matrix, target: MatrixTarget): string {
  const outcomes = matrix.requirements.map((requirement) => [requirement.id, targetOutcome(target, requirement)] as const);
  const named = outcomes.flatMap(([id, outcome]) => (outcome && NAMED.has(outcome) ? [`${id} (${OUTCOME_WORDS[outcome].word})`] : []));
  const skipped = target.outcomes.skipped;
  const parts = [...named, ...(skipped > 0 ? [`${skipped} skipped`] : [])];
  return parts.length === 0 ? '-' : parts.join(', ');
}

function scopeLine(matrix: Matrix): string {
  if (matrix.shard) return `; shard ${matrix.shard.index}/${matrix.shard.count} of a file of ${matrix.shard.targetsInFile} targets`;
  if (matrix.mergedShards) return `; merged from ${matrix.mergedShards} shards`;
  return '';
}

/** A link to a target's report.md: a relative path only, its text escaped; a folder no link may point at is shown as text. */
function reportLink(reportDir: string): string {
  const href = safeLink(pathLink(`${reportDir}/report.md`));
  return href ? markdownLink(reportDir, href) : markdownText(reportDir);
}

export function renderMatrixMarkdown(matrix: Matrix): string {
  const lines = [
    '# Ticketing API conformance matrix',
    '',
    `**${markdownText(matrix.summary)}**`,
    '',
    `- Suite: ${markdownText(`${matrix.suite.name} ${matrix.suite.version}; started ${matrix.startedAt}; ${matrix.durationMs} ms; ${matrix.targetConcurrency} targets at once${scopeLine(matrix)}`)}`,
    `- Exit code: ${matrix.exitCode}`,
    `- Totals over all targets: ${outcomeCountsLine(matrix.totals.outcomes)}`,
    '',
    '| Target | Verdict | Exit | Counts | Not passing | Reports |',
    '|---|---|---|---|---|---|',
  ];
  for (const target of matrix.targets) {
    const waived = target.outcomes.waived > 0 ? ` (${target.outcomes.waived} waived)` : '';
    lines.push(
      `| ${markdownText(target.name)} | ${markdownText(target.verdict)}${waived} | ${target.exitCode} | ${outcomeCountsLine(target.outcomes)} | ${markdownText(notPassing(matrix, target))} | ${reportLink(target.reportDir)} |`,
    );
  }
  const attention = matrix.targets.filter((target) => target.exitCode !== 0);
  if (attention.length > 0)
    lines.push('', ...attention.map((target) => `- **${markdownText(target.name)}**: ${markdownText(target.summary)}`));
  for (const error of matrix.errors) lines.push('', markdownText(`${error.code}: ${error.message}. ${error.hint}`));
  if (matrix.targets.length > 0 && matrix.targets.length <= GRID_MAX_TARGETS) {
    lines.push(
      '',
      '## Requirements by target',
      '',
      `| Requirement | Level | ${matrix.targets.map((target) => markdownText(target.name)).join(' | ')} |`,
      `|---|---|${matrix.targets.map(() => '---|').join('')}`,
    );
    for (const requirement of matrix.requirements) {
      const cells = matrix.targets.map((target) => {
        const outcome = targetOutcome(target, requirement);
        return outcome ? OUTCOME_WORDS[outcome].word.toUpperCase() : '-';
      });
      lines.push(`| ${markdownText(requirement.id)} | ${requirement.level} | ${cells.map(markdownText).join(' | ')} |`);
    }
  } else if (matrix.targets.length > GRID_MAX_TARGETS) {
    lines.push('', `The requirement-by-target grid of ${matrix.targets.length} targets is in matrix.html and matrix.json.`);
  }
  return `${lines.join('\n')}\n`;
}
