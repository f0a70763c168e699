// Storage round trips a request waits on in series, as the Worker reports them: one `Server-Timing`
// entry named `storage` per awaited round trip (W3C Server Timing, https://www.w3.org/TR/server-timing/),
// its `desc` naming the store and what for — `do:log`, `do:rate-limit`, `d1:receipt`; a desc without
// a `kind:` prefix counts as a Durable Object call — e.g.
//   Server-Timing: storage;desc="do:log";dur=0.4, storage;desc="d1:receipt";dur=1.1
// No header at all means the Worker is not instrumented, which the bench prints as such rather than
// guessing. Locally every store is in the same workerd; in production each round trip costs a network
// hop, so the bench's production estimate is the isolate's CPU plus each round trip at a stated latency.

/** Production latency assumed per kind of round trip (ms): a Durable Object call within a region, a D1 write to its primary. */
export const productionLatencyMs = { do: 5, d1: 10, kv: 10 };

/**
 * @param {string | null} header
 * @returns {{ kind: string, what: string, durMs: number | null }[] | null} null when there is no header
 */
export function parseStorageTimings(header) {
  if (header === null) return null;
  /** @type {{ kind: string, what: string, durMs: number | null }[]} */
  const trips = [];
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.split(';').map((p) => p.trim());
    if (name !== 'storage') continue;
    /** @type {Record<string, string>} */
    const values = {};
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      values[param.slice(0, eq).trim()] = param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
    }
    const desc = values.desc ?? '';
    const colon = desc.indexOf(':');
    const kind = colon > 0 ? desc.slice(0, colon) : 'do';
    trips.push({
      kind,
      what: colon > 0 ? desc.slice(colon + 1) : desc,
      durMs: values.dur === undefined ? null : Number(values.dur),
    });
  }
  return trips;
}

/**
 * Sends `samples` requests one after another (each from `make`, so each may carry a fresh receiptId)
 * and reads their round trips. Answers null when no answer carried a Server-Timing header.
 * @param {() => { url: string, headers: Record<string, string>, body: string }} make
 * @param {number} samples
 */
export async function countRoundTrips(make, samples) {
  /** @type {number[]} */
  const counts = [];
  /** @type {Map<string, number>} */
  const kinds = new Map();
  let instrumented = false;
  let failures = 0;
  for (let i = 0; i < samples; i++) {
    const target = make();
    const res = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
    await res.arrayBuffer();
    if (res.status !== 200) {
      failures++;
      continue;
    }
    const trips = parseStorageTimings(res.headers.get('server-timing'));
    if (trips === null) continue;
    instrumented = true;
    counts.push(trips.length);
    for (const trip of trips) {
      const key = `${trip.kind}:${trip.what}`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
  }
  if (!instrumented) return { instrumented: false, failures };
  counts.sort((a, b) => a - b);
  const perRequest = Object.fromEntries(
    [...kinds].map(([key, n]) => [key, Math.round((n / counts.length) * 100) / 100]),
  );
  return {
    instrumented: true,
    failures,
    samples: counts.length,
    median: counts[Math.floor(counts.length / 2)] ?? 0,
    p90: counts[Math.min(counts.length - 1, Math.ceil(counts.length * 0.9) - 1)] ?? 0,
    mean: Math.round((counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length)) * 100) / 100,
    max: counts[counts.length - 1] ?? 0,
    perRequest,
  };
}

/**
 * The production estimate of a request's latency over the model call: CPU plus each kind of round
 * trip (mean per request) at its stated latency.
 * @param {number | null} cpuMs
 * @param {Record<string, number> | undefined} perRequest `kind:what` → mean count per request
 */
export function productionEstimateMs(cpuMs, perRequest) {
  if (cpuMs === null || perRequest === undefined) return null;
  let total = cpuMs;
  for (const [key, n] of Object.entries(perRequest)) {
    const kind = /** @type {keyof typeof productionLatencyMs} */ (key.split(':')[0]);
    total += n * (productionLatencyMs[kind] ?? productionLatencyMs.do);
  }
  return Math.round(total * 100) / 100;
}
