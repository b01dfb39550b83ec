import type { Diagnosis } from './types.js';

/** A diagnosis for a terminal: the cause with how sure it is, the evidence, what to do, and the lines to change. */
export function diagnosisLines(diagnosis: Diagnosis): string[] {
  const lines = [
    `Diagnosis (${diagnosis.party}, ${diagnosis.confidence} confidence): ${diagnosis.summary}`,
    `  Evidence: ${diagnosis.evidence}`,
    ...diagnosis.advice.map((advice) => `  Fix:      ${advice}`),
  ];
  for (const snippet of diagnosis.snippets ?? []) {
    lines.push(`  Config:   ${snippet.label}:`, ...snippet.lines.map((line) => `              ${line}`));
  }
  return lines;
}
