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

/** A report sealed, and the text of report.json: its canonical JSON, the text its content hash is taken over. */
export interface SealedReport {
  report: Report;
  text: string;
}

/**
 * The report with its content hash, the last thing the build adds, and report.json's text. The report is serialised
 * once: the hash is taken, as verify takes it, over the canonical JSON of everything but integrity.content, and the
 * text written is that same canonical JSON with the hash in its place (the last key of integrity, which sorts
 * catalog, configuration, content). Undefined fields are dropped, as JSON drops them.
 */
export function sealed(report: Report & Required<Pick<Report, 'integrity'>>): SealedReport {
  const { catalog, configuration } = report.integrity;
  const hashes = { catalog, configuration };
  // The text in pieces, each value's canonical JSON apart, so the hash reads them without their being joined first.
  const pieces = ['{'];
  let sealAt = -1;
  for (const key of Object.keys(report).sort()) {
    const value = (report as unknown as Record<string, unknown>)[key];
    if (value === undefined) continue;
    pieces.push(`${pieces.length === 1 ? '' : ','}${JSON.stringify(key)}:`);
    if (key === 'integrity') sealAt = pieces.length;
    pieces.push(canonicalJson(key === 'integrity' ? hashes : value));
  }
  pieces.push('}');
  const content = textSha256(pieces);
  const integrity = { ...hashes, content };
  pieces[sealAt] = canonicalJson(integrity);
  pieces.push('\n');
  return { report: { ...report, integrity }, text: pieces.join('') };
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
