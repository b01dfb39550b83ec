import type { RecordedCheck } from '../harness/scenario-result.js';
import { diagnoseAnswer } from './diagnose-answers.js';
import type { Diagnosis, RequirementResult } from './types.js';

const APACHE_ADVICE = [
  'Enable mod_rewrite: a2enmod rewrite (or LoadModule rewrite_module modules/mod_rewrite.so).',
  'Let the application\'s .htaccess work: in the <Directory> of the document root set "AllowOverride All".',
  'Run PHP through PHP-FPM (proxy_fcgi) or SuPHP, not the CGI handler.',
  'If the .htaccess cannot be used, copy the header yourself: RewriteEngine On / RewriteCond %{HTTP:Authorization} . / RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}] (or CGIPassAuth On on Apache 2.4.13+).',
  'Other web servers: follow their documentation for passing the Authorization header to the application (nginx: fastcgi_param HTTP_AUTHORIZATION $http_authorization;).',
];

function firstAnswer(results: RequirementResult[], id: string): RecordedCheck | undefined {
  return results.find((candidate) => candidate.id === id)?.checks.find((check) => check.response);
}

function sameAnswer(a: RecordedCheck | undefined, b: RecordedCheck | undefined): boolean {
  return !!a?.response && !!b?.response && a.response.status === b.response.status && a.response.body === b.response.body;
}

/** Names the most likely cause of what failed, from what was observed over HTTP alone. */
export function diagnose(results: RequirementResult[]): Diagnosis[] {
  const diagnoses: Diagnosis[] = [];
  const verdictOf = (id: string): string | undefined => results.find((result) => result.id === id)?.verdict;
  const valid = firstAnswer(results, 'AUTH-TOKEN-ACCEPTED');
  const noHeader = firstAnswer(results, 'AUTH-MISSING-HEADER-REFUSED');

  if (verdictOf('AUTH-TOKEN-ACCEPTED') === 'fail' && valid?.response) {
    const html = (valid.response.headers['content-type'] ?? '').includes('html');
    const unusualAnswer = diagnoseAnswer(results, valid);
    if (html && valid.response.status >= 200 && valid.response.status < 300) {
      diagnoses.push({
        id: 'api-path-serves-html',
        party: 'environment',
        confidence: 'medium',
        summary: 'the API paths answer an HTML page: requests are not reaching the API application',
        evidence: `GET ${valid.request?.url ?? ''} answered HTTP ${valid.response.status} with ${valid.response.headers['content-type'] ?? ''}`,
        advice: [
          'Check that --base-url points at the API (the folder holding the application, e.g. https://help.example.com or https://example.com/support).',
          "Check the web server's rewrite rules: a catch-all for a front end must not take /api/ paths.",
        ],
      });
    } else if (unusualAnswer) {
      diagnoses.push(unusualAnswer);
    } else if (sameAnswer(valid, noHeader)) {
      diagnoses.push({
        id: 'authorization-header-stripped',
        party: 'environment',
        confidence: 'high',
        summary:
          'the valid token was rejected exactly like no token at all: your web server is most likely stripping the Authorization header before the application sees it',
        evidence: `with the token and with no Authorization header, the answer was the same: HTTP ${valid.response.status} ${valid.response.body.slice(0, 160)}`,
        advice: APACHE_ADVICE,
      });
    } else if (valid.response.status >= 400) {
      diagnoses.push({
        id: 'token-refused',
        party: 'target',
        confidence: 'medium',
        summary: 'the token reached the application but was refused: check that the token is correct, active and allowed to use the API',
        evidence: `the answer with the token (HTTP ${valid.response.status}) differs from the answer with no header (HTTP ${noHeader?.response?.status ?? '?'})`,
        advice: ["Create or copy the API token again in the help desk's settings and pass it with --token or CONFORMANCE_TOKEN."],
      });
    }
  }

  // The deadline and rate limits are not a failure to reach the target; their own errors say what happened.
  const transportErrors = results
    .flatMap((result) => result.checks)
    .filter(
      (check) =>
        check.error?.party === 'environment' && check.error.code !== 'HARNESS_DEADLINE' && check.error.code !== 'HARNESS_RATE_LIMITED',
    );
  const firstError = transportErrors[0]?.error;
  if (firstError) {
    diagnoses.push({
      id: 'target-not-reachable',
      party: 'environment',
      confidence: 'high',
      summary: `the suite could not talk to the target (${firstError.code}): no verdict can be given on what failed to arrive`,
      evidence: firstError.message,
      advice: [firstError.hint],
    });
  }
  return diagnoses;
}
