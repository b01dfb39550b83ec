import { SETTINGS } from '../config/settings.js';
import { checkExchangeHeaders } from '../files/bounded-file.js';
import { fileRefusal, readCheckedFile, type FileKind } from '../files/checked-file.js';
import { fromWrittenChoices, requestChoices, type RequestChoices } from './settings.js';

import { catalog } from '../requirements/catalog.js';
import { apiDocumentHash } from '../requirements/document.js';
import { redactedJson } from '../exchange/credential-fields.js';
import { curlCommand, variantLabel } from '../exchange/credentials.js';
import { REPORTED_BODY_CHARS, type Exchange, type ParsedBody } from '../exchange/exchange.js';
import type { RecordedFailure, Recording } from './recording.js';
import { suiteVersion } from '../version.js';
import type * as RecordingFileTypes from '../validators/types/recording.generated.js';
import { catalogHash, sha256 } from '../hash.js';

const RECORDING_FORMAT = 'ticketing-conformance-recording';
/** Raised when the file's layout changes; a reader refuses a version it does not know rather than guess. */
const RECORDING_VERSION = 1;
/** Judging needs no network; this only bounds a spec that would hang. */
export const JUDGE_TIMEOUT_MS = 60_000;

/**
 * One request of the run, once: what went out and what came back, or why nothing came back (its error code typed by
 * errors.ts, which the schema checks only the form of).
 */
export type RecordingEntry = RecordingFileTypes.Exchange | (Omit<RecordingFileTypes.Unanswered, 'failure'> & { failure: RecordedFailure });

/** One pass over the target (a run with --repeat makes several). */
export type RecordingRun = Omit<RecordingFileTypes.Run, 'exchanges'> & { exchanges: RecordingEntry[] };

/** recording.json: everything a run learned from the target, enough to judge it again without sending a request. */
export type RecordingFile = Omit<RecordingFileTypes.TicketingConformanceRecording, 'runs'> & { runs: RecordingRun[] };

let currentCatalogEntries: RecordingFile['requirements'] | undefined;

/** What the current catalog says of each requirement, hashed, to compare with a recording's: made once, as the catalog. */
export function catalogEntries(): RecordingFile['requirements'] {
  currentCatalogEntries ??= catalog.map((requirement) => ({ id: requirement.id, level: requirement.level, hash: sha256(requirement) }));
  return currentCatalogEntries;
}

/**
 * The options the run was made with, as report.json records them: what judging the answers again needs. Typed by the
 * file format, not by the settings: older files lack deadlineMs, concurrency and insecure, and the CA is kept as its path.
 */
type RecordedOptions = RecordingFile['options'];

export interface RecordingInput {
  suite: RecordingFile['suite'];
  runId?: string;
  target: { baseUrl: string; embeddedReference: boolean };
  options: RecordedOptions;
  startedAt: string;
  finishedAt: string;
  runs: { startedAt: Date; recording: Recording }[];
  /** Removes the token in every form from a text (the run judged the parsed bodies as sent, token included). */
  redact(text: string): string;
}

function recordedEntry(key: string, exchange: Exchange, redact: (text: string) => string): RecordingEntry {
  const { request, response } = exchange;
  const described = { ...request, credentialsDescription: variantLabel(request.credentials) };
  const { json } = response;
  const embedded = json.ok ? undefined : json.embedded;
  const parsed = json.ok ? json.value : embedded?.value;
  if (parsed === undefined) return { key, request: described, response };
  const value = redactedJson(parsed, redact);
  if (value === parsed) return { key, request: described, response };
  const redacted: ParsedBody = json.ok || !embedded ? { ok: true, value } : { ...json, embedded: { ...embedded, value } };
  return { key, request: described, response: { ...response, json: redacted }, tokenRedacted: true };
}

export function recordingFile(input: RecordingInput): RecordingFile {
  const runs = input.runs.map(({ startedAt, recording }) => ({
    startedAt: startedAt.toISOString(),
    traffic: recording.traffic,
    tlsCertificates: recording.tlsCertificates,
    exchanges: Object.entries(recording.answers).map(([key, answer]): RecordingEntry =>
      'failure' in answer ? { key, failure: answer.failure } : recordedEntry(key, answer.exchange, input.redact),
    ),
  }));
  const entries = runs.flatMap((run) => run.exchanges);
  const servers = entries.flatMap((entry) => ('response' in entry && entry.response.headers.server ? [entry.response.headers.server] : []));
  return {
    format: RECORDING_FORMAT,
    formatVersion: RECORDING_VERSION,
    suite: input.suite,
    ...(input.runId === undefined ? {} : { runId: input.runId }),
    integrity: { catalog: catalogHash, apiDocument: apiDocumentHash },
    requirements: catalogEntries(),
    target: {
      ...input.target,
      fingerprint: {
        server: [...new Set(servers)],
        tlsCertificateSha256: [...new Set(runs.flatMap((run) => run.tlsCertificates))],
      },
    },
    options: input.options,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    runs,
  };
}

/** The answers of one run, as the specs read them. */
export function recordingOfRun(run: RecordingRun): Recording {
  const answers: Recording['answers'] = {};
  for (const entry of run.exchanges) {
    if ('failure' in entry) {
      answers[entry.key] = { failure: entry.failure };
    } else {
      const { method, url, path, credentials, headers } = entry.request;
      // Built again, not read: a recording may come from anyone, and its reader may paste the repro into a shell. It
      // does not keep the password, which the API ignores: the repro has the default.
      const curl = curlCommand(credentials, SETTINGS.password.default, url);
      answers[entry.key] = { exchange: { request: { method, url, path, credentials, headers, curl }, response: entry.response } };
    }
  }
  return { traffic: run.traffic, tlsCertificates: run.tlsCertificates, answers };
}

/** What the recorded run asked for: the requests it chose, which the judge reads its answers by. */
export function recordedChoices(file: RecordingFile): RequestChoices {
  const { options } = file;
  return requestChoices({ ...options, ...fromWrittenChoices(options), concurrency: options.concurrency ?? SETTINGS.concurrency.default });
}

const RECORDING: FileKind<RecordingFile> = {
  what: 'the recording',
  code: 'HARNESS_RECORDING_UNREADABLE',
  hint: 'Pass the recording.json a run wrote (in its --out folder, reports/ by default)',
  schema: 'recording',
  invalidHint: 'Pass recording.json as a run wrote it',
  // Its format and version first: a file of another kind or layout is refused for what it is, not by the schema's words.
  prepare(data, refuse) {
    const header = (data ?? {}) as Partial<Pick<RecordingFile, 'format' | 'formatVersion' | 'suite'>>;
    if (typeof data !== 'object' || Array.isArray(data) || header.format !== RECORDING_FORMAT) {
      throw refuse(`is not a recording of ticketing-conformance (it has no "format": "${RECORDING_FORMAT}")`);
    }
    if (header.formatVersion !== RECORDING_VERSION) {
      const newer = typeof header.formatVersion === 'number' && header.formatVersion > RECORDING_VERSION;
      throw refuse(
        `is recording format ${String(header.formatVersion)}, which this suite (${suiteVersion}) does not read: it reads format ${RECORDING_VERSION}`,
        newer
          ? `Judge it with the suite that made it (${header.suite?.version ?? 'a later version'}) or a later one`
          : 'Record the target again with this version of the suite',
      );
    }
    const runs = (data as { runs?: unknown }).runs;
    for (const run of Array.isArray(runs) ? (runs as unknown[]) : []) {
      const exchanges = (run as { exchanges?: unknown } | null)?.exchanges;
      if (Array.isArray(exchanges)) checkExchangeHeaders(exchanges, refuse);
    }
    return data;
  },
};

/** Reads and checks a recording.json; anything else is refused in one line, never judged by guesswork. */
export async function readRecording(path: string): Promise<RecordingFile> {
  const file = readCheckedFile(path, RECORDING);
  // Every view of the report shows each body: one longer than a run keeps would cost the judge memory no run does.
  const entries = file.runs.flatMap((run) => run.exchanges);
  if (entries.some((entry) => 'response' in entry && entry.response.bodyText.length > REPORTED_BODY_CHARS)) {
    throw fileRefusal(path, RECORDING)(`holds a body longer than the ${REPORTED_BODY_CHARS} characters a run keeps`, RECORDING.invalidHint);
  }
  return file;
}
