import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A log server that misbehaves on purpose, for the CLI's --fetch: on 127.0.0.1, port 0, answering
// each request with whatever the test's handler does (stall, flood, redirect, lie).

export interface FakeLog {
  url: string;
  close(): Promise<void>;
}

export type FakeLogHandler = (path: string, req: IncomingMessage, res: ServerResponse) => void;

export async function startFakeLog(handler: FakeLogHandler): Promise<FakeLog> {
  const server = createServer((req, res) => handler(new URL(req.url ?? '/', 'http://x').pathname, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      // A stalled answer keeps its socket open; drop it so close() returns at once.
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends JSON. */
export function answerJson(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Streams a JSON body of `bytes` bytes with no Content-Length, as fast as the client reads it, and
 * stops early if the client goes away.
 */
export function answerHuge(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let left = bytes - '{"origin":""}'.length;
  res.write('{"origin":"');
  const pump = () => {
    let flowing = true;
    while (flowing && left > 0 && !res.destroyed) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= part.length;
      flowing = res.write(part);
    }
    if (left <= 0 && !res.destroyed) res.end('"}');
  };
  res.on('drain', pump);
  pump();
}
