import { NEAR_MISS_VARIANTS, type CredentialVariant } from '../exchange/credentials.js';
import { exchangeKey, SELFSERVICE_PATH, type Exchange } from '../exchange/exchange.js';
import { FIRST_STATUS_ID, slicesOf, statusPathOf, UNKNOWN_STATUS_ID, type StatusRequest, type Target } from './target.js';

/** What a recording sends: every request of the plan, through the target, which keeps each answer. */
export type Plan = (target: Target, onFirstRoundSent?: () => void) => Promise<void>;

export const PASSWORD_VARIANTS: CredentialVariant[] = ['password-letter', 'password-empty', 'password-long', 'password-colon'];
export const INVALID_HEADER_VARIANTS: CredentialVariant[] = ['bearer-scheme', 'bad-base64', 'no-colon', 'empty-credentials'];
/** The token anywhere but in the user name: as the password under another user name, or under none. */
export const TOKEN_AS_PASSWORD_VARIANTS: CredentialVariant[] = ['token-as-password', 'token-as-password-empty-user'];
/** Wrong tokens and missing credentials, each of which must be refused. */
const REFUSED_VARIANTS: CredentialVariant[] = ['wrong-token', 'no-header', ...TOKEN_AS_PASSWORD_VARIANTS, ...INVALID_HEADER_VARIANTS];

/** What --profile official-client adds: the configured status asked for as the vendor's PHP client asks (getStatus). */
export const OFFICIAL_CLIENT_REQUEST: StatusRequest = { credentials: 'official-client' };

/**
 * What every status of --status-id is asked besides the valid token: a wrong token and no header, whose refusals there
 * tell a header lost on the way to that status from a token refused it.
 */
const STATUS_REFUSAL_VARIANTS: CredentialVariant[] = ['wrong-token', 'no-header'];

/** The status requests that need no earlier answer: the view's status, the first, an unknown one, every credential probe. */
function independentStatusRequests(target: Target): StatusRequest[] {
  return [
    {},
    { id: FIRST_STATUS_ID },
    { id: UNKNOWN_STATUS_ID },
    ...[...PASSWORD_VARIANTS, ...REFUSED_VARIANTS, ...nearMissesOf(target)].map((credentials) => ({ credentials })),
  ];
}

/**
 * The requests of the run's profile, apart from the document's: only the profile's checks judge their answers, so
 * --profile leaves the document's verdicts as they are without it.
 */
function profileRequests(target: Target): StatusRequest[] {
  return target.settings.profile === 'official-client' ? [OFFICIAL_CLIENT_REQUEST] : [];
}

/**
 * The near-miss tokens a run tries: when recording, those the token allows (the case probe needs a letter); when
 * judging, which knows no token, those the recording holds.
 */
export function nearMissesOf(target: Target): CredentialVariant[] {
  return target.nearMisses ?? NEAR_MISS_VARIANTS.filter((credentials) => target.recordedStatus({ credentials }));
}

/**
 * The variants of the view's status the run asked for: every one while recording; when judging, those the recording
 * holds, so that a recording made before the suite sent one is judged without it rather than not at all.
 */
export function sentVariants(view: Target, variants: readonly CredentialVariant[]): CredentialVariant[] {
  return variants.filter((credentials) => view.sends({ credentials }));
}

const SELFSERVICE_VARIANTS: CredentialVariant[] = ['valid', 'no-header', 'wrong-token'];

/** The lang requests of the view's status, which need the locales its plain answer names: each language, and one it lacks. */
export async function langRequests(target: Target): Promise<StatusRequest[]> {
  const translations = await target.translatedLocales();
  const missing = await target.missingLocale();
  return [...translations.map((translation) => String(translation.locale)), missing].flatMap((lang) =>
    lang === undefined ? [] : [{ lang }],
  );
}

/**
 * The requests for the view's own status that need no earlier answer: for the run's first status every one above, for
 * the others the valid token and the refusals each status is asked.
 */
export function ownStatusRequests(view: Target): StatusRequest[] {
  if (view.readsFirstStatus) return independentStatusRequests(view);
  return [{}, ...sentVariants(view, STATUS_REFUSAL_VARIANTS).map((credentials) => ({ credentials }))];
}

/** The target seen for each status of --status-id, the run's own first. */
function statusViews(target: Target): Target[] {
  return slicesOf(target.settings, 'status').map((slice) => target.forSlice(slice));
}

/**
 * Resolves once `count` of the promises have settled: as many answers in, as many kept-alive connections free.
 */
function settledCount(promises: readonly Promise<unknown>[]): (count: number) => Promise<void> {
  let settled = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const wake = (): void => {
    for (const waiter of waiting.filter(({ count }) => settled >= count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  for (const promise of promises) {
    void promise
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        settled += 1;
        wake();
      });
  }
  return (count) =>
    settled >= count || count > promises.length ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }));
}

/**
 * Sends every request the specs will ask for, so the critical path is three round trips:
 * everything that needs no earlier answer at once, every status of --status-id first (a connection each, up to the
 * connection limit: two round trips), then, over those connections as they come free, what the limit held back and the
 * lang requests of every status, which need the locales its plain answer names.
 * Settles when every answer is in; onFirstRoundSent is told once the requests of the first round have gone out.
 */
export async function prefetch(target: Target, onFirstRoundSent?: () => void): Promise<void> {
  // The same request asked twice (the first status is often the configured one) is one promise, sent once. Each status
  // of --status-id goes first, within the connection limit: its lang requests wait for its answer. The other statuses'
  // refusals go last, as nothing waits on them.
  const views = statusViews(target);
  const independent = [
    ...new Set([
      ...views.map((view) => view.status()),
      ...[...independentStatusRequests(target), ...profileRequests(target)].map((request) => target.status(request)),
      ...SELFSERVICE_VARIANTS.map((credentials) => target.selfservice(credentials)),
      ...views.flatMap((view) => ownStatusRequests(view).map((request) => view.status(request))),
      // The requests the hosting-stack rules read, the front-controller pair among them, as the doctor sends them.
      ...STACK_REQUESTS.map((request) => sendStackRequest(target, request)),
    ]),
  ];
  // Requests go out in the same turn as the client is ready; one more turn and they are on their way.
  // A client that cannot start fails every request, which the recording reports; the caller need wait no longer.
  void target.ready().then(
    () => setImmediate(() => onFirstRoundSent?.()),
    () => onFirstRoundSent?.(),
  );
  const answered = settledCount(independent.slice(0, target.settings.concurrency));
  let claimed = 0;
  // Each status' lang requests go as soon as its own answer names its locales and as many first-round answers are in
  // as they need connections: each of those left a kept-alive connection free, so none of them pays for a new one.
  // Waiting for the whole first round instead would put its slowest answer on the critical path.
  const dependent = Promise.allSettled(
    views.map(async (view) => {
      const requests = await langRequests(view);
      claimed += requests.length;
      await answered(claimed);
      // One turn of the event loop for the client to take the connection back.
      await new Promise((resolve) => setImmediate(resolve));
      return Promise.allSettled(requests.map((request) => view.status(request)));
    }),
  );
  await Promise.allSettled([...independent, dependent]);
}

/** The requests the hosting-stack rules read, named as the rules name their answers. */
export type StackRequestName =
  | 'valid'
  | 'noHeader'
  | 'wrongToken'
  | 'invalidHeader'
  | 'frontController'
  | 'frontControllerNoHeader'
  | 'selfservice'
  | 'selfserviceNoHeader'
  | 'firstStatus'
  | 'unknownStatus'
  | 'tokenAsPassword'
  | 'bearerScheme'
  | 'noColon';

export interface StackRequest extends StatusRequest {
  name: StackRequestName;
  credentials: CredentialVariant;
  /** The selfservice listing rather than a status. */
  listing?: boolean;
}

/** The front-controller pair: through /index.php/api/... with the token, and without a header. */
export const FRONT_CONTROLLER_WITH_TOKEN: StatusRequest = { credentials: 'valid', frontController: true };
export const FRONT_CONTROLLER_WITHOUT_HEADER: StatusRequest = { credentials: 'no-header', frontController: true };

/**
 * Every request the hosting-stack rules read: the doctor's whole plan, and part of a run's, so that both name the same
 * cause for the same server. The front-controller pair (/index.php/api/...) reaches the application even where
 * rewriting is broken; the token in other forms than the user name shows whether the header arrives.
 */
export const STACK_REQUESTS: readonly StackRequest[] = [
  { name: 'valid', credentials: 'valid' },
  { name: 'noHeader', credentials: 'no-header' },
  { name: 'wrongToken', credentials: 'wrong-token' },
  { name: 'invalidHeader', credentials: 'bad-base64' },
  { name: 'frontController', credentials: 'valid', ...FRONT_CONTROLLER_WITH_TOKEN },
  { name: 'frontControllerNoHeader', credentials: 'no-header', ...FRONT_CONTROLLER_WITHOUT_HEADER },
  { name: 'selfservice', credentials: 'valid', listing: true },
  { name: 'selfserviceNoHeader', credentials: 'no-header', listing: true },
  { name: 'firstStatus', credentials: 'valid', id: FIRST_STATUS_ID },
  { name: 'unknownStatus', credentials: 'valid', id: UNKNOWN_STATUS_ID },
  { name: 'tokenAsPassword', credentials: 'token-as-password' },
  { name: 'bearerScheme', credentials: 'bearer-scheme' },
  { name: 'noColon', credentials: 'no-colon' },
];

/** Sends one request of the stack rules' plan (once per run, as every request). */
function sendStackRequest(target: Target, request: StackRequest): Promise<Exchange> {
  return request.listing ? target.selfservice(request.credentials) : target.status(request);
}

/** The path one request of the stack rules' plan asks for, the status being the configured one unless it names another. */
export const stackRequestPath = (request: StackRequest, statusId: number): string =>
  request.listing ? SELFSERVICE_PATH : statusPathOf(request, statusId);

/** How a recording names the answer to one request of the stack rules' plan (see exchangeKey). */
export const stackRequestKey = (request: StackRequest, statusId: number): string =>
  exchangeKey(stackRequestPath(request, statusId), {}, request.credentials);

/** The doctor's plan: the stack rules' requests at once, none needs another's answer. */
export async function stackPlan(target: Target): Promise<void> {
  await Promise.allSettled(STACK_REQUESTS.map((request) => sendStackRequest(target, request)));
}
