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

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: TargetSettings;
  }
}
