const BASE = 'http://base.invalid/dir/';

/**
 * A link a report may carry: relative (a sibling report) or http(s). Anything else (javascript:, data:, file:, a
 * scheme hidden behind tabs or spaces) gives undefined. Read with the URL parser browsers use, so it sees what they see.
 */
export function safeLink(href: string): string | undefined {
  if (!URL.canParse(href, BASE)) return undefined;
  const { protocol } = new URL(href, BASE);
  return protocol === 'http:' || protocol === 'https:' ? href : undefined;
}

/** A relative link to a file path: each segment percent-encoded, so no part of the path can read as a scheme, query or fragment. */
export const pathLink = (path: string): string => path.split('/').map(encodeURIComponent).join('/');
