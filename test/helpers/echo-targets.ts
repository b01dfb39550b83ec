import { request as httpRequest } from 'node:http';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { serveHttp, type LoopbackServer } from './loopback-server.js';

/**
 * How a target writes back the user name of the Basic credential it received: every plausible way a server, a debug
 * page or a proxy echoes a secret. Each takes the token and returns the text written.
 */
export const ECHO_FORMS = {
  'JSON-escaped by PHP (\\/)': (token: string) => token.replaceAll('/', '\\/'),
  'JSON \\u escapes': (token: string) => [...token].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'upper case': (token: string) => token.toUpperCase(),
  'lower case': (token: string) => token.toLowerCase(),
  // htmlentities($user, ENT_QUOTES | ENT_HTML5), as a PHP error page that lists the request's credentials writes it.
  'HTML5 named references (&sol;, &plus;)': (token: string) =>
    token.replace(/[/+.:=_]/g, (char) => `&${{ '/': 'sol', '+': 'plus', '.': 'period', ':': 'colon', '=': 'equals', _: 'lowbar' }[char]};`),
  'URL-encoded, lower-case hex': (token: string) => encodeURIComponent(token).toLowerCase(),
  hex: (token: string) => Buffer.from(token).toString('hex'),
  'base64 one byte in': (token: string) => Buffer.from(`u=${token}`).toString('base64').replaceAll('/', '\\/'),
  // base64_encode(json_encode(['user' => $user])), as a PHP application's cookie or state parameter holds it.
  'base64 of JSON from PHP (\\/)': (token: string) => Buffer.from(`{"user":"${token.replaceAll('/', '\\/')}"}`).toString('base64'),
  'base64url two bytes in': (token: string) => Buffer.from(`id${token};`).toString('base64url'),
  'the whole Authorization value, JSON-escaped': (token: string) =>
    `Authorization: Basic ${Buffer.from(`${token}:x`).toString('base64').replaceAll('/', '\\/')}`,
} satisfies Record<string, (token: string) => string>;

export type EchoForm = keyof typeof ECHO_FORMS;

export interface EchoTarget {
  url: string;
  front: LoopbackServer;
  close(): Promise<void>;
}

/**
 * The reference server behind a front that echoes the credential it received, in the given form: in a header
 * value, in a header name (when the form can be one), and in the body of the self-service answer, whose shape the
 * document leaves open. Otherwise it answers as the reference server does, so a run against it is conformant.
 */
export async function echoTarget(token: string, form: EchoForm): Promise<EchoTarget> {
  const reference = await startReferenceServer({ token });
  const upstream = new URL(reference.url);
  const front = await serveHttp((request, response) => {
    const credential = (request.headers.authorization ?? '').replace(/^Basic /i, '');
    const user = Buffer.from(credential, 'base64').toString('utf8').split(':')[0] ?? '';
    const echo = user === token ? ECHO_FORMS[form](token) : '';
    if (echo && request.url?.endsWith('/api/selfservice/type')) {
      const body = `{"status":"success","message":null,"data":[],"debug":"user ${echo} seen"}`;
      response.writeHead(200, { 'content-type': 'application/json', 'x-debug-user': echo.replaceAll('\\', '') });
      response.end(body);
      return;
    }
    const proxied = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers },
      (answer) => {
        const headers: Record<string, string | string[] | undefined> = { ...answer.headers };
        if (echo) headers['x-debug-user'] = echo.replaceAll('\\', '');
        // A header name can hold the echo when it is made of name characters only.
        if (echo && /^[\w.~-]+$/.test(echo)) headers[`x-seen-${echo}`] = '1';
        response.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(response);
      },
    );
    proxied.on('error', () => response.destroy());
    request.pipe(proxied);
  });
  return {
    url: front.url,
    front,
    close: async () => {
      await Promise.all([front.close(), reference.close()]);
    },
  };
}
