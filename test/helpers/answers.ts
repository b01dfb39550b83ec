import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyText, parseJson } from '../../src/exchange/body-text.js';
import type { Exchange } from '../../src/exchange/exchange.js';
import type { RecordingFile } from '../../src/record/recording-file.js';
import { repoRoot } from './run-cli.js';

export type KeptRecording = 'reference' | 'colour-missing' | 'authorization-stripped';

const kept = new Map<KeptRecording, Map<string, Exchange>>();

/** The answers of a recording kept under test/fixtures/recordings, by request key ("valid /api/ticket/status/1?"). */
function answersOf(recording: KeptRecording): Map<string, Exchange> {
  let answers = kept.get(recording);
  if (!answers) {
    const path = join(repoRoot, 'test', 'fixtures', 'recordings', `${recording}.recording.json`);
    const file = JSON.parse(readFileSync(path, 'utf8')) as RecordingFile;
    answers = new Map();
    for (const entry of file.runs[0]?.exchanges ?? []) {
      if ('response' in entry) answers.set(entry.key, { request: entry.request, response: entry.response });
    }
    kept.set(recording, answers);
  }
  return answers;
}

/** One request and the answer a server really gave it, as the checks receive it during a run. */
export function recordedAnswer(key: string, recording: KeptRecording = 'reference'): Exchange {
  const exchange = answersOf(recording).get(key);
  if (!exchange) throw new Error(`${recording}.recording.json has no answer to ${key}`);
  return exchange;
}

/** The same request answered otherwise; the body is read and parsed as the HTTP client reads it. */
export function answeredWith(exchange: Exchange, changes: { status?: number; body?: string; headers?: Record<string, string> }): Exchange {
  const text = changes.body ?? exchange.response.bodyText;
  return {
    request: exchange.request,
    response: {
      ...exchange.response,
      status: changes.status ?? exchange.response.status,
      headers: changes.headers ?? exchange.response.headers,
      bodyText: text,
      bytes: Buffer.byteLength(text),
      json: parseJson(bodyText(Buffer.from(text))),
    },
  };
}

/** The body of an answer as an object, to change one field of it. */
export function bodyOf(exchange: Exchange): { status: unknown; message: unknown; data: Record<string, unknown> } {
  return JSON.parse(exchange.response.bodyText) as { status: unknown; message: unknown; data: Record<string, unknown> };
}
