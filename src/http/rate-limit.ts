import { setTimeout as sleep } from 'node:timers/promises';
import { HarnessError } from '../errors.js';

/** Longest the suite pauses in one run for HTTP 429 answers, all of them together. */
export const RATE_LIMIT_WAIT_CAP_MS = 5000;
export const MAX_RETRIES_PER_REQUEST = 3;
/** The pause when a 429 names none. */
const DEFAULT_RETRY_AFTER_MS = 1000;

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A 429 pauses every request of the client, not just the one refused, so the target gets the quiet it asked for.
 * The total pause of a run is capped; past the cap the 429 is reported instead of waited out.
 */
export class RateLimitPause {
  private until = 0;
  private waited = 0;
  private answers = 0;

  constructor(private readonly capMs = RATE_LIMIT_WAIT_CAP_MS) {}

  get waitedMs(): number {
    return this.waited;
  }

  get rateLimitedAnswers(): number {
    return this.answers;
  }

  /** Records a 429 and says whether to send the request again after the pause. */
  onTooManyRequests(retryAfter: string | undefined, retriesSoFar: number): boolean {
    this.answers += 1;
    const askedMs = retryAfterMs(retryAfter) ?? DEFAULT_RETRY_AFTER_MS;
    if (retriesSoFar >= MAX_RETRIES_PER_REQUEST) return false;
    const now = Date.now();
    const extension = Math.max(0, now + askedMs - Math.max(now, this.until));
    if (this.waited + extension > this.capMs) return false;
    this.waited += extension;
    this.until = Math.max(this.until, now + askedMs);
    return true;
  }

  async wait(signal?: AbortSignal): Promise<void> {
    const remaining = this.until - Date.now();
    if (remaining > 0) await sleep(remaining, undefined, { signal });
  }
}

export function rateLimitedError(path: string, retries: number, retryAfter: string | undefined): HarnessError {
  return new HarnessError(
    'HARNESS_RATE_LIMITED',
    `GET ${path} was still answered HTTP 429 (Too Many Requests) after ${retries} retries (Retry-After: ${retryAfter ?? 'none'}); the suite retries a request at most ${MAX_RETRIES_PER_REQUEST} times and waits at most ${RATE_LIMIT_WAIT_CAP_MS} ms in a run`,
    'The target limits how fast this client may ask: run again later, raise its limit for this client, or lower --concurrency',
    'environment',
  );
}
