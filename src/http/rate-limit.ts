import { setTimeout as sleep } from 'node:timers/promises';
import type { Rate } from '../config/values.js';
import { HarnessError } from '../errors.js';

export const MAX_RETRIES_PER_REQUEST = 3;
/** The longest a client without a deadline waits for Retry-After in all, since it has no deadline to stop it. */
export const WAIT_CAP_WITHOUT_DEADLINE_MS = 60_000;
/** The pause when a 429 names none. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long an answer asks the client to wait before asking again, or undefined when it asks nothing: a 429 always
 * asks (1 s when it names no time), a 503 only with a Retry-After it can be read by (a maintenance window, a throttle).
 */
export function askedWaitMs(status: number, retryAfter: string | undefined, now = Date.now()): number | undefined {
  if (status === 429) return retryAfterMs(retryAfter, now) ?? DEFAULT_RETRY_AFTER_MS;
  return status === 503 ? retryAfterMs(retryAfter, now) : undefined;
}

/** What to do with an answer that asks the client to wait: wait and send it again, keep the answer, or give up on the cap. */
export type WaitDecision = 'retry' | 'keep-answer' | 'beyond-cap';

/**
 * An answer that asks to wait pauses every request of the client, not just the one refused, so the target gets the
 * quiet it asked for. Waits end before the run's deadline: one that would not is not begun.
 */
export class RetryAfterPause {
  private until = 0;
  private waited = 0;
  private answers = 0;
  private unavailableLasts = false;

  /** `waitUntil`: epoch milliseconds no wait may reach (the run's deadline). */
  constructor(private readonly waitUntil: number) {}

  get waitedMs(): number {
    return this.waited;
  }

  /** Answers met that asked the client to wait. */
  get rateLimitedAnswers(): number {
    return this.answers;
  }

  /**
   * Records an answer asking to wait `askedMs` and says whether to send the request again after the pause: not past
   * the retries a request gets, nor when the request budget has nothing left to send it with.
   */
  onAskedToWait(askedMs: number, retriesSoFar: number, budgetLeft: boolean, now = Date.now()): WaitDecision {
    this.answers += 1;
    if (retriesSoFar >= MAX_RETRIES_PER_REQUEST || !budgetLeft) return 'keep-answer';
    const resumeAt = Math.max(this.until, now + askedMs);
    if (resumeAt >= this.waitUntil) return 'beyond-cap';
    this.waited += resumeAt - Math.max(now, this.until);
    this.until = resumeAt;
    return 'retry';
  }

  /**
   * Whether a 503 is kept as it is rather than waited on: once one came back after its wait, the service is down (a
   * backend behind Varnish, whose error page always asks for Retry-After: 5), not in a window that ends; from then on
   * every 503 is kept, so a lasting failure costs one wait, and its answers are recorded for the classification.
   */
  keepsUnavailable(retriesSoFar: number): boolean {
    if (retriesSoFar > 0) this.unavailableLasts = true;
    return this.unavailableLasts;
  }

  /** The pause still to wait, or undefined when there is none: most requests have nothing to await. */
  wait(signal?: AbortSignal): Promise<void> | undefined {
    const remaining = this.until - Date.now();
    return remaining > 0 ? sleep(remaining, undefined, { signal }) : undefined;
  }
}

/**
 * Sends the requests to a target one at a time, spaced evenly, as --rate-limit asks: each goes out one interval
 * after the one before it went out, and once that one is answered, so neither a pause of the whole process nor a slow
 * answer ever lets two through together. One pacer serves every pass over a target, so a --repeat pass keeps the
 * pace of the one before.
 */
export class Pacer {
  private lastSent = Number.NEGATIVE_INFINITY;
  private turn: Promise<void> = Promise.resolve();

  constructor(readonly rate: Rate) {}

  /**
   * Sends `request` in its turn; a turn at or past `waitUntil` (epoch milliseconds: the run's deadline, which `cap`
   * names) is refused at once, not waited for.
   */
  inTurn<T>(path: string, waitUntil: number, cap: string, request: (sentAt: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const mine = this.turn.then(async () => {
      const at = this.lastSent + this.rate.intervalMs;
      if (at >= waitUntil) throw paceBeyondCap(path, this.rate, cap);
      // A timer may fire a millisecond before the clock reaches its time: waited for until it has.
      for (let wait = at - Date.now(); wait > 0; wait = at - Date.now()) await sleep(wait, undefined, { signal });
      this.lastSent = Date.now();
      return request(this.lastSent);
    });
    this.turn = mine.then(
      () => undefined,
      () => undefined,
    );
    return mine;
  }
}

/** The cap a client's waits end at, as its messages name it. */
export function waitCapName(hasDeadline: boolean): string {
  return hasDeadline ? "the run's deadline (--deadline-ms)" : `the suite's cap of ${WAIT_CAP_WITHOUT_DEADLINE_MS / 1000} s on waiting`;
}

export function waitBeyondCap(path: string, status: number, retryAfter: string | undefined, cap: string, leftMs: number): HarnessError {
  return new HarnessError(
    'HARNESS_RATE_LIMITED',
    `GET ${path} was answered HTTP ${status} with Retry-After: ${retryAfter ?? 'none'}, a wait that ends past ${cap}, ${Math.max(0, Math.floor(leftMs / 1000))} s away: the suite does not begin a wait it cannot finish`,
    'The target limits how fast this client may ask: slow the suite down with --rate-limit (e.g. 2/s) so it is not refused, raise --deadline-ms above the wait it asks for, or run again later',
    'environment',
  );
}

function paceBeyondCap(path: string, rate: Rate, cap: string): HarnessError {
  return new HarnessError(
    'HARNESS_DEADLINE',
    `--rate-limit ${rate.text} spaces requests ${rate.intervalMs} ms apart, so GET ${path} would go out past ${cap}: it was not sent`,
    'Raise --deadline-ms to fit every request of the run at this rate, or allow a faster --rate-limit',
    'environment',
  );
}
