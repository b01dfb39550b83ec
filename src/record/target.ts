import { HarnessError } from '../errors.js';
import { variantLabel, type CredentialVariant } from '../exchange/credentials.js';
import {
  exchangeKey,
  SELFSERVICE_PATH,
  STATUS_PATH,
  THROUGH_FRONT_CONTROLLER,
  type Exchange,
  type TrafficCounts,
} from '../exchange/exchange.js';
import type { RecordedAnswer, RecordedFailure, Recording } from './recording.js';
import type { RequestChoices } from './settings.js';
import { dataOf, translationsOf, type Translation } from '../exchange/json-body.js';

export const FIRST_STATUS_ID = 1;
/** An id no installation reaches, to see how the target answers for a status that does not exist. */
export const UNKNOWN_STATUS_ID = 2147483646;
/** Real two-letter codes, tried in order, for a locale the status has no translation for. */
export const MISSING_LOCALE_CANDIDATES = ['sw', 'is', 'mt', 'cy', 'eu', 'ga', 'lb', 'mk'];

export interface StatusRequest {
  id?: number;
  lang?: string;
  credentials?: CredentialVariant;
  /** Asked through the front controller (/index.php/api/...), as the doctor does, rather than on the API path itself. */
  frontController?: boolean;
}

/** The path a status request asks for: the document's path of the status (the configured one unless it names another). */
export function statusPathOf({ id, frontController }: StatusRequest, statusId: number): string {
  const path = STATUS_PATH(id ?? statusId);
  return frontController ? THROUGH_FRONT_CONTROLLER(path) : path;
}

/** How a recording names the answer to a status request (see exchangeKey). */
export function statusKey(request: StatusRequest, statusId: number): string {
  const { lang, credentials = 'valid' } = request;
  return exchangeKey(statusPathOf(request, statusId), lang === undefined ? {} : { lang }, credentials);
}

/** What sends the requests of a recording: the HTTP client, which only the recorder loads. */
export interface Sender {
  get(request: { path: string; query: Record<string, string>; credentials: CredentialVariant }): Promise<Exchange>;
  readonly traffic: TrafficCounts;
  readonly tlsCertificates: string[];
  close(): Promise<void>;
}

export interface TargetSource {
  /** Answers already recorded: the judge's only source. */
  recording?: Recording;
  /** Starts the sender of what the recording lacks; without one, such a request fails as not recorded. */
  connect?: () => Promise<Sender>;
  /** The near-miss tokens to try, which only whoever holds the token can tell; a recording says which it holds. */
  nearMisses?: CredentialVariant[];
}

/**
 * The target as the plan and the specs see it: named requests, each sent at most once per run and shared by every
 * scenario. The recorder sends them; the judge answers them from the recording alone.
 */
export class Target {
  private client?: Sender;
  private connecting?: Promise<Sender>;
  private readonly memo = new Map<string, Promise<Exchange>>();
  private readonly recording?: Recording;

  constructor(
    readonly settings: RequestChoices,
    private readonly source: TargetSource = {},
  ) {
    this.recording = source.recording;
  }

  /** The near-miss tokens of this run: those the token allows when recording, those recorded when judging. */
  get nearMisses(): CredentialVariant[] | undefined {
    return this.source.nearMisses;
  }

  get requestsSent(): number {
    return this.traffic.sent;
  }

  /** Requests sent, 429 answers met and time paused, over the recording and anything sent since. */
  get traffic(): TrafficCounts {
    const recorded = this.recording?.traffic ?? { sent: 0, rateLimited: 0, waitedMs: 0 };
    const live = this.client?.traffic ?? { sent: 0, rateLimited: 0, waitedMs: 0 };
    return {
      sent: recorded.sent + live.sent,
      rateLimited: recorded.rateLimited + live.rateLimited,
      waitedMs: recorded.waitedMs + live.waitedMs,
    };
  }

  /** SHA-256 fingerprints of the TLS certificates the target presented (https only). */
  get tlsCertificates(): string[] {
    return [...new Set([...(this.recording?.tlsCertificates ?? []), ...(this.client?.tlsCertificates ?? [])])];
  }

  status(request: StatusRequest = {}): Promise<Exchange> {
    const { lang, credentials = 'valid' } = request;
    return this.once(statusPathOf(request, this.settings.statusId), lang === undefined ? {} : { lang }, credentials);
  }

  selfservice(credentials: CredentialVariant = 'valid'): Promise<Exchange> {
    return this.once(SELFSERVICE_PATH, {}, credentials);
  }

  /**
   * The locale to ask for: the configured one, or the first translation the status lists whose name differs from the
   * default name (else the first): asked for one named like the default, an answer that ignored lang would look right.
   */
  async translatedLocale(): Promise<Translation | undefined> {
    const status = await this.status();
    const translations = translationsOf(status) ?? [];
    const wanted = this.settings.lang?.toLowerCase();
    if (wanted !== undefined) return translations.find((entry) => String(entry.locale).toLowerCase() === wanted);
    const usable = translations.filter((entry) => typeof entry.locale === 'string' && typeof entry.name === 'string');
    const defaultName = dataOf(status)?.name;
    return usable.find((entry) => entry.name !== defaultName) ?? usable[0];
  }

  /**
   * A locale with no translation: the configured one, or a code absent from the status' translations (a real one when
   * one is free, else any two letters); undefined when the status lists every two-letter code.
   */
  async missingLocale(): Promise<string | undefined> {
    if (this.settings.missingLang) return this.settings.missingLang;
    const present = new Set((translationsOf(await this.status()) ?? []).map((entry) => String(entry.locale).toLowerCase()));
    return [...MISSING_LOCALE_CANDIDATES, ...everyTwoLetterCode()].find((code) => !present.has(code));
  }

  /** Every answer so far, once all requests in flight have settled. */
  async recorded(): Promise<Recording> {
    let settled = 0;
    // A request may be started while earlier ones settle (the translated locale waits on the status).
    while (settled < this.memo.size) {
      settled = this.memo.size;
      await Promise.allSettled(this.memo.values());
    }
    const answers: Record<string, RecordedAnswer> = {};
    for (const [key, pending] of this.memo) {
      answers[key] = await pending.then(
        (exchange) => ({ exchange }),
        (error: unknown) => ({ failure: asFailure(error) }),
      );
    }
    return { traffic: this.traffic, tlsCertificates: this.tlsCertificates, answers };
  }

  async close(): Promise<void> {
    await (await this.connecting)?.close();
  }

  /** Whether a recording judged on its own holds this request: there, what was sent decides what can be judged. */
  recordedStatus(request: StatusRequest): boolean {
    return this.recording?.answers[statusKey(request, this.settings.statusId)] !== undefined;
  }

  private once(path: string, query: Record<string, string>, credentials: CredentialVariant): Promise<Exchange> {
    const key = exchangeKey(path, query, credentials);
    let pending = this.memo.get(key);
    if (!pending) {
      const answer = this.recording?.answers[key];
      const answering = answer
        ? replay(answer)
        : this.source.connect
          ? this.live().then((client) => client.get({ path, query, credentials }))
          : Promise.reject(notRecorded(path, query, credentials));
      // The key goes with the exchange, so a check names the answer it judged and the report stores each answer once.
      pending = answering.then((exchange) => ({ ...exchange, key }));
      // Scenarios await these later; an early rejection must not count as unhandled meanwhile.
      pending.catch(() => undefined);
      this.memo.set(key, pending);
    }
    return pending;
  }

  /** Settles once the HTTP client is loaded and the requests asked for so far are on their way. */
  async ready(): Promise<void> {
    await this.live();
  }

  /** The sender, started on first use. */
  private live(): Promise<Sender> {
    const { connect } = this.source;
    if (!connect) return Promise.reject(new Error('judging a recording sends no request'));
    this.connecting ??= connect().then((client) => (this.client = client));
    return this.connecting;
  }
}

/** What a recording judged on its own lacks: said plainly, never made up by sending the request after all. */
function notRecorded(path: string, query: Record<string, string>, credentials: CredentialVariant): HarnessError {
  const search = new URLSearchParams(query).toString();
  return new HarnessError(
    'HARNESS_NOT_RECORDED',
    `the recording holds no answer to GET ${path}${search ? `?${search}` : ''} (${variantLabel(credentials)}), and judging a recording sends no request`,
    'Record the target again with this version of the suite (ticketing-conformance --base-url URL), then judge that recording',
    'suite',
  );
}

function* everyTwoLetterCode(): Generator<string> {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const first of letters) for (const second of letters) yield `${first}${second}`;
}

function replay(answer: RecordedAnswer): Promise<Exchange> {
  if ('exchange' in answer) return Promise.resolve(answer.exchange);
  const { code, message, hint, party } = answer.failure;
  return Promise.reject(new HarnessError(code, message, hint, party));
}

function asFailure(error: unknown): RecordedFailure {
  if (error instanceof HarnessError) return { code: error.code, message: error.message, hint: error.hint, party: error.party };
  return {
    code: 'HARNESS_INTERNAL',
    message: `a request failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
    hint: 'This is a bug in the suite; please report it with the report.json',
    party: 'suite',
  };
}
