import type { Config } from '../config/settings.js';
import { HarnessError } from '../errors.js';
import { variantLabel, type CredentialVariant } from '../exchange/credentials.js';
import type { Exchange } from '../exchange/exchange.js';
import { HttpClient } from '../http/client.js';
import { suiteVersion } from '../version.js';
import type { ObservedAnswer, StackObservations } from '../diagnosis/answers.js';

const MAX_BODY_BYTES = 256 * 1024;

export interface Probe {
  name: keyof StackObservations;
  path: string;
  credentials: CredentialVariant;
  /** What a healthy deployment answers; the front-controller probes only inform. */
  expect?: 'served' | 'refused';
}

export interface ProbeResult {
  probe: Probe;
  label: string;
  answer?: ObservedAnswer;
  error?: HarnessError;
}

/** The doctor's whole set of requests: five GETs of one status, through the rewritten path and through index.php. */
export function probesFor(statusId: number): Probe[] {
  const api = `/api/ticket/status/${statusId}`;
  return [
    { name: 'valid', path: api, credentials: 'valid', expect: 'served' },
    { name: 'noHeader', path: api, credentials: 'no-header', expect: 'refused' },
    { name: 'wrongToken', path: api, credentials: 'wrong-token', expect: 'refused' },
    { name: 'frontController', path: `/index.php${api}`, credentials: 'valid' },
    { name: 'frontControllerNoHeader', path: `/index.php${api}`, credentials: 'no-header' },
  ];
}

function observed(exchange: Exchange): ObservedAnswer {
  const { request, response } = exchange;
  return { url: request.url, status: response.status, headers: response.headers, body: response.bodyText };
}

/** Sends every probe at once; an answer that did not arrive is kept as its coded error. */
export async function probeStack(config: Config & { baseUrl: string; token: string }): Promise<ProbeResult[]> {
  const client = new HttpClient({
    baseUrl: config.baseUrl,
    token: config.token,
    password: config.password,
    timeoutMs: config.timeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
    maxRequests: config.maxRequests,
    userAgent: `ticketing-conformance-doctor/${suiteVersion}`,
    deadlineAt: Date.now() + config.deadlineMs,
  });
  try {
    return await Promise.all(
      probesFor(config.statusId).map(async (probe): Promise<ProbeResult> => {
        const label = variantLabel(probe.credentials);
        try {
          return { probe, label, answer: observed(await client.get({ path: probe.path, credentials: probe.credentials })) };
        } catch (error) {
          if (!(error instanceof HarnessError)) throw error;
          return { probe, label, error };
        }
      }),
    );
  } finally {
    await client.close();
  }
}

export function observationsOf(results: ProbeResult[]): StackObservations {
  return Object.fromEntries(results.filter((result) => result.answer).map((result) => [result.probe.name, result.answer]));
}
