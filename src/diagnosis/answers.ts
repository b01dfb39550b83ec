import { looksLikeHtml } from '../classify/signatures.js';
import { handedOut, isSuccessCode, type Classified } from '../classify/types.js';
import { withoutByteOrderMark } from '../exchange/body-text.js';
import type { ClassifiedExchange } from './types.js';

/** One answer as the stack rules read it: enough to tell the application from the web server in front of it. */
export interface ObservedAnswer {
  /** The exchange's key in the run's exchanges, where the answer came from one. */
  key?: string;
  url: string;
  status: number;
  /** Header names in lower case, values already redacted. */
  headers: Record<string, string>;
  body: string;
  /** Who answered and what it means, as the classify stage decided: the diagnosis reads it, never makes it. */
  classified: Classified;
}

/** An exchange as the rules read it, with the classification the classification stage gave it. */
export function observedOf({ request, response, classification }: ClassifiedExchange, key?: string): ObservedAnswer {
  const { status, headers, body } = response;
  const url = request.url;
  // Two literals, not a spread followed by members, which V8 11 (Node 20) builds several times slower.
  return key === undefined
    ? { url, status, headers, body, classified: classification }
    : { key, url, status, headers, body, classified: classification };
}

/**
 * GET answers for the configured status, the facts every diagnosis of the hosting stack is drawn from.
 * The front-controller pair (/index.php/api/...) is only asked by the doctor; the main run leaves it out.
 */
export interface StackObservations {
  valid?: ObservedAnswer;
  noHeader?: ObservedAnswer;
  wrongToken?: ObservedAnswer;
  /** A malformed Authorization header: answered unlike no header, it shows the header reaches the application. */
  invalidHeader?: ObservedAnswer;
  /** The valid token on the selfservice listing, the first status and a status that does not exist (main run only). */
  selfservice?: ObservedAnswer;
  /** The selfservice listing without an Authorization header (main run only): what the token changes there. */
  selfserviceNoHeader?: ObservedAnswer;
  firstStatus?: ObservedAnswer;
  unknownStatus?: ObservedAnswer;
  frontController?: ObservedAnswer;
  /** The token in other forms than the Basic user name (as the password, as a Bearer token, alone): main run only. */
  tokenElsewhere?: { form: string; answer: ObservedAnswer }[];
  /** The near misses of the token on the configured status that were served (main run only). */
  nearMissesServed?: { form: string; answer: ObservedAnswer }[];
  frontControllerNoHeader?: ObservedAnswer;
  /** Another status of --status-id served to the valid token (main run only): the token is right, whatever this one got. */
  otherStatusServed?: ObservedAnswer;
  /**
   * Whether the run's own checks found the valid token served. They read the body as parsed before redaction, which
   * a token that is an ordinary word ("data") can leave unreadable as text.
   */
  validServed?: boolean;
}

/** What the run was asked to look at, which some set-up mistakes show in. */
export interface StackSetup {
  baseUrl?: string;
  statusId?: number;
  /** The other statuses of --status-id, each of which must exist as the first must. */
  otherStatusIds?: readonly number[];
  /** Answers of the run that asked the suite to wait (HTTP 429, or 503 with Retry-After), retried or kept. */
  askedToWait?: number;
}

export type ServerKind = 'apache' | 'nginx' | 'unknown';

/** A failed check's answer, with the request it answered. */
export interface FailedAnswer {
  requirement: string;
  /** The credentials in words, and whether they carried the valid token as the user name. */
  credentials: string;
  withToken: boolean;
  answer: ObservedAnswer;
}

const SHOWN_CHARS = 160;
const SHOWN_REQUESTS = 3;

/** The requirements that failed on these answers, each once. */
export const requirementsOf = (failed: FailedAnswer[]): string[] => [...new Set(failed.map((entry) => entry.requirement))];

/** The requests behind these answers, each once (several checks judge one answer), the first few in words. */
export function requestsOf(failed: FailedAnswer[], describe: (entry: FailedAnswer) => string): string {
  const requests = [...new Map(failed.map((entry) => [`${entry.answer.url} ${entry.credentials}`, entry])).values()];
  const shown = requests.slice(0, SHOWN_REQUESTS).map(describe);
  const more = requests.length > SHOWN_REQUESTS ? [`${requests.length - SHOWN_REQUESTS} more`] : [];
  return [...shown, ...more].join('; ');
}

/** The answer hands out a ticket status, or a success envelope, whatever its HTTP code: a request that should have been refused was served. */
export const statusHandedOut = (answer: ObservedAnswer): boolean => handedOut(answer.classified, 'status');

/** The valid request was served: a success code, and the status (or at least a success envelope) handed out. */
export function succeeded(answer: ObservedAnswer): boolean {
  return isSuccessCode(answer.status) && statusHandedOut(answer);
}

/** The application answered, whatever it said: its own envelope, or its own failure. */
export function fromApplication(answer: ObservedAnswer): boolean {
  return answer.classified.origin.kind === 'api';
}

/** A JSON body of any kind. */
function isJson(answer: ObservedAnswer): boolean {
  try {
    JSON.parse(withoutByteOrderMark(answer.body));
  } catch {
    return false;
  }
  return true;
}

/** A success code with a JSON body: served, whatever the resource (the listing's shape is not stated). */
export function servedJson(answer: ObservedAnswer | undefined): answer is ObservedAnswer {
  return answer !== undefined && isSuccessCode(answer.status) && isJson(answer);
}

/**
 * An HTML page: the web server (or something other than the API) answered. JSON is the API's whatever its label:
 * PHP sends text/html unless the application says otherwise.
 */
export function isHtmlPage(answer: ObservedAnswer): boolean {
  return !isJson(answer) && answer.body.trim() !== '' && looksLikeHtml(answer);
}

export function sameAnswer(a: ObservedAnswer, b: ObservedAnswer | undefined): boolean {
  return b !== undefined && a.status === b.status && a.body === b.body;
}

/**
 * What sets two answers apart, in words: the status when it differs, else the Content-Type, else the body. Two answers
 * of the same status are never told apart by their status alone, which would read as a contradiction.
 */
export function differenceOf(a: ObservedAnswer, b: ObservedAnswer): string {
  if (a.status !== b.status) return `HTTP ${a.status} against HTTP ${b.status}`;
  const typeOf = (answer: ObservedAnswer): string => answer.headers['content-type'] ?? 'no Content-Type';
  if (typeOf(a) !== typeOf(b)) return `both HTTP ${a.status}, with Content-Type ${typeOf(a)} against ${typeOf(b)}`;
  return `both HTTP ${a.status}, with different bodies`;
}

/** Which web server answered, from the Server header or the signature of its built-in error pages. */
export function serverKind(answers: ObservedAnswer[]): ServerKind {
  // Stryker disable next-line StringLiteral: the names are searched for, whatever separates them
  const server = answers.map((answer) => answer.headers.server).join(' ');
  if (/apache/i.test(server)) return 'apache';
  if (/nginx/i.test(server)) return 'nginx';
  if (answers.some((answer) => /<address>Apache|was not found on this server\.|misconfiguration and was unable/.test(answer.body)))
    return 'apache';
  if (answers.some((answer) => /<center>nginx/.test(answer.body))) return 'nginx';
  return 'unknown';
}

/** The keys of the answers a cause is drawn from, for its cites; nothing for answers known only by themselves. */
export function citing(...answers: (ObservedAnswer | undefined)[]): { cites?: string[] } {
  const keys = answers.flatMap((answer) => answer?.key ?? []);
  return keys.length === 0 ? {} : { cites: keys };
}

/** One line for evidence: status, type, and the start of the body. */
export function briefly(answer: ObservedAnswer): string {
  const type = answer.headers['content-type'] ?? 'no Content-Type';
  const title = /<title>([^<]*)<\/title>/i.exec(answer.body)?.[1];
  const text = answer.body.replace(/\s+/g, ' ');
  const body = title ? `page "${title.trim()}"` : text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
  return `HTTP ${answer.status} (${type}) ${body}`;
}

export function pathOf(answer: ObservedAnswer): string {
  const url = new URL(answer.url);
  return `${url.pathname}${url.search}`;
}
