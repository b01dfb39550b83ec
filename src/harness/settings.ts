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
}

/** One target of a spec run: its settings, what it answered, and a label when the run judges several targets. */
export interface TargetRun {
  settings: TargetSettings;
  recording: Recording;
  label?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: TargetRun[];
  }
}
