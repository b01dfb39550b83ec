import { canonicalJson, sha256, textSha256 } from '../../hash.js';
import type { ClearedText } from '../../secrets/scanner.js';
import type { Report } from './types.js';

/** The effective configuration without secrets: what the report records of the target and the options. */
export function configurationHash(report: Pick<Report, 'target' | 'options'>): string {
  return sha256({ baseUrl: report.target.baseUrl, ...report.options });
}

/** The hash of a parsed report.json over everything but integrity.content. */
export function contentHash(report: unknown): string {
  if (report === null || typeof report !== 'object' || Array.isArray(report)) return sha256(report);
  const { integrity, ...rest } = report as Record<string, unknown>;
  if (integrity === null || typeof integrity !== 'object') return sha256(report);
  const hashes = Object.fromEntries(Object.entries(integrity).filter(([key]) => key !== 'content'));
  return sha256({ ...rest, integrity: hashes });
}

/** A report sealed, and report.json: its canonical JSON, the text its content hash is taken over, and that text's UTF-8. */
export interface SealedReport {
  report: Report;
  text: string;
  /** The text as UTF-8, encoded once: the bytes hashed (but integrity.content) and the bytes written. */
  bytes: Buffer;
}

/** integrity.content as report.json holds it, after the configuration's hash (content sorts last in integrity). */
const contentField = (content: string): string => `,"content":${JSON.stringify(content)}`;
/** Every content hash is as long, so the field's place is left in the bytes before the hash is known. */
const CONTENT_FIELD_LENGTH = contentField(textSha256('')).length;

/**
 * The report with its content hash, the last thing the build adds, and report.json. The report is serialised once:
 * the hash is taken, as verify takes it, over the canonical JSON of everything but integrity.content, encoded to UTF-8
 * once with room left for the field, which is then written there: the bytes are the text with the hash in its place.
 * Undefined fields are dropped, as JSON drops them.
 */
export function sealed(report: Report & Required<Pick<Report, 'integrity'>>): SealedReport {
  const { catalog, configuration } = report.integrity;
  const pieces = ['{'];
  // Where integrity.content goes: before the closing brace of integrity.
  let sealAt = -1;
  let length = 1;
  for (const key of Object.keys(report).sort()) {
    const value = (report as unknown as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const piece = `${pieces.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(key === 'integrity' ? { catalog, configuration } : value)}`;
    pieces.push(piece);
    length += piece.length;
    if (key === 'integrity') sealAt = length - 1;
  }
  pieces.push('}');
  const unsealed = pieces.join('');
  const [before, after] = [unsealed.slice(0, sealAt), unsealed.slice(sealAt)];
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(unsealed) + CONTENT_FIELD_LENGTH + 1);
  const field = bytes.write(before);
  const rest = field + CONTENT_FIELD_LENGTH;
  const end = rest + bytes.write(after, rest);
  const content = textSha256([bytes.subarray(0, field), bytes.subarray(rest, end)]);
  const sealField = contentField(content);
  bytes.write(sealField, field);
  bytes[end] = 0x0a;
  return { report: { ...report, integrity: { catalog, configuration, content } }, text: `${before}${sealField}${after}\n`, bytes };
}

/** Each built report's report.json, cleared by the build's screen when nothing was found in it. */
const texts = new WeakMap<Report, string | ClearedText>();

/** Keeps the text the build made and screened of a report, for its writer. */
export function keepText(report: Report, text: string | ClearedText): void {
  texts.set(report, text);
}

/** The text of report.json: the one the build made, or (for a report built elsewhere) its canonical JSON. */
export function reportJson(report: Report): string | ClearedText {
  return texts.get(report) ?? `${canonicalJson(report)}\n`;
}
