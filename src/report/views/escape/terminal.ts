import { showHidden } from './hidden.js';

/**
 * One line for a terminal, whatever the target sent: escape sequences (colours, titles, OSC 8 links, OSC 52 clipboard
 * writes), carriage returns, bells, C1 controls, direction overrides and line breaks are shown as codes, so nothing
 * can move the cursor, rewrite a line the suite printed or start one of its own.
 */
export const terminalLine = (text: string): string => showHidden(text);

/** Lines for a terminal, each made safe on its own: a line the suite composes stays one line on the screen. */
export const terminalLines = (lines: readonly string[]): string => lines.map(terminalLine).join('\n');
