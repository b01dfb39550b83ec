import { leakError } from '../errors.js';

/** Holds the terminal to the artifacts' rule: output that would show a secret is replaced by one line saying so. */
export function screenOutput(text: string, findLeak: (text: string) => string | undefined): { text: string; leaked: boolean } {
  const secret = findLeak(text);
  if (!secret) return { text, leaked: false };
  const { code, message, hint } = leakError('the terminal summary', secret);
  return { text: `${code}: ${message}. ${hint}`, leaked: true };
}
