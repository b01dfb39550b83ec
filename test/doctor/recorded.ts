import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiPathOf, classifyAnswer } from '../../src/classify/classify.js';
import type { FailedAnswer, ObservedAnswer, StackObservations } from '../../src/diagnosis/answers.js';
import type { NginxSite } from '../lab/configs.js';

/** Answers recorded from the lab's real Apache 2.4, nginx 1.22 and PHP 8.2 (test/lab), as the HTTP client keeps them. */
export const BASE = 'http://127.0.0.1:8080';
const API = '/api/ticket/status/1';

const APACHE = 'Apache/2.4.71 (Debian)';
const JSON_TYPE = 'application/json';
const APACHE_PAGE_TYPE = 'text/html; charset=iso-8859-1';

const apachePage = (status: number, title: string, text: string): string =>
  `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">\n<html><head>\n<title>${status} ${title}</title>\n</head><body>\n<h1>${title}</h1>\n${text}\n</body></html>\n`;

export const APACHE_404_PAGE = apachePage(404, 'Not Found', '<p>The requested URL was not found on this server.</p>');
export const APACHE_500_PAGE = apachePage(
  500,
  'Internal Server Error',
  '<p>The server encountered an internal error or\nmisconfiguration and was unable to complete\nyour request.</p>\n<p>Please contact the server administrator at \n [no address given] to inform them of the time this error occurred,\n and the actions you performed just before this error.</p>\n<p>More information about this error may be available\nin the server error log.</p>',
);
export const APACHE_503_PAGE = apachePage(
  503,
  'Service Unavailable',
  '<p>The server is temporarily unable to service your\nrequest due to maintenance downtime or capacity\nproblems. Please try again later.</p>',
);
export const NGINX_404_PAGE =
  '<html>\n<head><title>404 Not Found</title></head>\n<body>\n<center><h1>404 Not Found</h1></center>\n<hr><center>nginx/1.22.1</center>\n</body>\n</html>\n';

export const STATUS_BODY =
  '{"status":"success","message":null,"data":{"id":1,"name":"Open","colour":"#35a600","auto_close":1,"order":1,"created_at":1486732738,"updated_at":1486732738,"translations":[{"status_id":1,"name":"Ouvrir","locale":"fr"},{"status_id":1,"name":"Offen","locale":"de"}]}}';
export const MISSING_CREDENTIALS_BODY =
  '{"status":"error","message":"Failed to authenticate because of bad credentials or an invalid authorization header.","data":[]}';
export const WRONG_TOKEN_BODY = '{"status":"error","message":"Invalid authentication credentials.","data":[]}';

/**
 * An answer with the classification the classify stage gives an answer alone, made from what it holds now: a test that
 * changes an answer after making it (another URL, another header) has it classified anew before a rule reads it.
 */
export function classifiedAlone({ key, url, status, headers, body }: Omit<ObservedAnswer, 'classified'>): ObservedAnswer {
  const classified = classifyAnswer({ apiPath: apiPathOf(new URL(url).pathname), status, headers, bodyText: body });
  return { ...(key === undefined ? {} : { key }), url, status, headers, body, classified };
}

/** Every answer of the observations classified from what it holds, as the rules are handed them. */
export function classifiedObservations(observations: StackObservations): StackObservations {
  return Object.fromEntries(
    Object.entries(observations).map(([name, seen]: [string, unknown]) => {
      if (Array.isArray(seen)) {
        const forms = seen as NonNullable<StackObservations['tokenElsewhere']>;
        return [name, forms.map(({ form, answer: other }) => ({ form, answer: classifiedAlone(other) }))];
      }
      return [name, typeof seen === 'object' && seen !== null ? classifiedAlone(seen as ObservedAnswer) : seen];
    }),
  ) as StackObservations;
}

/** Failed answers each classified from what it holds. */
export const classifiedFailures = (failed: FailedAnswer[]): FailedAnswer[] =>
  failed.map((entry) => ({ ...entry, answer: classifiedAlone(entry.answer) }));

export function answer(status: number, body: string, headers: Record<string, string>, path = API): ObservedAnswer {
  return classifiedAlone({ url: `${BASE}${path}`, status, headers, body });
}

export const fromApache = (status: number, body: string, type = JSON_TYPE, path = API): ObservedAnswer =>
  answer(status, body, { server: APACHE, 'content-type': type }, path);

export const served = fromApache(200, STATUS_BODY);
export const missingCredentials = fromApache(401, MISSING_CREDENTIALS_BODY);
export const wrongTokenRefused = fromApache(401, WRONG_TOKEN_BODY);
export const apacheNotFound = fromApache(404, APACHE_404_PAGE, APACHE_PAGE_TYPE);
const frontControllerRefused = fromApache(401, MISSING_CREDENTIALS_BODY, JSON_TYPE, `/index.php${API}`);

/** What the five doctor probes got from each lab configuration. */
export const LAB: Record<string, StackObservations> = {
  conformant: {
    valid: served,
    noHeader: missingCredentials,
    wrongToken: wrongTokenRefused,
    frontController: fromApache(200, STATUS_BODY, JSON_TYPE, `/index.php${API}`),
    frontControllerNoHeader: frontControllerRefused,
  },
  headerStripped: {
    valid: missingCredentials,
    noHeader: missingCredentials,
    wrongToken: missingCredentials,
    frontController: frontControllerRefused,
    frontControllerNoHeader: frontControllerRefused,
  },
  rewriteNotApplied: {
    valid: apacheNotFound,
    noHeader: apacheNotFound,
    wrongToken: apacheNotFound,
    frontController: frontControllerRefused,
    frontControllerNoHeader: frontControllerRefused,
  },
};

/** The headers the stack rules read; the others (Date, Connection) only change from one recording to the next. */
const RECORDED_HEADERS = ['server', 'content-type', 'www-authenticate'];

/** An answer as the recordings keep it: at BASE instead of the lab's own port, with the headers the rules read, unclassified. */
export function recordedForm(answer: ObservedAnswer, labUrl: string): Omit<ObservedAnswer, 'classified'> {
  const headers = Object.fromEntries(
    RECORDED_HEADERS.flatMap((name) => (answer.headers[name] === undefined ? [] : [[name, answer.headers[name]]])),
  );
  return { url: answer.url.replace(labUrl.replace(/\/$/, ''), BASE), status: answer.status, headers, body: answer.body };
}

/** Where the answers of each nginx site of the lab are kept; test/integration/nginx-lab.test.ts records them and checks them. */
export const nginxLabFile = (site: NginxSite): string => join(import.meta.dirname, 'nginx-lab', `${site}.json`);

/** What the doctor's five probes got from one nginx site of the lab. */
export const nginxLab = (site: NginxSite): StackObservations =>
  classifiedObservations(JSON.parse(readFileSync(nginxLabFile(site), 'utf8')) as StackObservations);

/** Apache's words, which advice on an nginx stack never holds. */
export const APACHE_ADVICE = /\.htaccess|mod_rewrite|AllowOverride|CGIPassAuth|a2enmod|DocumentRoot/;
