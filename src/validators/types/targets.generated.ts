// Generated from schemas/targets.schema.json by `npm run schemas:types`; a self-test fails when it is out of date. Do not edit.

/**
 * The targets of a matrix run (--targets FILE, JSON or YAML): a list, or an object with a targets list. Tokens are never in the file, only the name of the environment variable holding each.
 */
export type TicketingConformanceTargetsFile =
  | TargetList
  | {
      targets: TargetList;
    };
/**
 * @minItems 1
 */
export type TargetList = Target[];

export interface Target {
  /**
   * unique; also the name of the target's report folder
   */
  name: string;
  /**
   * address the API is served at, as --base-url
   */
  baseUrl: string;
  /**
   * name of the environment variable (or .env entry) holding the target's API token
   */
  tokenEnv: string;
  /**
   * as --status-id, whose bounds and cap apply: one id, or a list of them
   */
  statusId?: number | unknown[];
  /**
   * as --lang: a two-letter code, or a list of them
   */
  lang?: string | unknown[];
  /**
   * as --missing-lang: a two-letter code
   */
  missingLang?: string;
  /**
   * as --timeout-ms, whose bounds apply
   */
  timeoutMs?: number;
  /**
   * as --max-requests, whose bounds apply
   */
  maxRequests?: number;
  /**
   * as --rate-limit: most requests a second, minute, hour or day (5/s, 100/m)
   */
  rateLimit?: string;
  /**
   * as --cert: PEM file of the client certificate for mutual TLS, with key
   */
  cert?: string;
  /**
   * as --key: PEM file of the private key of cert (a path; the key itself is never in the file)
   */
  key?: string;
}
