import type { IncomingMessage } from 'node:http';
import { parseBasic } from '../../src/reference-server/auth.js';
import { selfserviceTypes, statuses, type StatusRecord } from '../../src/reference-server/data.js';

export { selfserviceTypes, statuses };
import { translate } from '../../src/reference-server/server.js';
import { serveHttp, type LoopbackServer } from './loopback-server.js';

/** One answer as a test server writes it. */
export interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

type Refusal = 'missing' | 'malformed' | 'bad';
type Route = 'status' | 'selfservice';

export interface UnusualApi {
  /** Whether these Basic credentials are the token; the document's rule (the user name is the token) by default. */
  accepts?(user: string, password: string, token: string): boolean;
  /** Hands credentials with an empty user name to accepts too, as a fallback to the password does; else they are malformed. */
  readsEmptyUser?: true;
  /** The answer to refused credentials; 401 with the error envelope by default. */
  refuse?(why: Refusal, route: Route): Reply;
  /** Every request goes here first; an answer ends it (a WAF, a proxy, a maintenance page in front of the API). */
  front?(request: IncomingMessage): Reply | undefined;
  /** Headers a front adds to every answer of the API it passes on (Via, its latency, its cookie). */
  passedThrough?: Record<string, string>;
  /** Changes the status envelope the API is about to send. */
  status?(envelope: Record<string, unknown>, request: { id: number; lang?: string }): unknown;
  /** The status it holds under an id; the reference ones by default. */
  find?(id: number): StatusRecord | undefined;
  /** Answers a served body as raw text instead of the JSON of it. */
  text?(json: string, route: Route): string;
  /** The Content-Type of every JSON answer, served or refused, instead of application/json. */
  contentType?: string;
  /** No Content-Length: each answer ends by closing the connection, as HTTP/1.0 servers do. */
  closeDelimited?: true;
  /** The routes answer through the front controller too (/index.php/api/...), as a PHP application's do. */
  frontController?: true;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

export const errorReply = (status: number, message: string): Reply => json(status, { status: 'error', message, data: [] });

const REFUSAL_MESSAGES: Record<Refusal, string> = {
  missing: 'Failed to authenticate because of bad credentials or an invalid authorization header.',
  malformed: 'Failed to authenticate because of bad credentials or an invalid authorization header.',
  bad: 'Invalid authentication credentials.',
};

/** Whether the request's Authorization header holds the token, as this API decides it. */
function credentialsOf(request: IncomingMessage, api: UnusualApi, token: string): Refusal | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return 'missing';
  const credentials = parseBasic(header);
  if (!credentials || (credentials.user === '' && !api.readsEmptyUser)) return 'malformed';
  const accepts = api.accepts ?? ((user: string) => user === token);
  if (accepts(credentials.user, credentials.password, token)) return undefined;
  return credentials.user === '' ? 'malformed' : 'bad';
}

function answer(request: IncomingMessage, api: UnusualApi, token: string): Reply {
  const fronted = api.front?.(request);
  if (fronted) return fronted;
  const reply = apiAnswer(request, api, token);
  return api.passedThrough ? { ...reply, headers: { ...reply.headers, ...api.passedThrough } } : reply;
}

function apiAnswer(request: IncomingMessage, api: UnusualApi, token: string): Reply {
  const url = new URL(request.url ?? '/', 'http://unusual.invalid');
  const path = api.frontController ? url.pathname.replace(/^\/index\.php(?=\/)/, '') : url.pathname;
  const statusMatch = /^\/api\/ticket\/status\/(\d+)$/.exec(path);
  const route: Route | undefined = statusMatch ? 'status' : path === '/api/selfservice/type' ? 'selfservice' : undefined;
  if (!route) return errorReply(404, 'Route not found.');
  const refused = credentialsOf(request, api, token);
  if (refused) return api.refuse?.(refused, route) ?? errorReply(401, REFUSAL_MESSAGES[refused]);
  let body: unknown;
  if (route === 'selfservice') {
    body = { status: 'success', message: null, data: selfserviceTypes };
  } else {
    const id = Number(statusMatch?.[1]);
    const record = api.find ? api.find(id) : statuses.find((candidate) => candidate.id === id);
    if (!record) return errorReply(404, 'The ticket status with given ID was not found.');
    const lang = url.searchParams.get('lang') ?? undefined;
    const envelope = translate(record, lang) as unknown as Record<string, unknown>;
    body = api.status ? api.status(envelope, { id, ...(lang === undefined ? {} : { lang }) }) : envelope;
  }
  const text = JSON.stringify(body);
  return { status: 200, body: api.text ? api.text(text, route) : text, headers: { 'content-type': 'application/json' } };
}

/** An API written here for one unusual behaviour, on 127.0.0.1; it remembers every request and stops when closed. */
export function serveUnusualApi(token: string, api: UnusualApi): Promise<LoopbackServer> {
  return serveHttp((request, response) => {
    const reply = answer(request, api, token);
    const headers = { ...reply.headers };
    if (api.contentType && headers['content-type'] === 'application/json') headers['content-type'] = api.contentType;
    if (api.closeDelimited) {
      response.useChunkedEncodingByDefault = false;
      response.shouldKeepAlive = false;
    } else {
      headers['content-length'] = String(Buffer.byteLength(reply.body));
    }
    response.writeHead(reply.status, headers);
    response.end(reply.body);
  });
}

/** A page in front of the API, the same for every request. */
export const page =
  (status: number, body: string, headers: Record<string, string> = {}): UnusualApi['front'] =>
  () => ({
    status,
    body,
    headers: { 'content-type': 'text/html; charset=UTF-8', ...headers },
  });

export const withData = (envelope: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> => ({
  ...envelope,
  data: { ...(envelope.data as Record<string, unknown>), ...changes },
});
