import { util, type Dispatcher } from 'undici';
import { HarnessError } from '../errors.js';
import type { BodyBudget } from './body-budget.js';

export interface BodyLimits {
  budget: BodyBudget;
  /** Time the whole body may take once the headers are in: a slow drip is cut as surely as a stall. */
  timeoutMs: number;
}

/** Response headers as undici's request() gives them: names in lower case, a repeated header's values in an array. */
type AnswerHeaders = Record<string, string | string[]>;

export interface Answer {
  statusCode: number;
  headers: AnswerHeaders;
  body: Buffer;
}

export interface AnswerRequest {
  origin: string;
  /** The path and query, as they go on the request line. */
  path: string;
  headers: Record<string, string>;
  /** Ends the request, whatever it is waiting for, with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Told the headers as they arrive, before any of the body is read: whatever it throws ends the request and its
   * connection, and is what the answer fails with.
   */
  onHeaders?(headers: AnswerHeaders): void;
}

function tooLarge(path: string, detail: string): HarnessError {
  return new HarnessError(
    'HARNESS_BODY_TOO_LARGE',
    `the response to GET ${path} ${detail}`,
    'The target sent more than a ticket status can need; check what it serves at that path',
    'target',
  );
}

/**
 * The handler of one request (undici's callbacks): the headers, then the body within the target's byte budget and a
 * time limit. What onHeaders or onData throws, undici ends the request with and tells onError.
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  private readonly chunks: Buffer[] = [];
  private statusCode = 0;
  private headers: AnswerHeaders = {};
  private total = 0;
  private reserved = 0;
  private settled = false;
  private timer?: NodeJS.Timeout;
  private abortRequest?: (reason: Error) => void;
  private readonly onAbort = (): void => this.stop(this.request.signal?.reason as Error);

  constructor(
    private readonly request: AnswerRequest,
    private readonly limits: BodyLimits,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: Error) => void,
  ) {
    request.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.settled) abort(new Error('the request was already ended'));
    else this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // An informational answer (100 Continue) comes before the real one.
    if (statusCode < 200) return true;
    const { request, limits } = this;
    this.statusCode = statusCode;
    // Parsed as request() parses them: names in lower case, a header named __proto__ kept as a header.
    this.headers = util.parseHeaders(rawHeaders);
    request.onHeaders?.(this.headers);
    const declared = this.headers['content-length'];
    const limit = limits.budget.limit();
    if (typeof declared === 'string' && Number(declared) > limit) {
      throw tooLarge(request.path, `declares ${declared} bytes, more than the ${limit} the suite reads`);
    }
    this.timer = setTimeout(() => {
      this.stop(
        new HarnessError(
          'HARNESS_TIMEOUT',
          `GET ${request.path} timed out after ${limits.timeoutMs} ms reading the body (${this.total} bytes received; body time-out)`,
          'The target sent its headers, then stalled or trickled the body: check the application and anything in front of it, or raise --timeout-ms',
          'environment',
        ),
      );
    }, limits.timeoutMs);
    return true;
  }

  onData(chunk: Buffer): boolean {
    const { budget } = this.limits;
    const limit = budget.limit(this.reserved);
    this.total += chunk.byteLength;
    const grown = budget.grow(this.total, this.reserved);
    if (grown === undefined) {
      budget.cut();
      throw tooLarge(this.request.path, `is larger than ${limit} bytes, the most the suite reads of it`);
    }
    this.reserved = grown;
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.settle();
  }

  onError(error: Error): void {
    this.settle(error);
  }

  /** Ends the request and its connection, the answer failing with the reason. */
  private stop(reason: Error): void {
    this.settle(reason);
    this.abortRequest?.(reason);
  }

  private settle(error?: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.limits.budget.release(this.reserved);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    if (error !== undefined) {
      this.reject(error);
      return;
    }
    const { chunks, total, statusCode, headers } = this;
    // Most bodies come in one chunk, which needs no copy.
    this.resolve({ statusCode, headers, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total) });
  }
}

/**
 * One GET and its whole answer; the connection is dropped as soon as the body passes the budget or the time limit.
 * Received through undici's handler callbacks, not request(): a stream and its events for each body cost more than
 * the body itself, most of which comes in one chunk.
 */
export function fetchAnswer(dispatcher: Dispatcher, request: AnswerRequest, limits: BodyLimits): Promise<Answer> {
  const { signal } = request;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<Answer>((resolve, reject) => {
    const reader = new AnswerReader(request, limits, resolve, reject);
    dispatcher.dispatch({ origin: request.origin, path: request.path, method: 'GET', headers: request.headers }, reader);
  });
}
