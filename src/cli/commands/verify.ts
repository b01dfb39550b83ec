import { terminalLine, terminalLines } from '../../report/views/escape/terminal.js';
import { readCommandLine } from '../../config/command-line.js';
import { ConfigError } from '../../errors.js';
import { fileRefusal, readCheckedFile, type FileKind } from '../../files/checked-file.js';
import { checkReportVersion } from '../../files/report-version.js';
import { outcomeLine } from '../../report/views/failure-text.js';
import { contentHash } from '../../report/model/integrity.js';
import type { Report } from '../../report/model/types.js';
import { catalogHash } from '../../hash.js';
import type { CommandIo } from '../io.js';

const USAGE = 'Usage: ticketing-conformance verify REPORT.json [--expect sha256:HASH]';
const HELP = `${USAGE}

Says whether a report.json is as the run wrote it: the run records a hash of the report's content
(integrity.content) and prints it; verify recomputes it. Anyone can recompute a hash, so to rule out
a report that was edited and re-hashed, pass the hash the run printed in its log with --expect.

Exit codes: 0 intact, 1 edited after the run, 2 unreadable (missing, not JSON, or no content hash).`;

/**
 * Any JSON is read, valid against the report's schema or not: an edit may break the schema, and an edited report is
 * one verify says was edited (exit 1), not one it cannot read.
 */
const REPORT: FileKind<unknown> = {
  what: 'the report',
  code: 'HARNESS_REPORT_UNREADABLE',
  hint: 'Pass the report.json a run wrote (in its --out folder, reports/ by default)',
  prepare(data, _refuse, path) {
    checkReportVersion(data, path);
    return data;
  },
};

function readArguments(argv: string[]): { path: string; expect?: string; help: boolean } {
  const parsed = readCommandLine(argv, { expect: { type: 'string' } }, { hint: USAGE, command: 'verify' });
  const help = parsed.values.help === true;
  const [path, ...extra] = parsed.positionals;
  if (!help && (path === undefined || extra.length > 0)) throw new ConfigError('CONFIG_INVALID', 'verify takes one report.json', USAGE);
  return { path: path ?? '', expect: parsed.values.expect, help };
}

/** What the report says about its run, so whoever checks it sees what was vouched for. */
function describe(report: Partial<Report>): string[] {
  const lines: string[] = [];
  const { requirements, options, baseline } = report;
  if (Array.isArray(requirements) && options) {
    // The run's own counts line: what its exit code counted, under its --strict and its baseline.
    lines.push(
      `  Run:     ${report.startedAt ?? '?'}, ${report.verdict ?? '?'} (exit ${report.exitCode ?? '?'}), ${outcomeLine({ requirements, options, baseline })}`,
    );
  }
  const catalog = report.integrity?.catalog;
  const sameCatalog = catalog === catalogHash ? 'the same as this suite’s' : `this suite’s is ${catalogHash}`;
  lines.push(`  Suite:   ${report.suite?.name ?? '?'} ${report.suite?.version ?? '?'}; catalog ${catalog ?? '?'} (${sameCatalog})`);
  const fingerprint = report.target?.fingerprint;
  const seen = [
    fingerprint?.server.length ? `Server: ${fingerprint.server.join(', ')}` : '',
    fingerprint?.tlsCertificateSha256.length ? `TLS certificate SHA-256 ${fingerprint.tlsCertificateSha256.join(', ')}` : '',
  ].filter(Boolean);
  lines.push(`  Target:  ${report.target?.baseUrl ?? '?'}${seen.length > 0 ? `; ${seen.join('; ')}` : ''}`);
  return lines;
}

/** ticketing-conformance verify REPORT.json: 0 intact, 1 edited after the run, 2 unreadable. */
export async function verifyCommand(argv: string[], io: CommandIo): Promise<number> {
  const { path, expect, help } = readArguments(argv);
  if (help) {
    io.log(HELP);
    return 0;
  }
  const report = readCheckedFile(path, REPORT) as Partial<Report> | null;
  const recorded = report?.integrity?.content;
  if (typeof recorded !== 'string') {
    throw fileRefusal(path, REPORT)('carries no content hash (integrity.content), so it cannot be verified');
  }
  const actual = contentHash(report);
  if (actual !== recorded) {
    io.log(terminalLine(`EDITED: ${path} was changed after the run: its content hashes to ${actual}, the run recorded ${recorded}.`));
    return 1;
  }
  if (expect !== undefined && expect !== recorded) {
    io.log(
      terminalLine(
        `EDITED: ${path} matches its own hash ${recorded}, but the run printed ${expect}: it was replaced, or edited and hashed again.`,
      ),
    );
    return 1;
  }
  io.log(
    terminalLines([
      `INTACT: ${path} is as the run wrote it (content hash ${recorded}${expect === undefined ? '' : ', as printed by the run'}).`,
      ...describe(report ?? {}),
    ]),
  );
  return 0;
}
