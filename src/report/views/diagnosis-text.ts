import type { Diagnosis } from '../../diagnosis/types.js';

/** A diagnosis for a terminal: the cause with how sure it is, the evidence, what to do, and the lines to change. */
export function diagnosisLines(diagnosis: Diagnosis): string[] {
  const lines = [
    `Diagnosis (${diagnosis.party}, ${diagnosis.confidence} confidence): ${diagnosis.summary}`,
    `  Evidence: ${diagnosis.evidence}`,
    ...diagnosis.advice.map((advice) => `  Fix:      ${advice}`),
  ];
  return [...lines, ...snippetLines(diagnosis)];
}

/** The configuration lines of a diagnosis, each block after where it goes; what "the rule below" refers to. */
function snippetLines(diagnosis: Diagnosis): string[] {
  return (diagnosis.snippets ?? []).flatMap((snippet) => [
    `  Config:   ${snippet.label}:`,
    ...snippet.lines.map((line) => `              ${line}`),
  ]);
}
