import type { JudgedExchange } from '../judge/scenario-result.js';
import type { Diagnosis, JudgedRequirement } from './types.js';

/**
 * Answers to a valid request that say nothing about the credentials: a redirect, a server error, a body that is not JSON.
 * Named before any credential diagnosis, which would otherwise read them as a refused or stripped token.
 */
export function diagnoseAnswer(results: JudgedRequirement[], valid: JudgedExchange): Diagnosis | undefined {
  const { response } = valid;
  const request = `GET ${valid.request.url}`;
  const location = response.headers.location;
  if (response.status >= 300 && response.status < 400 && location !== undefined) {
    return {
      id: 'api-redirects',
      party: 'environment',
      confidence: 'medium',
      summary: `the API paths answer with a redirect (HTTP ${response.status} to ${location}), which the suite records and never follows`,
      evidence: `${request} answered HTTP ${response.status} with Location: ${location}`,
      advice: [
        'If the redirect names the same service (http:// to https://, or another path prefix), pass that address as --base-url.',
        'A redirect to a login or front-end page means requests do not reach the API: check the web server rules for /api/.',
      ],
    };
  }
  if (response.status >= 500) {
    return {
      id: 'server-error',
      party: 'target',
      confidence: 'high',
      summary: `the API answers a valid request with HTTP ${response.status}, a server error: the application fails before it can be judged`,
      evidence: `${request} answered HTTP ${response.status} ${response.body.slice(0, 160)}`,
      advice: ["Read the application's and the web server's error logs at the time of this run."],
    };
  }
  const notJson = results
    .find((result) => result.id === 'ENV-JSON')
    ?.checks.find((check) => check.verdict === 'fail' && check.exchange !== undefined);
  if (response.status >= 200 && response.status < 300 && notJson) {
    return {
      id: 'answers-not-json',
      party: 'target',
      confidence: 'high',
      summary: 'the API answers HTTP 2xx with a body the suite cannot read as JSON',
      evidence: notJson.actual ?? '',
      advice: ['Serve the resource as UTF-8 JSON, as the document says ("Responses are JSON").'],
    };
  }
  return undefined;
}
