import type { Recording } from './recording.js';

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
  /** Judge the recording alone: a request it holds no answer to fails instead of being sent. */
  offline?: boolean;
}

/** One target of a spec run, and its label when the run judges several targets. */
export interface TargetRun {
  settings: TargetSettings;
  label?: string;
}

/** A target of the spec run with what it answered, or why nothing was recorded. */
export interface ProvidedTarget extends TargetRun {
  recording?: Recording;
  failure?: string;
}

/** What the spec worker is handed through Vitest's provide/inject: one spec run's targets and their recordings. */
export interface SpecRunContext {
  /** Tells one spec run from the next, should a worker outlive a run. */
  specRunId: string;
  targets: ProvidedTarget[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: SpecRunContext;
  }
}
