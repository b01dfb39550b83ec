import type * as ReportFile from './validators/types/report.generated.js';

/** The suite could not judge: configuration, network or its own fault. Never means the target is wrong. */
export type HarnessErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_MISSING_TOKEN'
  | 'CONFIG_MISSING_BASE_URL'
  | 'CONFIG_UNKNOWN_OPTION'
  | 'HARNESS_TIMEOUT'
  | 'HARNESS_UNREACHABLE'
  | 'HARNESS_DNS'
  | 'HARNESS_TLS'
  | 'HARNESS_CONNECTION_RESET'
  | 'HARNESS_MALFORMED_ANSWER'
  | 'HARNESS_BODY_TOO_LARGE'
  | 'HARNESS_METHOD_REFUSED'
  | 'HARNESS_REQUEST_BUDGET'
  | 'HARNESS_SECRET_LEAK'
  | 'HARNESS_INTERNAL'
  | 'HARNESS_REPORT_UNREADABLE'
  | 'HARNESS_HEADERS_TOO_LARGE'
  | 'HARNESS_RATE_LIMITED'
  | 'HARNESS_DEADLINE'
  | 'HARNESS_INTERRUPTED'
  | 'HARNESS_NOT_RECORDED'
  | 'HARNESS_RECORDING_UNREADABLE'
  | 'HARNESS_NOT_THE_API'
  | 'HARNESS_SUITE_LIMIT'
  | 'HARNESS_ENVIRONMENT';

export type FaultParty = ReportFile.Party;

export class HarnessError extends Error {
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
    readonly hint: string,
    readonly party: FaultParty = 'suite',
  ) {
    super(message);
    this.name = 'HarnessError';
  }

  /** One line for a terminal: what went wrong, then how to fix it. */
  oneLine(): string {
    return `${this.code}: ${this.message}. ${this.hint}`;
  }
}

export class ConfigError extends HarnessError {
  constructor(code: Extract<HarnessErrorCode, `CONFIG_${string}`>, message: string, hint: string) {
    super(code, message, hint, 'environment');
    this.name = 'ConfigError';
  }
}

const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'something that is not a folder is already there',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EMFILE: 'too many open files',
  ELOOP: 'too many symbolic links',
  EADDRINUSE: 'the address is already in use',
  EADDRNOTAVAIL: 'the address is not one of this machine',
};

/** An error of the operating system (file system, ports), as Node reports it. */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code ?? '')
  );
}

/** Why the operating system refused, in words, with its code: "permission denied (EACCES)". */
export function systemReason(error: unknown): string {
  if (!isSystemError(error)) return error instanceof Error ? error.message : String(error);
  return `${SYSTEM_REASONS[error.code] ?? 'refused by the operating system'} (${error.code})`;
}

/** A problem of the machine the suite runs on (a file it cannot write, a port in use): never the target, never a bug of the suite. */
export function environmentError(what: string, error: unknown, hint: string): HarnessError {
  return new HarnessError('HARNESS_ENVIRONMENT', `${what}: ${systemReason(error)}`, hint, 'environment');
}

/** An error as a report keeps it: plain data, whoever raised it; its code typed by the list above, which the schema checks only the form of. */
export type RunError = Omit<ReportFile.RunError, 'code'> & { code: HarnessErrorCode };

/** Something the user chose or allowed that weakens what the suite promises about the token. */
export type RunWarning = NonNullable<ReportFile.TicketingConformanceReport['warnings']>[number];

/** An error of the suite itself: never the target's fault. */
export function suiteError(message: string): RunError {
  return { code: 'HARNESS_INTERNAL', message, hint: 'This is a bug in the suite; please report it', party: 'suite' };
}

export function suiteFailure(what: string, error: unknown): RunError {
  return suiteError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** An artifact (or the terminal summary) left unwritten because it would have shown a secret. */
export function leakError(artifact: string, secret: string): RunError {
  return {
    code: 'HARNESS_SECRET_LEAK',
    message: `${artifact} would have contained ${secret}, so it was not written`,
    hint: 'This is a bug in the suite; report it without the file',
    party: 'suite',
  };
}
