/**
 * A line cut at spaces into lines of at most width characters, for a terminal that would otherwise break it inside a
 * word; a word longer than the width keeps a line of its own, whole, since an address cut in two cannot be copied.
 */
export function wrapAtWords(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  lines.push(current);
  return lines;
}

/** A line that is redrawn in place kept within the width, so that it never wraps onto a line it cannot clear. */
export function fitWidth(line: string, width: number | undefined): string {
  // A terminal of no known size (a pseudo-terminal nobody sized reports 0 columns) is not a narrow one.
  if (!width || line.length < width) return line;
  return `${line.slice(0, Math.max(0, width - 2))}…`;
}
