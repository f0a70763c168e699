// Load runs with autocannon (npm), each bounded by a duration and a request count and stopped by a
// hard timer besides. Latencies are taken raw from each response (sub-millisecond), not from
// autocannon's whole-millisecond histogram.
import { request } from 'node:http';
import autocannon from 'autocannon';
import { summarize } from './stats.js';

/**
 * @typedef {{ url: string, headers: Record<string, string>, body: string }} Target
 * @typedef {{ connections: number, durationS: number, rate?: number, maxRequests?: number }} LoadShape
 * @typedef {{ requests: number, rps: number, ok: number, non2xx: number, errors: number, timeouts: number, durationS: number, offeredRate: number | null, connections: number, latencyMs: ReturnType<typeof summarize> }} LoadResult
 */

/**
 * @param {Target} target
 * @param {LoadShape} shape
 * @returns {Promise<LoadResult>}
 */
export function runLoad(target, shape) {
  /** @type {number[]} */
  const latencies = [];
  let ok = 0;
  let seen = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: target.headers,
        body: target.body,
        connections: shape.connections,
        // autocannon ignores `duration` when `amount` is set, so the count bound is enforced below.
        duration: shape.durationS,
        ...(shape.rate && { overallRate: shape.rate }),
        timeout: 10,
      },
      (error, result) => {
        clearTimeout(guard);
        if (error) return reject(error);
        const seconds = result.duration || shape.durationS;
        resolve({
          requests: result.requests.total,
          rps: Math.round((ok / seconds) * 10) / 10,
          ok,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          durationS: Math.round(seconds * 100) / 100,
          offeredRate: shape.rate ?? null,
          connections: shape.connections,
          latencyMs: summarize(latencies),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        latencies.push(responseTime);
      }
      if (shape.maxRequests !== undefined && ++seen >= shape.maxRequests) instance.stop();
    });
    // autocannon stops itself at `duration`; this only guards against a server that never lets go.
    const guard = setTimeout(() => instance.stop(), (shape.durationS + 5) * 1000);
  });
}

/**
 * One result of several runs of the same target: counts and durations summed (so req/s is every
 * round's answers over every round's time), latency percentiles the median of the rounds' own (a
 * run's histogram is not kept, only its percentiles), the mean weighted by requests, the max the
 * largest. `rounds` keeps each run's req/s.
 * @param {LoadResult[]} runs
 * @returns {LoadResult & { rounds: number[] }}
 */
export function sumRounds(runs) {
  if (runs.length === 0) throw new Error('sumRounds needs at least one run');
  const total = (/** @type {(r: LoadResult) => number} */ of) => runs.reduce((sum, r) => sum + of(r), 0);
  const median = (/** @type {(r: LoadResult) => number} */ of) => {
    const sorted = runs.map(of).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    const low = /** @type {number} */ (sorted[sorted.length % 2 === 1 ? mid : mid - 1]);
    const high = /** @type {number} */ (sorted[mid]);
    return Math.round(((low + high) / 2) * 1000) / 1000;
  };
  const requests = total((r) => r.requests);
  const ok = total((r) => r.ok);
  const durationS = total((r) => r.durationS);
  const first = /** @type {LoadResult} */ (runs[0]);
  return {
    requests,
    rps: Math.round((ok / durationS) * 10) / 10,
    ok,
    non2xx: total((r) => r.non2xx),
    errors: total((r) => r.errors),
    timeouts: total((r) => r.timeouts),
    durationS: Math.round(durationS * 100) / 100,
    offeredRate: first.offeredRate,
    connections: first.connections,
    latencyMs: {
      count: requests,
      mean: Math.round((total((r) => r.latencyMs.mean * r.requests) / Math.max(1, requests)) * 1000) / 1000,
      p50: median((r) => r.latencyMs.p50),
      p90: median((r) => r.latencyMs.p90),
      p99: median((r) => r.latencyMs.p99),
      max: Math.max(...runs.map((r) => r.latencyMs.max)),
      percentiles: {},
    },
    rounds: runs.map((r) => r.rps),
  };
}

/**
 * Time to the first byte of the body of a streamed answer, one request after another on a kept-alive
 * connection, so that it measures the path and not a queue.
 * @param {Target} target
 * @param {{ requests: number, maxS: number }} shape
 */
export async function measureTtfb(target, shape) {
  const url = new URL(target.url);
  /** @type {number[]} */
  const firstByte = [];
  /** @type {number[]} */
  const whole = [];
  let failures = 0;
  /** @type {string | undefined} */
  let contentType;
  const deadline = performance.now() + shape.maxS * 1000;
  const { Agent } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < shape.requests && performance.now() < deadline; i++) {
    try {
      const [first, all, type] = await new Promise((resolve, reject) => {
        const began = performance.now();
        let first = 0;
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            agent,
            headers: { ...target.headers, 'content-length': Buffer.byteLength(target.body) },
            timeout: 10_000,
          },
          (res) => {
            res.on('data', () => {
              if (first === 0) first = performance.now() - began;
            });
            res.on('end', () => {
              if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
              else resolve([first, performance.now() - began, String(res.headers['content-type'] ?? '')]);
            });
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', reject);
        req.end(target.body);
      });
      firstByte.push(first);
      whole.push(all);
      contentType ??= type;
    } catch {
      failures++;
    }
  }
  agent.destroy();
  return {
    requests: firstByte.length,
    failures,
    contentType: contentType ?? null,
    streamed: (contentType ?? '').startsWith('text/event-stream'),
    firstByteMs: summarize(firstByte),
    wholeAnswerMs: summarize(whole),
  };
}
