import type { RunError } from '../../errors.js';
import type { SecretScanner } from '../../secrets/scanner.js';
import type { DiagnosedPass } from './types.js';

/**
 * The pass with no secret the scanner knows. A secret in it is a fault of the suite, since answers are redacted as
 * they are received: it is redacted here and said, and the run gives no verdict.
 */
export function screenedPass(pass: DiagnosedPass, scanner: SecretScanner): { pass: DiagnosedPass; errors: RunError[] } {
  const text = JSON.stringify(pass);
  const secret = scanner.find(text);
  if (!secret) return { pass, errors: [] };
  return {
    pass: redacted(pass, text, scanner),
    errors: [
      {
        code: 'HARNESS_SECRET_LEAK',
        message: `the report would have contained ${secret}, so every view shows it redacted`,
        hint: 'This is a bug in the suite: answers are redacted as they are received; report it without the files',
        party: 'suite',
      },
    ],
  };
}

/**
 * The pass with the scanner's secrets redacted, read as JSON text (a credential's name and its value are seen together
 * there, as in every view), else string by string.
 */
function redacted(pass: DiagnosedPass, text: string, scanner: SecretScanner): DiagnosedPass {
  try {
    return JSON.parse(scanner.redact(text)) as DiagnosedPass;
  } catch {
    return redactedDeep(pass, scanner.redact);
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
