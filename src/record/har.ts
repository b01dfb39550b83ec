import type { Entry, Har, Header } from 'har-format';
import type { RecordingEntry, RecordingFile } from './recording-file.js';

type Answered = Extract<RecordingEntry, { response: unknown }>;

const pairs = (headers: Record<string, string>): Header[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

/** HTTP status texts are not recorded; the HAR field is required, and an empty text is what browsers write for HTTP/2. */
function harEntry(entry: Answered, fallbackStart: string): Entry {
  const { request, response } = entry;
  const url = new URL(request.url);
  const wait = Math.max(0, response.durationMs);
  return {
    startedDateTime: response.startedAt ?? fallbackStart,
    time: wait,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      headersSize: -1,
      bodySize: 0,
      comment: `credentials: ${request.credentialsDescription}; repro: ${request.curl}`,
    },
    response: {
      status: response.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response.headers),
      content: {
        size: Buffer.byteLength(response.bodyText),
        mimeType: response.headers['content-type'] ?? '',
        text: response.bodyText,
        ...(response.bodyTruncated ? { comment: 'cut short: the suite keeps the first characters of a body' } : {}),
      },
      redirectURL: response.headers.location ?? '',
      headersSize: -1,
      bodySize: response.bytes,
    },
    cache: {},
    // Only the whole span is measured: from sending the request to reading the last byte of the body.
    timings: { send: 0, wait, receive: 0 },
    comment: entry.key,
  };
}

/** The recording's answered exchanges as HAR 1.2, which browser devtools and HAR viewers open. */
export function recordingHar(recording: RecordingFile): Har {
  const answered = recording.runs.flatMap((run) =>
    run.exchanges.flatMap((entry) => ('response' in entry ? [harEntry(entry, run.startedAt)] : [])),
  );
  const unanswered = recording.runs.reduce((count, run) => count + run.exchanges.filter((entry) => 'failure' in entry).length, 0);
  return {
    log: {
      version: '1.2',
      creator: { name: recording.suite.name, version: recording.suite.version },
      entries: answered,
      comment:
        `Requests the suite sent to ${recording.target.baseUrl}; Authorization values and the token are redacted.` +
        (unanswered > 0 ? ` ${unanswered} request(s) got no answer and are listed in recording.json only.` : ''),
    },
  };
}
