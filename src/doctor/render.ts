import { diagnosisLines } from '../report/views/diagnosis-text.js';
import { terminalLines } from '../report/views/escape/terminal.js';
import { countsLine } from '../report/views/failure-text.js';
import { briefly } from '../diagnosis/answers.js';
import type { Examination } from './examination.js';

function verdictLine(examination: Examination): string {
  if (examination.exitCode === 2) {
    return `Verdict: no diagnosis: the target could not be reached (${examination.unreachable?.code ?? 'no answer'}).`;
  }
  if (examination.exitCode === 0) {
    return 'Verdict: no problem found in the hosting stack: the token reaches the application, and requests without it or with a wrong one are refused.';
  }
  const [first] = examination.diagnoses;
  const more = examination.diagnoses.length > 1 ? ` (and ${examination.diagnoses.length - 1} more)` : '';
  return `Verdict: ${first?.summary ?? 'a problem was found'}${more}.`;
}

/** What the doctor prints: each request and its answer, the diagnoses with their fixes, a verdict, and the counts line last. */
export function renderExamination(examination: Examination): string {
  const lines = [`Doctor: ${examination.baseUrl}`, `Server: ${examination.server ?? 'not announced'}`, '', 'Probes'];
  const { unreachable } = examination;
  // Where nothing answered, every probe would repeat the one cause told below: it is told once.
  if (unreachable && examination.requests.every((request) => !request.answer)) {
    lines.push(`  none of the ${examination.requests.length} was answered (the cause below)`);
  } else {
    const width = Math.max(...examination.requests.map((request) => `GET ${request.path}`.length));
    for (const request of examination.requests) {
      const { answer, failure } = request;
      const shown = answer ? briefly(answer) : `${failure?.code ?? 'no answer'}: ${failure?.message ?? ''}`;
      lines.push(`  ${`GET ${request.path}`.padEnd(width)}  ${request.credentials}`, `      -> ${shown}`);
    }
  }
  for (const diagnosis of examination.diagnoses) lines.push('', ...diagnosisLines(diagnosis));
  if (unreachable) lines.push('', `${unreachable.code}: ${unreachable.message}. ${unreachable.hint}`);
  lines.push('', verdictLine(examination), countsLine(examination.totals));
  return terminalLines(lines);
}
