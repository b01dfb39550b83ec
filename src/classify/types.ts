import type { CredentialVariant } from '../exchange/credentials.js';

/** What can stand in front of the API and answer in its place. */
export type FrontName =
  | 'cdn'
  | 'waf'
  | 'proxy'
  | 'gateway'
  | 'cache'
  | 'web-server'
  | 'php-fpm'
  | 'php-runtime'
  | 'sso'
  | 'captive-portal'
  | 'maintenance'
  | 'rate-limiter';

/** Who answered: the API application, something in front of it, or nothing that can be told. */
export type Origin =
  { kind: 'api' } | { kind: 'front'; front: FrontName; vendor?: string; evidence: string } | { kind: 'unknown'; evidence: string };

export type FrontOrigin = Extract<Origin, { kind: 'front' }>;

export type ApplicationFailure = 'uncaught-exception' | 'fatal-error' | 'database-down' | 'server-error';

/** What the answer means for the request it answered. */
export type Meaning =
  /** The ticket status handed out; the id as the JSON text holds it, so an id beyond 2^53 is compared exactly. */
  | { kind: 'served-status'; id: string }
  | { kind: 'served-listing' }
  /** The success envelope without the resource in data (null, empty): the API accepted the request, and answered it wrongly. */
  | { kind: 'served-without-resource' }
  /** The API said no: never a success envelope. */
  | { kind: 'refused' }
  | { kind: 'redirect'; to: string }
  | { kind: 'error-page' }
  | { kind: 'application-error'; what: ApplicationFailure; evidence: string }
  | { kind: 'empty' }
  | { kind: 'undecodable'; why: 'encoding' | 'not-json' | 'suite-limit'; detail: string };

export type MeaningKind = Meaning['kind'];

/** One answer classified: who answered it and what it means, with the text printed around its JSON, if any. */
export interface Classified {
  origin: Origin;
  meaning: Meaning;
  /** Text before or after the JSON envelope (PHP notices with display_errors on): the start of it, for the evidence. */
  noise?: string;
}

/** What the whole run shows about the deployment, derived from every classification. */
export interface Reach {
  /** The API answered at least one documented path with its own JSON envelope: the base URL leads to it. */
  apiAnswered: boolean;
  /**
   * The credential forms each status of --status-id was handed out to (a success envelope, with the status or not), by
   * its id: the first status' hold every credential probe, the others' the valid token, a wrong one and none.
   */
  servedStatusTo: Record<number, CredentialVariant[]>;
  /** The credential forms the selfservice listing was handed out to. */
  servedListingTo: CredentialVariant[];
}

/** The classification stage's output for one recording: every answer by its exchange key, and the reach of the run. */
export interface Classification {
  answers: Record<string, Classified>;
  reach: Reach;
}

/** Meanings in which the resource, or at least a success envelope, was handed out. */
export const SERVED_MEANINGS: readonly MeaningKind[] = ['served-status', 'served-listing', 'served-without-resource'];

/** A 2xx code: the one kind of answer that serves what it was asked for. */
// Stryker disable next-line ConditionalExpression: no final answer has a code below 200
export const isSuccessCode = (status: number): boolean => status >= 200 && status < 300;

export const isServed = (classified: Classified): boolean => SERVED_MEANINGS.includes(classified.meaning.kind);

/** What a request asks for: the ticket status, or the self-service listing. */
export type Resource = 'status' | 'listing';

/**
 * The request was handed the resource, or at least a success envelope for it, as the classification stage read the
 * answer: decided by what the answer holds, never by its words.
 */
export function handedOut(classified: Classified, resource: Resource): boolean {
  const { kind } = classified.meaning;
  return kind === 'served-without-resource' || kind === (resource === 'status' ? 'served-status' : 'served-listing');
}
