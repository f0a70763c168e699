// The three entrances onto the one Reason pipeline, measured side by side: `POST /v1/reason`, the
// OpenAI door (`/openai/v1/chat/completions`) and the Anthropic door (`/anthropic/v1/messages`), each
// sent the same small ask (bench/lib/bench-servers.js's ticket to summarize), so that a door's cost over
// /v1/reason is read directly: its req/s, its latency at the fixed offered rate, its workerd CPU per
// request and its storage round trips in series, each beside /v1/reason's from the same run. Locally
// one workerd thread runs the Worker, every Durable Object and D1, so req/s is about one over the CPU
// per request; the CPU and the round trips are what carries over to production.

const instructions = 'Summarize the ticket in one sentence.';
const ticket = 'The printer is on fire.';
/** Valve's own options at both doors: the same policy as the /v1/reason body's. */
const valve = { modelPolicy: { maxLatencyMs: 10_000 } };

/** The ask through the OpenAI door: its added latency is the mapping and the encoders. */
export const openaiDoorBody = (/** @type {boolean} */ stream) =>
  JSON.stringify({
    model: 'auto',
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content: ticket },
    ],
    valve,
    ...(stream && { stream: true, stream_options: { include_usage: true } }),
  });

/**
 * The same ask through the Anthropic door, as the SDK sends it: `max_tokens` is required by the
 * Messages API (the door accepts it and names it in an `anthropic.param_ignored` warning, since the
 * budget decides what an attempt may write).
 */
export const anthropicDoorBody = (/** @type {boolean} */ stream) =>
  JSON.stringify({
    model: 'auto',
    max_tokens: 1024,
    system: instructions,
    messages: [{ role: 'user', content: ticket }],
    valve,
    ...(stream && { stream: true }),
  });

/** The Anthropic SDK's headers: the key as `x-api-key`, and the API version Valve speaks. */
export const anthropicHeaders = (/** @type {string} */ key) => ({
  'content-type': 'application/json',
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
});

/**
 * The two doors' targets on a Valve at `url`, JSON answers (a stream target swaps in the body made with
 * `true`), each under the key as its clients send it.
 * @param {string} url @param {string} key
 * @returns {{ door: import('./load.js').Target, anthropic: import('./load.js').Target }}
 */
export function doorTargets(url, key) {
  return {
    door: {
      url: `${url}/openai/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: openaiDoorBody(false),
    },
    anthropic: {
      url: `${url}/anthropic/v1/messages`,
      headers: anthropicHeaders(key),
      body: anthropicDoorBody(false),
    },
  };
}

/** The entrances in the order the report gives them: the bench's target name, its label and path. */
export const entrances = /** @type {const} */ ([
  { name: 'valve', label: '`POST /v1/reason`', path: '/v1/reason' },
  { name: 'door', label: 'OpenAI door', path: '/openai/v1/chat/completions' },
  { name: 'anthropic', label: 'Anthropic door', path: '/anthropic/v1/messages' },
]);

/**
 * Whether a build lacks the door: Valve's own 404 for a path it does not route ("No endpoint …"), not
 * the door's 404 in its own shape (a model name nothing answers to), which is a failure to report.
 * @param {number} status @param {string} text
 */
export const doorAbsent = (status, text) => status === 404 && text.includes('No endpoint');

/**
 * Whether an answer is a door's own JSON answer to the ask: an OpenAI chat completion or an Anthropic
 * message, with its receipt id in the header. An empty string when it is; else what is wrong.
 * @param {'door' | 'anthropic'} name @param {number} status @param {Headers} headers @param {string} text
 */
export function doorAnswerProblem(name, status, headers, text) {
  if (status !== 200) return `answered ${status}: ${text.slice(0, 500)}`;
  if (!headers.get('x-valve-receipt-id')) return 'answered without an x-valve-receipt-id header';
  /** @type {Record<string, unknown>} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const shape = name === 'door' ? 'chat.completion' : 'message';
  const type = name === 'door' ? body.object : body.type;
  return type === shape ? '' : `answered ${String(type)}, not ${shape}: ${text.slice(0, 200)}`;
}

/**
 * @typedef {import('./load.js').LoadResult} LoadResult
 * @typedef {import('./goals.js').Trips} Trips
 * @typedef {'measured' | 'absent' | 'not run'} DoorStatus
 * @typedef {{
 *   name: string, label: string, path: string, status: DoorStatus,
 *   rps: number | null, rpsOverReason: number | null, rounds: number[],
 *   p50: number | null, p99: number | null, behind: number | null,
 *   addedOverDirect: { p50: number | null, p99: number | null },
 *   addedOverReason: { p50: number | null, p99: number | null },
 *   cpuMs: number | null, cpuOverReasonMs: number | null,
 *   trips: Trips | null,
 *   ttfbP50: number | null, ttfbOverReasonMs: number | null,
 * }} DoorRow
 */

/** @param {number | null | undefined} a @param {number | null | undefined} b */
const minus = (a, b) =>
  typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b)
    ? Math.round((a - b) * 100) / 100
    : null;
/** @param {number | null | undefined} a @param {number | null | undefined} b */
const ratio = (a, b) =>
  typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b) && b !== 0
    ? Math.round((a / b) * 100) / 100
    : null;

/**
 * Each entrance's figures from one run, and a door's beside /v1/reason's.
 * @param {{
 *   max: Record<string, (LoadResult & { rounds?: number[] }) | undefined>,
 *   fixed: Record<string, LoadResult | undefined>,
 *   cpuMsPerRequest: Record<string, number | null | undefined>,
 *   trips: Record<string, Trips | undefined>,
 *   ttfbP50: Record<string, number | undefined>,
 *   status: Record<string, DoorStatus>,
 * }} m `trips` by entrance name (`valve` is /v1/reason's plain requests)
 * @returns {DoorRow[]}
 */
export function doorRows(m) {
  const reason = {
    fixed: m.fixed.valve,
    rps: m.max.valve?.rps,
    cpu: m.cpuMsPerRequest.valve,
    ttfb: m.ttfbP50.valve,
  };
  const direct = m.fixed.direct;
  return entrances.map(({ name, label, path }) => {
    const status = name === 'valve' ? 'measured' : (m.status[name] ?? 'not run');
    const fixed = m.fixed[name];
    const cpu = m.cpuMsPerRequest[name] ?? null;
    const ttfb = m.ttfbP50[name] ?? null;
    const rps = m.max[name]?.rps ?? null;
    const p50 = fixed?.latencyMs.p50 ?? null;
    const p99 = fixed?.latencyMs.p99 ?? null;
    return {
      name,
      label,
      path,
      status,
      rps,
      rpsOverReason: ratio(rps, reason.rps),
      rounds: m.max[name]?.rounds ?? [],
      p50,
      p99,
      // A server that cannot keep up with the offered rate is timed in its own queue.
      behind: fixed?.offeredRate && fixed.rps < fixed.offeredRate * 0.95 ? fixed.rps : null,
      addedOverDirect: {
        p50: minus(p50, direct?.latencyMs.p50),
        p99: minus(p99, direct?.latencyMs.p99),
      },
      addedOverReason: {
        p50: name === 'valve' ? null : minus(p50, reason.fixed?.latencyMs.p50),
        p99: name === 'valve' ? null : minus(p99, reason.fixed?.latencyMs.p99),
      },
      cpuMs: cpu,
      cpuOverReasonMs: name === 'valve' ? null : minus(cpu, reason.cpu),
      trips: m.trips[name] ?? null,
      ttfbP50: ttfb,
      ttfbOverReasonMs: name === 'valve' ? null : minus(ttfb, reason.ttfb),
    };
  });
}

/** @param {number | null} x @param {string} [unit] */
const v = (x, unit = '') => (x === null ? '—' : `${x}${unit}`);
/** @param {number | null} x @param {string} [unit] */
const signed = (x, unit = '') => (x === null ? '—' : `${x > 0 ? '+' : ''}${x}${unit}`);

/** @param {Trips | null} t */
function tripsCell(t) {
  if (t === null) return '—';
  if (!t.instrumented) return 'not instrumented';
  const kinds = Object.entries(t.perRequest)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  return `p90 ${t.p90}, mean ${t.mean}, max ${t.max} (${kinds || 'none'})`;
}

/**
 * The report's section "The three entrances": one row per entrance, a door's cost over /v1/reason
 * beside each of its figures.
 * @param {DoorRow[]} rows @param {number} rate
 * @returns {string[]}
 */
export function doorsMarkdown(rows, rate) {
  const lines = [
    '### The three entrances',
    '',
    'The same ask (one instruction, one untrusted ticket, the same policy) through each entrance onto the one pipeline, JSON answers; the stream column is the same ask streamed. "Over /v1/reason" is the door minus `POST /v1/reason` in this run; max req/s is the sum of the throughput rounds, each round\'s own in brackets.',
    '',
    `| entrance | max req/s (× /v1/reason) | p50 / p99 @${rate}/s | added over direct p50 / p99 | over /v1/reason p50 / p99 | CPU per request (over /v1/reason) | storage round trips in series | stream first byte p50 (over /v1/reason) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
  ];
  for (const r of rows) {
    const entrance = r.name === 'valve' ? r.label : `${r.label} (\`${r.path}\`)`;
    if (r.status !== 'measured') {
      const why = r.status === 'absent' ? 'not present (404)' : 'not run';
      lines.push(`| ${entrance} | ${why} | — | — | — | — | — | — |`);
      continue;
    }
    const reason = r.name === 'valve';
    lines.push(
      `| ${entrance} | ${v(r.rps)}${reason || r.rpsOverReason === null ? '' : ` (${r.rpsOverReason}×)`}${r.rounds.length > 1 ? ` [${r.rounds.join(', ')}]` : ''} | ${v(r.p50)} / ${v(r.p99, ' ms')}${r.behind === null ? '' : ` (answered ${r.behind}/s)`} | ${v(r.addedOverDirect.p50)} / ${v(r.addedOverDirect.p99, ' ms')} | ${reason ? '—' : `${signed(r.addedOverReason.p50)} / ${signed(r.addedOverReason.p99, ' ms')}`} | ${v(r.cpuMs, ' ms')}${reason ? '' : ` (${signed(r.cpuOverReasonMs, ' ms')})`} | ${tripsCell(r.trips)} | ${v(r.ttfbP50, ' ms')}${reason ? '' : ` (${signed(r.ttfbOverReasonMs, ' ms')})`} |`,
    );
  }
  lines.push(
    '',
    `Locally one workerd thread runs the Worker, every Durable Object and D1, so max req/s is at most about one over the CPU per request, and the CPU and the round trips in series are the figures that carry over to production. The latency columns are paced runs (${rate}/s offered) taken one after another, the entrances adjacent, and the throughput rounds alternate the targets; what else a shared machine runs lands on one run and not the next, so read a door's cost from its CPU and round trips first, and its latency and req/s only where the rounds agree.`,
  );
  return lines;
}
