import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bodyIsJson, envelopeField } from '../src/judge/checks/envelope.js';
import { accepted, refused } from '../src/judge/checks/auth.js';
import { formatSchemaErrors, validator } from '../src/validators/schemas.js';
import { statusField, statusIdIs, translationField, translationsBelongToStatus, type StatusField } from '../src/judge/checks/status.js';
import type { Exchange } from '../src/exchange/exchange.js';
import { classifyExchange } from '../src/classify/classify.js';
import { repoRoot } from './helpers/run-cli.js';

const fixturePath = join(repoRoot, '..', 'shared', 'fixtures', 'status-with-translation.json');
const productionBody = readFileSync(fixturePath, 'utf8');

function exchange(status: number, bodyText: string, contentType = 'application/json'): Exchange {
  let json: Exchange['response']['json'];
  try {
    json = { ok: true, value: JSON.parse(bodyText) as unknown };
  } catch (error) {
    json = { ok: false, error: String(error) };
  }
  return {
    request: {
      method: 'GET',
      url: 'https://help.example.com/api/ticket/status/1',
      path: '/api/ticket/status/1',
      credentials: 'valid',
      headers: {},
      curl: '',
    },
    response: {
      status,
      headers: { 'content-type': contentType },
      bodyText,
      bodyTruncated: false,
      bytes: bodyText.length,
      json,
      durationMs: 1,
    },
  };
}

describe('a production server answer raises no false failure', () => {
  const answer = exchange(200, productionBody);
  test('it validates against the published ticket-status envelope schema', () => {
    const validate = validator('ticket-status-envelope');
    expect(validate(JSON.parse(productionBody)), formatSchemaErrors(validate.errors)).toBe(true);
  });
  test('every envelope, status and translation check passes', () => {
    const outcomes = [
      bodyIsJson(answer),
      ...(['status', 'message', 'data'] as const).map((field) => envelopeField(answer, field, field)),
      ...(['id', 'name', 'colour', 'auto_close', 'order', 'created_at', 'updated_at', 'translations'] as StatusField[]).map((field) =>
        statusField(answer, field),
      ),
      statusIdIs(answer, 1),
      ...(['status_id', 'name', 'locale'] as const).map((field) => translationField(answer, field)),
      translationsBelongToStatus(answer, 1),
      accepted(answer, classifyExchange(answer), 'accepted'),
    ];
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
  });
  test('production error answers count as refusals', () => {
    const wrongToken = exchange(401, '{"status":"error","message":"Invalid authentication credentials.","data":[]}');
    const malformed = exchange(
      401,
      '{"status":"error","message":"Failed to authenticate because of bad credentials or an invalid authorization header.","data":[]}',
    );
    expect(refused(wrongToken, classifyExchange(wrongToken), 'wrong token').ok).toBe(true);
    expect(refused(malformed, classifyExchange(malformed), 'malformed').ok).toBe(true);
    expect(validator('error')(JSON.parse(wrongToken.response.bodyText))).toBe(true);
  });
});

describe('the checks bite on their own', () => {
  const withData = (changes: Record<string, unknown>): Exchange => {
    const body = JSON.parse(productionBody) as { data: Record<string, unknown> };
    return exchange(200, JSON.stringify({ ...body, data: { ...body.data, ...changes } }));
  };
  test.each([
    ['colour', '#35A60'],
    ['colour', '35a600'],
    ['id', '1'],
    ['auto_close', true],
    ['order', 1.5],
    ['created_at', '2017-02-10'],
    ['name', 7],
    ['translations', {}],
  ] as [StatusField, unknown][])('data.%s = %j fails', (field, value) => {
    expect(statusField(withData({ [field]: value }), field).ok).toBe(false);
  });
  test('a 200 carrying an error envelope is not an acceptance', () => {
    const refusal = exchange(200, '{"status":"error","message":"Invalid authentication credentials.","data":{}}');
    expect(accepted(refusal, classifyExchange(refusal), 'x').ok).toBe(false);
  });
  test('an HTML page is not JSON', () => {
    expect(bodyIsJson(exchange(200, '<!DOCTYPE html><p>hi</p>', 'text/html')).ok).toBe(false);
  });
});
