import type { Profile } from '../requirements/types.js';

/** What decides which requests a run sends, and all a judge needs to know of its target: no address, no secret. */
export interface RequestChoices {
  statusId: number;
  lang?: string;
  missingLang?: string;
  /** The extra requirements the run judges, and the request they add (--profile). */
  profile?: Profile;
  /** Connections at once: how many requests the first round sends before the lang requests. */
  concurrency: number;
}

/** Everything recording a target takes; only its RequestChoices reach the judge. */
export interface TargetSettings extends RequestChoices {
  baseUrl: string;
  token: string;
  password: string;
  timeoutMs: number;
  maxBodyBytes: number;
  maxRequests: number;
  userAgent: string;
  /** Epoch milliseconds after which no request is sent and any in flight is abandoned. */
  deadlineAt: number;
  /** PEM CA certificates to trust instead of the system's. */
  ca?: string;
  insecure: boolean;
  /** Route requests through HTTPS_PROXY/HTTP_PROXY unless NO_PROXY excludes the target. */
  proxyFromEnvironment: boolean;
  /** The run's id: the trace id of every request's traceparent header, and runId in the report. */
  runId: string;
}

/** One target to record and judge, and its label when a spec run judges several. */
export interface TargetRun {
  settings: TargetSettings;
  label?: string;
}

/** The part of the settings a judge is handed. */
export function requestChoices({ statusId, lang, missingLang, profile, concurrency }: RequestChoices): RequestChoices {
  return {
    statusId,
    concurrency,
    ...(lang === undefined ? {} : { lang }),
    ...(missingLang === undefined ? {} : { missingLang }),
    ...(profile === undefined ? {} : { profile }),
  };
}

/** The settings a report and a recording keep: what shaped the run, never an address's credentials or the token. */
export interface RecordedOptions {
  statusId: number;
  lang?: string;
  missingLang?: string;
  profile?: Profile;
  strict: boolean;
  timeoutMs: number;
  maxRequests: number;
  repeat: number;
  deadlineMs?: number;
  concurrency?: number;
  /** Path of the --ca file trusted instead of the system's CAs. */
  ca?: string;
  insecure?: boolean;
}
