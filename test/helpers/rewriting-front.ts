import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { serveHttp, type LoopbackServer } from './loopback-server.js';

/** What a front does to one answer of its upstream, given the request it answers: a new status, body or headers. */
export type Rewrite = (
  answer: { status: number; body: string },
  request: IncomingMessage,
) => { status?: number; body?: string | Buffer; headers?: Record<string, string> };

/**
 * A loopback front that passes every request on to an http upstream and rewrites its answers, as a proxy or a patched
 * application would: what the rewrite leaves out is the upstream's own.
 */
export async function rewritingFront(upstreamUrl: string, rewrite: Rewrite): Promise<LoopbackServer> {
  const upstream = new URL(upstreamUrl);
  return serveHttp((request: IncomingMessage, response: ServerResponse) => {
    const onward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const original = { status: answer.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8') };
          const changed = rewrite(original, request);
          const body = changed.body ?? original.body;
          response.writeHead(changed.status ?? original.status, {
            'content-type': answer.headers['content-type'] ?? 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            ...changed.headers,
          });
          response.end(body);
        });
      },
    );
    onward.on('error', () => response.destroy());
    request.pipe(onward);
  });
}
