import { TONES, type Tone } from './vocabulary.js';

/** Colour only for people at a terminal; logs (NO_COLOR, CI, pipes) stay plain and stable. */
export function colourWanted(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined && env.CI !== 'true' && env.TERM !== 'dumb';
}

/** Text in a tone's terminal colour, when colour is wanted. */
export function paint(tone: Tone, text: string, enabled: boolean): string {
  return enabled ? `\u001b[${TONES[tone].ansi}m${text}\u001b[0m` : text;
}
