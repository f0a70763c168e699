import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';

// A local upstream for tests: it replays recorded provider payloads (test/fixtures/providers) and
// injects faults over a real socket — resets, silence, stalls, cuts — which a mocked fetch cannot
// imitate faithfully. Each route (`/<route>/…`) plays a script: one behaviour per request, the last
// one repeating. It listens on 127.0.0.1 only.

export type Behaviour =
  | { type: 'json'; status?: number; body: unknown; headers?: Record<string, string>; delayMs?: number }
  | { type: 'raw'; status?: number; text: string; headers?: Record<string, string> }
  | {
      type: 'sse';
      frames: string[];
      firstByteDelayMs?: number;
      gapMs?: number;
      stallAfter?: number;
      cutAfter?: number;
    }
  /** Destroys the socket before any response header. */
  | { type: 'reset' }
  /** Accepts the request and never answers. */
  | { type: 'hang' }
  /** Sends the headers and part of a JSON body, then destroys the socket. */
  | { type: 'cut-body'; body: unknown }
  /** Sends the headers and part of a JSON body, then nothing more. */
  | { type: 'stall-body'; body: unknown }
  /** Answers a redirect (301, 302, 303, 307, 308) to `location`, with a body that quotes it. */
  | { type: 'redirect'; status: number; location: string }
  /**
   * A 200 of `contentType` that sends `head`, then `unit` again and again until `upTo` bytes or until
   * the client stops reading (it closes the connection); `sent` counts what was written.
   */
  | {
      type: 'flood';
      contentType: string;
      head?: string;
      unit: string;
      upTo: number;
      sent?: { bytes: number };
    };

export interface Arrival {
  route: string;
  at: number;
  body: unknown;
  /** The request's headers as they arrived (names lowercased). */
  headers: IncomingHttpHeaders;
}

const fixtureDir = join(import.meta.dirname, '../../fixtures/providers');

export function fixture(path: string): unknown {
  return JSON.parse(readFileSync(join(fixtureDir, path), 'utf8'));
}

/** The SSE frames of a `*.sse.json` fixture. */
export function sseFixture(path: string): string[] {
  const { events } = fixture(path) as { events: { event?: string; data: unknown }[] };
  return events.map((event) => {
    const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
    return `${event.event ? `event: ${event.event}\n` : ''}data: ${data}\n\n`;
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function play(behaviour: Behaviour, res: ServerResponse, socket: Socket): Promise<void> {
  switch (behaviour.type) {
    case 'json':
      if (behaviour.delayMs) await sleep(behaviour.delayMs);
      res.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json', ...behaviour.headers });
      res.end(JSON.stringify(behaviour.body));
      return;
    case 'raw':
      res.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json', ...behaviour.headers });
      res.end(behaviour.text);
      return;
    case 'redirect':
      res.writeHead(behaviour.status, { location: behaviour.location, 'content-type': 'text/html' });
      res.end(`<a href="${behaviour.location}">Moved</a>`);
      return;
    case 'flood': {
      res.writeHead(200, { 'content-type': behaviour.contentType });
      const chunk = behaviour.unit.repeat(Math.max(1, Math.floor(65_536 / behaviour.unit.length)));
      const count = (bytes: number) => {
        if (behaviour.sent) behaviour.sent.bytes += bytes;
      };
      if (behaviour.head) {
        res.write(behaviour.head);
        count(Buffer.byteLength(behaviour.head));
      }
      let written = 0;
      while (written < behaviour.upTo && !socket.destroyed) {
        const more = res.write(chunk);
        written += chunk.length;
        count(chunk.length);
        if (!more)
          // Wait for whichever comes first, and leave no listener behind for the next wait.
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done);
              socket.off('close', done);
              resolve();
            };
            res.once('drain', done);
            socket.once('close', done);
          });
      }
      res.end();
      return;
    }
    case 'reset':
      socket.destroy();
      return;
    case 'hang':
      return;
    case 'cut-body':
    case 'stall-body': {
      const text = JSON.stringify(behaviour.body);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      if (behaviour.type === 'cut-body') setTimeout(() => socket.destroy(), 20);
      return;
    }
    case 'sse': {
      if (behaviour.firstByteDelayMs) await sleep(behaviour.firstByteDelayMs);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [index, frame] of behaviour.frames.entries()) {
        if (index === behaviour.stallAfter) return;
        if (index === behaviour.cutAfter) {
          await sleep(50); // let what was written reach the client first: a cut mid-answer, not a reset
          socket.destroy();
          return;
        }
        res.write(frame);
        if (behaviour.gapMs) await sleep(behaviour.gapMs);
      }
      res.end();
      return;
    }
  }
}

export interface FakeUpstream {
  url: string;
  /** Sets the script of a route; resets its request count. */
  script(route: string, behaviours: Behaviour[]): void;
  arrivals(route?: string): Arrival[];
  clear(): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const scripts = new Map<string, { behaviours: Behaviour[]; served: number }>();
  const arrivals: Arrival[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = (req.url ?? '/').split('/')[1] ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      arrivals.push({ route, at: performance.now(), body, headers: req.headers });
      const script = scripts.get(route);
      if (!script || script.behaviours.length === 0) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no script for route ${route}` } }));
        return;
      }
      const behaviour = script.behaviours[Math.min(script.served, script.behaviours.length - 1)] as Behaviour;
      script.served++;
      play(behaviour, res, req.socket).catch(() => req.socket.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script(route, behaviours) {
      scripts.set(route, { behaviours, served: 0 });
    },
    arrivals: (route) => arrivals.filter((arrival) => route === undefined || arrival.route === route),
    clear() {
      arrivals.length = 0;
      scripts.clear();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
