// Time to first byte that Valve adds to a stream, over calling the upstream directly.
//
// `measureStreamTtfb` sends `pairs` interleaved request pairs — one straight to an OpenAI-compatible
// upstream (`stream: true`), one through Valve (`POST /v1/reason`, `Accept: text/event-stream`) whose
// catalog points at that same upstream — and times each from the request to the first byte of the
// first *content* event: the upstream's first chunk with `delta.content`, Valve's first body byte
// (Valve holds the role preamble, so its first byte is already content). Reports medians and p90s
// of both and of the per-pair difference. The bench harness can call it with its own upstream and
// Valve; bench/stream-ttfb.run.ts starts both locally and prints the numbers.

export interface TtfbOptions {
  /** Valve's origin, e.g. http://127.0.0.1:8787. */
  valveUrl: string;
  valveKey: string;
  /** The upstream's Chat Completions URL, e.g. http://127.0.0.1:9000/openai/v1/chat/completions. */
  upstreamUrl: string;
  pairs?: number;
  warmup?: number;
}

export interface TtfbSummary {
  pairs: number;
  direct: { medianMs: number; p90Ms: number };
  valve: { medianMs: number; p90Ms: number };
  /** Valve minus direct, per pair. */
  added: { medianMs: number; p90Ms: number };
}

const decoder = new TextDecoder();

/** Milliseconds until `body` yields the bytes for which `ready` is true, then cancels the rest. */
async function timeUntil(started: number, res: Response, ready: (text: string) => boolean): Promise<number> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before content: ${text.slice(0, 200)}`);
    text += decoder.decode(value, { stream: true });
    if (ready(text)) {
      const ms = performance.now() - started;
      await reader.cancel();
      return ms;
    }
  }
}

async function direct(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: JSON.stringify({
      model: 'bench-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Say hello.' }],
    }),
  });
  return timeUntil(started, res, (text) => /"content":"[^"]/.test(text));
}

async function throughValve(url: string, key: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/v1/reason`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ task: 'greet', instructions: 'Say hello.' }),
  });
  if (res.status !== 200) throw new Error(`Valve answered ${res.status}: ${await res.text()}`);
  return timeUntil(started, res, (text) => text.length > 0);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

const round = (ms: number) => Math.round(ms * 100) / 100;
const stats = (values: number[]) => ({
  medianMs: round(percentile(values, 0.5)),
  p90Ms: round(percentile(values, 0.9)),
});

export async function measureStreamTtfb(options: TtfbOptions): Promise<TtfbSummary> {
  const pairs = options.pairs ?? 200;
  for (let i = 0; i < (options.warmup ?? 20); i++) {
    await direct(options.upstreamUrl);
    await throughValve(options.valveUrl, options.valveKey);
  }
  const directMs: number[] = [];
  const valveMs: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternate the order so neither side always runs on a warmer connection.
    if (i % 2 === 0) {
      directMs.push(await direct(options.upstreamUrl));
      valveMs.push(await throughValve(options.valveUrl, options.valveKey));
    } else {
      valveMs.push(await throughValve(options.valveUrl, options.valveKey));
      directMs.push(await direct(options.upstreamUrl));
    }
  }
  return {
    pairs,
    direct: stats(directMs),
    valve: stats(valveMs),
    added: stats(valveMs.map((ms, i) => ms - (directMs[i] as number))),
  };
}
