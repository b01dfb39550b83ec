import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { authenticate, type AuthOutcome, type AuthRequest } from './auth.js';
import { selfserviceTypes, statuses, type StatusRecord } from './data.js';
import { variantNamed, type ResponseStyle, type StatusEnvelope, type Variant } from './faults.js';

export interface ReferenceServerOptions {
  token: string;
  /** Names from the fault catalog (src/reference-server/faults.ts), faults and quirks alike. */
  variants?: string[];
  host?: string;
  port?: number;
  /** Serve the API under this path, as a deployment in a subfolder does (e.g. /support). */
  pathPrefix?: string;
  latencyMs?: number;
  /** How long an idle connection is kept (announced in Keep-Alive: timeout=N); 5 s, Apache's default, when not given. */
  keepAliveTimeoutMs?: number;
}

export interface RunningReferenceServer {
  url: string;
  close(): Promise<void>;
}

const FRONT_CONTROLLER = '/index.php';

const REFUSALS: Record<Exclude<AuthOutcome, 'ok'>, string> = {
  'bad-credentials': 'Invalid authentication credentials.',
  malformed: 'Failed to authenticate because of bad credentials or an invalid authorization header.',
  missing: 'Failed to authenticate because of bad credentials or an invalid authorization header.',
};

const DEFAULT_STYLE: ResponseStyle = { contentType: 'application/json', chunked: false, keepAlive: true, refusalStatus: 401, delayMs: 0 };

interface Answer {
  status: number;
  body: unknown;
}

const errorBody = (message: string): unknown => ({ status: 'error', message, data: [] });

export function translate(record: StatusRecord, lang: string | undefined, ignoreCase = false): StatusEnvelope {
  const same = (locale: string): boolean => (ignoreCase ? locale.toLowerCase() === lang?.toLowerCase() : locale === lang);
  const translation = lang === undefined ? undefined : record.translations.find((entry) => same(entry.locale));
  const data = { ...record, translations: record.translations.map((entry) => ({ ...entry })) };
  return { status: 'success', message: null, data: translation ? { ...data, name: translation.name } : data };
}

class ReferenceApi {
  private readonly variants: Variant[];
  private readonly seen = new Map<string, number>();
  readonly style: ResponseStyle;

  constructor(private readonly options: ReferenceServerOptions) {
    this.variants = (options.variants ?? []).map(variantNamed);
    this.style = Object.assign(
      {},
      DEFAULT_STYLE,
      { delayMs: options.latencyMs ?? 0 },
      ...this.variants.map((variant) => variant.style ?? {}),
    ) as ResponseStyle;
  }

  answer(request: IncomingMessage): Answer {
    const url = new URL(request.url ?? '/', 'http://reference.invalid');
    const prefix = (this.options.pathPrefix ?? '').replace(/\/+$/, '');
    if (!url.pathname.startsWith(`${prefix}/`)) return { status: 404, body: errorBody('Route not found.') };
    // The application's routes answer through its front controller too, as a PHP application's do.
    const frontController = url.pathname.startsWith(`${prefix}${FRONT_CONTROLLER}/`);
    const path = url.pathname.slice(prefix.length + (frontController ? FRONT_CONTROLLER.length : 0));
    if (request.method !== 'GET' && request.method !== 'HEAD') return { status: 405, body: errorBody('Method not allowed.') };

    const statusMatch = /^\/api\/ticket\/status\/([^/]+)$/.exec(path);
    if (statusMatch?.[1])
      return this.guarded(request, { route: 'status', frontController }, () =>
        this.status(statusMatch[1] ?? '', url.searchParams.get('lang') ?? undefined, this.timesSeen(request)),
      );
    if (path === '/api/selfservice/type' && !this.variants.some((variant) => variant.selfservice === 'missing')) {
      return this.guarded(request, { route: 'selfservice', frontController }, () => ({
        status: 200,
        body: { status: 'success', message: null, data: selfserviceTypes, count: selfserviceTypes.length, start: 0, limit: 50 },
      }));
    }
    return { status: 404, body: errorBody('Route not found.') };
  }

  private guarded(request: IncomingMessage, asked: Pick<AuthRequest, 'route' | 'frontController'>, serve: () => Answer): Answer {
    const authRequest = { header: request.headers.authorization, token: this.options.token, ...asked };
    const outcome = this.variants.reduce<AuthOutcome>(
      (decided, variant) => variant.authenticate?.(authRequest, decided) ?? decided,
      authenticate(authRequest),
    );
    if (outcome !== 'ok') return { status: this.style.refusalStatus, body: errorBody(REFUSALS[outcome]) };
    return serve();
  }

  private timesSeen(request: IncomingMessage): number {
    const key = `${request.url ?? ''} ${request.headers.authorization ?? ''}`;
    const seen = this.seen.get(key) ?? 0;
    this.seen.set(key, seen + 1);
    return seen;
  }

  private status(rawId: string, lang: string | undefined, repeated: number): Answer {
    const record = /^\d+$/.test(rawId) ? statuses.find((candidate) => candidate.id === Number(rawId)) : undefined;
    if (!record) return { status: 404, body: errorBody('The ticket status with given ID was not found.') };
    const missingLangStatus = this.variants.find((variant) => variant.missingLangStatus)?.missingLangStatus;
    if (lang !== undefined && missingLangStatus && !record.translations.some((entry) => entry.locale === lang)) {
      return { status: missingLangStatus, body: errorBody('No translation exists for the given language.') };
    }
    const body = this.variants.reduce<unknown>(
      (envelope, variant) => variant.status?.(envelope as StatusEnvelope, { lang, record, repeated }) ?? envelope,
      translate(
        record,
        lang,
        this.variants.some((variant) => variant.langMatch === 'case-insensitive'),
      ),
    );
    return { status: 200, body };
  }
}

function encode(body: Buffer, encoding: ResponseStyle['encoding']): Buffer {
  if (encoding === 'gzip') return gzipSync(body);
  if (encoding === 'deflate') return deflateSync(body);
  if (encoding === 'br') return brotliCompressSync(body);
  return body;
}

function send(response: ServerResponse, answer: Answer, style: ResponseStyle): void {
  const html = style.htmlPage !== undefined;
  const status = html ? 200 : answer.status;
  const text = html ? (style.htmlPage ?? '') : JSON.stringify(answer.body);
  const raw = Buffer.from(`${style.bom ? '\uFEFF' : ''}${html ? '' : (style.prefix ?? '')}${text}`);
  const payload = encode(raw, style.encoding);
  const headers: Record<string, string> = { 'content-type': html ? 'text/html; charset=UTF-8' : style.contentType };
  if (style.encoding) headers['content-encoding'] = style.encoding;
  if (!style.keepAlive) headers.connection = 'close';
  if (status === 401) headers['www-authenticate'] = 'Basic realm="API"';
  if (style.chunked) {
    response.writeHead(status, headers);
    const middle = Math.floor(payload.length / 2);
    response.write(payload.subarray(0, middle));
    response.end(payload.subarray(middle));
    return;
  }
  response.writeHead(status, { ...headers, 'content-length': String(payload.length) });
  response.end(payload);
}

export async function startReferenceServer(options: ReferenceServerOptions): Promise<RunningReferenceServer> {
  const api = new ReferenceApi(options);
  const server: Server = createServer((request, response) => {
    const answer = api.answer(request);
    const reply = (): void => send(response, answer, api.style);
    if (api.style.delayMs > 0) setTimeout(reply, api.style.delayMs).unref();
    else reply();
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostInUrl}:${port}${options.pathPrefix ?? ''}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
