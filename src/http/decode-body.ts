import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { HarnessError } from '../errors.js';
import type { BodyBudget } from './body-budget.js';

/** The body with its Content-Encoding undone, or as received with why it could not be undone. */
export interface DecodedBody {
  body: Buffer;
  undecodable?: string;
}

/** The content codings the suite undoes, and asks for in Accept-Encoding. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

type Decoder = (body: Buffer, maxOutputLength: number) => Buffer;
const gunzip: Decoder = (body, maxOutputLength) => gunzipSync(body, { maxOutputLength });

/** How each coding the suite knows is undone; any other leaves the body as it came. */
const DECODERS = new Map<string, Decoder>([
  ['gzip', gunzip],
  ['x-gzip', gunzip],
  ['br', (body, maxOutputLength) => brotliDecompressSync(body, { maxOutputLength })],
  [
    'deflate',
    (body, maxOutputLength) => {
      try {
        return inflateSync(body, { maxOutputLength });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw error;
        return inflateRawSync(body, { maxOutputLength });
      }
    },
  ],
]);

/**
 * Undo Content-Encoding within the target's byte budget, like the wire, so a small compressed bomb cannot exhaust memory.
 * A coding the suite does not know (zstd from a CDN, a bogus UTF-8) leaves the body as it came: read as it is if it is
 * text, else undecodable for that coding, which the request never accepted.
 */
export function decodeBody(raw: Buffer, encoding: string | undefined, budget: BodyBudget, path: string): DecodedBody {
  // Most answers name no encoding.
  if (encoding === undefined) return { body: raw };
  const maxBytes = budget.limit();
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let body = raw;
  try {
    for (const coding of codings.reverse()) body = DECODERS.get(coding)?.(body, maxBytes) ?? body;
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      budget.cut();
      throw new HarnessError(
        'HARNESS_BODY_TOO_LARGE',
        `the ${codings.join(', ')} response to GET ${path} unpacks to more than ${maxBytes} bytes`,
        'The target sent a compressed body far larger than a ticket status can need',
        'target',
      );
    }
    // Shown as received, and not read as JSON: curl, browsers and the vendor's client all fail on such a body.
    return {
      body: raw,
      undecodable: `the body is labelled Content-Encoding: ${encoding ?? ''} but does not decode as such (${(error as Error).message})`,
    };
  }
  if (codings.some((coding) => !DECODERS.has(coding)) && !isUtf8(body))
    return {
      body: raw,
      undecodable: `the body is labelled Content-Encoding: ${encoding}, which the request did not accept (Accept-Encoding: ${ACCEPTED_ENCODINGS}) and the suite cannot undo`,
    };
  return { body };
}
