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

/**
 * What one view of the target judges: one status of --status-id and, when --lang gives several, one of its languages.
 * The first status with the first language is the run's own: the credential probes and the rest ask for it.
 */
export interface Slice {
  statusId: number;
  lang?: string;
}

/** Which slices a scenario is judged in: once for the run, once per status, or once per status and language. */
export type SliceScope = 'run' | 'status' | 'language';

/** The first status with the first language: the slice a run of one status and one language has alone. */
export function firstSlice({ statusId, lang }: Pick<RequestChoices, 'statusId' | 'lang'>): Slice {
  const [first = FIRST_STATUS_ID] = statusId;
  const [language] = lang ?? [];
  return language === undefined ? { statusId: first } : { statusId: first, lang: language };
}

/** Whether the run asks for several statuses or several languages, so that its results are told apart by them. */
export function severalSlices({ statusId, lang }: Pick<RequestChoices, 'statusId' | 'lang'>): boolean {
  return statusId.length > 1 || (lang?.length ?? 0) > 1;
}

/** The slices a scenario of that scope is judged in, the run's own first. */
export function slicesOf(settings: Pick<RequestChoices, 'statusId' | 'lang'>, scope: SliceScope): Slice[] {
  const first = firstSlice(settings);
  if (scope === 'run') return [first];
  const langs = scope === 'language' && settings.lang ? settings.lang : [first.lang];
  return settings.statusId.flatMap((statusId) => langs.map((lang) => (lang === undefined ? { statusId } : { statusId, lang })));
}

export interface StatusRequest {
  id?: number;
  lang?: string;
  credentials?: CredentialVariant;
  /** Asked through the front controller (/index.php/api/...), as the doctor does, rather than on the API path itself. */
  frontController?: boolean;
}

/** The request for the view's own status with the valid token. */
const VIEWS_OWN: StatusRequest = Object.freeze({});

/** The path a status request asks for: the document's path of the status (the slice's unless it names another). */
export function statusPathOf({ id, frontController }: StatusRequest, statusId: number): string {
  const path = STATUS_PATH(id ?? statusId);
  return frontController ? THROUGH_FRONT_CONTROLLER(path) : path;
}

/** How a recording names the answer to a status request (see exchangeKey). */
function statusKey(request: StatusRequest, statusId: number): string {
  const { lang, credentials = 'valid' } = request;
  return exchangeKey(statusPathOf(request, statusId), lang === undefined ? {} : { lang }, credentials);
}

/** What sends the requests of a recording: the HTTP client, which only the recorder loads. */
export interface Sender {
  /** The exchange of one request, named by `key` (see exchangeKey). */
  get(request: { path: string; query: Record<string, string>; credentials: CredentialVariant; key: string }): Promise<Exchange>;
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

/** What every view of one target shares: each request's answer, and the sender. */
interface Wire {
  memo: Map<string, Promise<Exchange>>;
  client?: Sender;
  connecting?: Promise<Sender>;
}

/**
 * The target as the plan and the specs see it: named requests, each sent at most once per run and shared by every
 * scenario. The recorder sends them; the judge answers them from the recording alone. A view of it for another slice
 * (forSlice) asks for that status and language and shares every answer.
 */
export class Target {
  private readonly recording?: Recording;
  /** The answers to this view's status, by the language and the credentials they were asked with. */
  private readonly ownStatus = new Map<string | undefined, Map<CredentialVariant, Promise<Exchange>>>();
  /** Whether the recording holds an answer to this view's status, by the credentials it was asked with. */
  private readonly holdsOwnStatus = new Map<CredentialVariant, boolean>();

  constructor(
    readonly settings: RequestChoices,
    private readonly source: TargetSource = {},
    /** The status and language this view asks for when a request names none. */
    readonly slice: Slice = firstSlice(settings),
    private readonly wire: Wire = { memo: new Map() },
  ) {
    this.recording = source.recording;
  }

  /** The same target seen for another status and language: the same answers, sent once for every view. */
  forSlice(slice: Slice): Target {
    return new Target(this.settings, this.source, slice, this.wire);
  }

  /** The status this view reads: the run's first, or the slice's. */
  get statusId(): number {
    return this.slice.statusId;
  }

  /** The language this view asks for: one of --lang, or undefined when the status' own translations choose. */
  get lang(): string | undefined {
    return this.slice.lang;
  }

  /** Whether this view reads the run's first status, the one the credential probes and the other run-wide requests ask for. */
  get readsFirstStatus(): boolean {
    return this.slice.statusId === firstSlice(this.settings).statusId;
  }

  /** The near-miss tokens of this run: those the token allows when recording, those recorded when judging. */
  get nearMisses(): CredentialVariant[] | undefined {
    return this.source.nearMisses;
  }

  get requestsSent(): number {
    return this.traffic.sent;
  }

  /** Requests sent, answers that asked to wait and time paused, over the recording and anything sent since. */
  get traffic(): TrafficCounts {
    const recorded = this.recording?.traffic ?? { sent: 0, rateLimited: 0, waitedMs: 0 };
    const live = this.wire.client?.traffic ?? { sent: 0, rateLimited: 0, waitedMs: 0 };
    return {
      sent: recorded.sent + live.sent,
      rateLimited: recorded.rateLimited + live.rateLimited,
      waitedMs: recorded.waitedMs + live.waitedMs,
    };
  }

  /** SHA-256 fingerprints of the TLS certificates the target presented (https only). */
  get tlsCertificates(): string[] {
    return [...new Set([...(this.recording?.tlsCertificates ?? []), ...(this.wire.client?.tlsCertificates ?? [])])];
  }

  status(request: StatusRequest = VIEWS_OWN): Promise<Exchange> {
    const { id, lang, credentials = 'valid', frontController } = request;
    // Most requests name no other status: their answers are kept by this view, each key made once.
    if (id !== undefined || frontController) return this.statusOnce(request);
    let byCredentials = this.ownStatus.get(lang);
    if (!byCredentials) {
      byCredentials = new Map();
      this.ownStatus.set(lang, byCredentials);
    }
    let answer = byCredentials.get(credentials);
    if (!answer) {
      answer = this.statusOnce(request);
      byCredentials.set(credentials, answer);
    }
    return answer;
  }

  private statusOnce(request: StatusRequest): Promise<Exchange> {
    const { lang, credentials = 'valid' } = request;
    return this.once(statusPathOf(request, this.statusId), lang === undefined ? {} : { lang }, credentials);
  }

  selfservice(credentials: CredentialVariant = 'valid'): Promise<Exchange> {
    return this.once(SELFSERVICE_PATH, {}, credentials);
  }

  /**
   * The locale to ask for: the slice's, or the first translation the status lists whose name differs from the
   * default name (else the first): asked for one named like the default, an answer that ignored lang would look right.
   */
  async translatedLocale(): Promise<Translation | undefined> {
    return (await this.translatedLocales(this.lang === undefined ? undefined : [this.lang]))[0];
  }

  /** The translations of the status for every language of --lang it lists (or the one the status offers), in --lang's order. */
  async translatedLocales(wanted = this.settings.lang): Promise<Translation[]> {
    const status = await this.status();
    const translations = translationsOf(status) ?? [];
    if (wanted !== undefined) {
      return wanted.flatMap((code) => translations.find((entry) => String(entry.locale).toLowerCase() === code.toLowerCase()) ?? []);
    }
    const usable = translations.filter((entry) => typeof entry.locale === 'string' && typeof entry.name === 'string');
    const defaultName = dataOf(status)?.name;
    const chosen = usable.find((entry) => entry.name !== defaultName) ?? usable[0];
    return chosen ? [chosen] : [];
  }

  /**
   * A locale with no translation: the configured one, or a code absent from the status' translations (a real one when
   * one is free, else any two letters); undefined when the status lists every two-letter code.
   */
  async missingLocale(): Promise<string | undefined> {
    if (this.settings.missingLang) return this.settings.missingLang;
    const present = new Set((translationsOf(await this.status()) ?? []).map((entry) => String(entry.locale).toLowerCase()));
    // The usual candidates first; the 676 codes are made only when every one of them is present.
    return MISSING_LOCALE_CANDIDATES.find((code) => !present.has(code)) ?? [...everyTwoLetterCode()].find((code) => !present.has(code));
  }

  /** Every answer so far, once all requests in flight have settled. */
  async recorded(): Promise<Recording> {
    let keys: string[] = [];
    let outcomes: PromiseSettledResult<Exchange>[] = [];
    // A request may be started while earlier ones settle (the translated locale waits on the status).
    const { memo } = this.wire;
    while (keys.length < memo.size) {
      keys = [...memo.keys()];
      outcomes = await Promise.allSettled(memo.values());
    }
    const answers: Record<string, RecordedAnswer> = {};
    // Each answer read from the outcomes already settled, not awaited again.
    for (let index = 0; index < keys.length; index += 1) {
      const outcome = outcomes[index] as PromiseSettledResult<Exchange>;
      answers[keys[index] as string] =
        outcome.status === 'fulfilled' ? { exchange: outcome.value } : { failure: asFailure(outcome.reason) };
    }
    return { traffic: this.traffic, tlsCertificates: this.tlsCertificates, answers };
  }

  async close(): Promise<void> {
    await (await this.wire.connecting)?.close();
  }

  /** Whether the run asks this request: any, while recording; when judging, one the recording holds. */
  sends(request: StatusRequest): boolean {
    return this.source.connect !== undefined || this.recordedStatus(request);
  }

  /** Whether a recording judged on its own holds this request: there, what was sent decides what can be judged. */
  recordedStatus(request: StatusRequest): boolean {
    const { id, lang, credentials = 'valid', frontController } = request;
    // The credential forms of this view's own status are asked again by every scenario that sends them.
    if (id !== undefined || lang !== undefined || frontController) return this.holds(request);
    let held = this.holdsOwnStatus.get(credentials);
    if (held === undefined) {
      held = this.holds(request);
      this.holdsOwnStatus.set(credentials, held);
    }
    return held;
  }

  private holds(request: StatusRequest): boolean {
    return this.recording?.answers[statusKey(request, this.statusId)] !== undefined;
  }

  private once(path: string, query: Record<string, string>, credentials: CredentialVariant): Promise<Exchange> {
    const key = exchangeKey(path, query, credentials);
    let pending = this.wire.memo.get(key);
    if (!pending) {
      const answer = this.recording?.answers[key];
      // The key goes with the exchange, so a check names the answer it judged and the report stores each answer once.
      const request = { path, query, credentials, key };
      const { client } = this.wire;
      pending = answer
        ? replay(answer).then((exchange) => ({ ...exchange, key }))
        : client
          ? client.get(request)
          : this.source.connect
            ? this.live().then((started) => started.get(request))
            : Promise.reject(notRecorded(path, query, credentials));
      // Scenarios await these later; an early rejection must not count as unhandled meanwhile.
      pending.catch(() => undefined);
      this.wire.memo.set(key, pending);
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
    const { wire } = this;
    wire.connecting ??= connect().then((client) => (wire.client = client));
    return wire.connecting;
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
