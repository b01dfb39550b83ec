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
  | 'HARNESS_BODY_TOO_LARGE'
  | 'HARNESS_METHOD_REFUSED'
  | 'HARNESS_REQUEST_BUDGET'
  | 'HARNESS_SECRET_LEAK'
  | 'HARNESS_INTERNAL'
  | 'HARNESS_REPORT_UNREADABLE'
  | 'HARNESS_HEADERS_TOO_LARGE'
  | 'HARNESS_RATE_LIMITED'
  | 'HARNESS_DEADLINE'
  | 'HARNESS_NOT_RECORDED'
  | 'HARNESS_RECORDING_UNREADABLE';

export type FaultParty = 'target' | 'environment' | 'suite';

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
