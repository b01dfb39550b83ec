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
