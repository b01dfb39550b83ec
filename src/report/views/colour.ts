import type { Verdict } from '../model/types.js';

const CODES: Record<Verdict, string> = { pass: '32', fail: '31', warn: '33', info: '36', skip: '90', error: '35', flaky: '33' };

/** Colour only for people at a terminal; logs (NO_COLOR, CI, pipes) stay plain and stable. */
export function colourWanted(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined && env.CI !== 'true' && env.TERM !== 'dumb';
}

export function paint(verdict: Verdict, text: string, enabled: boolean): string {
  return enabled ? `\u001b[${CODES[verdict]}m${text}\u001b[0m` : text;
}
