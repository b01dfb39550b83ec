import type { RunError } from '../../errors.js';
import type { SecretScanner } from '../../secrets/scanner.js';

/**
 * What a report (or a matrix) is built from, with no secret the scanner knows. A secret in it is a fault of the suite,
 * since answers are redacted as they are received: it is redacted here and said, and the run gives no verdict.
 */
export function screened<T>(facts: T, scanner: SecretScanner, file: 'report' | 'matrix'): { facts: T; errors: RunError[] } {
  const text = JSON.stringify(facts);
  const secret = scanner.find(text);
  if (!secret) return { facts, errors: [] };
  return {
    // A matrix keys its verdicts by requirement ID, which read in JSON text may look like a credential's name
    // (HOST-AUTHORIZATION-PASSED): its strings are redacted one by one.
    facts: file === 'report' ? redacted(facts, text, scanner) : redactedDeep(facts, scanner.redact),
    errors: [
      {
        code: 'HARNESS_SECRET_LEAK',
        message: `the ${file} would have contained ${secret}, so every view shows it redacted`,
        hint: 'This is a bug in the suite: answers are redacted as they are received; report it without the files',
        party: 'suite',
      },
    ],
  };
}

/**
 * The facts with the scanner's secrets redacted, read as JSON text (a credential's name and its value are seen together
 * there, as in every view), else string by string.
 */
function redacted<T>(facts: T, text: string, scanner: SecretScanner): T {
  try {
    return JSON.parse(scanner.redact(text)) as T;
  } catch {
    return redactedDeep(facts, scanner.redact);
  }
}

function redactedDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactedDeep(item, redact)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactedDeep(item, redact)])) as T;
  }
  return value;
}
