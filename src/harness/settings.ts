/** What a spec run needs to know about its target; handed from the CLI to the Vitest worker. */
export interface TargetSettings {
  baseUrl: string;
  token: string;
  password: string;
  statusId: number;
  lang?: string;
  missingLang?: string;
  timeoutMs: number;
  maxBodyBytes: number;
  maxRequests: number;
  userAgent: string;
  /** Epoch milliseconds after which no request is sent and any in flight is abandoned. */
  deadlineAt: number;
  concurrency: number;
  /** PEM CA certificates to trust instead of the system's. */
  ca?: string;
  insecure: boolean;
  /** Route requests through HTTPS_PROXY/HTTP_PROXY unless NO_PROXY excludes the target. */
  proxyFromEnvironment: boolean;
  /** The run's id: the trace id of every request's traceparent header, and runId in the report. */
  runId: string;
}

/** One target of a spec run, and its label when the run judges several targets. */
export interface TargetRun {
  settings: TargetSettings;
  label?: string;
}

/** What the CLI hands the spec worker: the targets, and the channel their recordings come over (src/harness/recording-channel.ts). */
export interface SpecRunContext {
  targets: TargetRun[];
  channel: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: SpecRunContext;
  }
}
