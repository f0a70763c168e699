// A fixed offered rate, open loop: one request every 1/rate seconds on a schedule, whatever the answers
// do, over a pool of kept-alive connections. autocannon's `overallRate` is not that: each connection
// sends its share of a second's requests back to back and then waits for the next second, so a
// "200 requests/s" run is a burst at full speed every second, and measures a queue, not the path.
// Latency counts from the moment a request is handed to the pool: a server that falls behind keeps
// every connection busy, and the requests queued for a connection are charged for that wait (no
// coordinated omission), while a timer that fires a little late does not count against the server.
import { Agent, request } from 'node:http';
import { summarize } from './stats.js';

/**
 * @param {import('./load.js').Target} target
 * @param {{ rate: number, durationS: number, connections: number }} shape
 * @returns {Promise<import('./load.js').LoadResult>}
 */
export async function runPaced(target, shape) {
  const url = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: shape.connections });
  const headers = { ...target.headers, 'content-length': String(Buffer.byteLength(target.body)) };
  const total = Math.round(shape.rate * shape.durationS);
  const intervalMs = 1000 / shape.rate;
  /** @type {number[]} */
  const latencies = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const send = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers,
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              ok++;
              latencies.push(performance.now() - started);
            } else non2xx++;
            resolve(undefined);
          });
          res.on('error', () => {
            errors++;
            resolve(undefined);
          });
        },
      );
      req.on('timeout', () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        errors++;
        resolve(undefined);
      });
      req.end(target.body);
    });
  const began = performance.now();
  /** @type {Promise<unknown>[]} */
  const inFlight = [];
  for (let i = 0; i < total; i++) {
    const scheduled = began + i * intervalMs;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    else if (wait > 0) await new Promise((resolve) => setImmediate(resolve));
    inFlight.push(send());
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - began) / 1000;
  agent.destroy();
  return {
    requests: total,
    rps: Math.round((ok / seconds) * 10) / 10,
    ok,
    non2xx,
    errors,
    timeouts,
    durationS: Math.round(seconds * 100) / 100,
    offeredRate: shape.rate,
    connections: shape.connections,
    latencyMs: summarize(latencies),
  };
}
