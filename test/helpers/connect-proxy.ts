import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ConnectProxy {
  url: string;
  /** Each tunnel asked for: its target and whether the CONNECT carried any credential. */
  tunnels: { target: string; credentials: boolean }[];
  close(): Promise<void>;
}

/** A forward proxy on loopback that only tunnels (HTTP CONNECT), as corporate proxies do for HTTPS. */
export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: ConnectProxy['tunnels'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push({ target: request.url ?? '', credentials: !!(request.headers.authorization ?? request.headers['proxy-authorization']) });
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
