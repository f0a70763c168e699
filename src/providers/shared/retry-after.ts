// How long a provider asks us to wait, read from its response headers. Precedence: the exact
// `retry-after-ms` (OpenAI), then `Retry-After` (seconds or an HTTP-date, RFC 9110 §10.2.3), then the
// reset time of an exhausted rate-limit bucket (OpenAI `x-ratelimit-reset-*` durations, Anthropic
// `anthropic-ratelimit-*-reset` RFC 3339 instants). Absent or unreadable means undefined, never 0.

const maxHintMs = 24 * 60 * 60 * 1000;

function clamp(ms: number): number | undefined {
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(Math.ceil(ms), maxHintMs);
}

/** `Retry-After`: delay-seconds (`120`, tolerated `1.5`) or an HTTP-date, relative to `now`. */
export function parseRetryAfterValue(value: string | null, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return clamp(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return clamp(Math.max(0, at - now));
}

/** A Go-style duration as OpenAI sends it: `1s`, `6m0s`, `20ms`, `1h2m3.5s`. */
export function parseDurationMs(value: string | null): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  let consumed = '';
  for (const match of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    total += Number(match[1]) * (units[match[2] ?? ''] ?? 0);
    consumed += match[0];
  }
  return consumed === text ? clamp(total) : undefined;
}

function resetOfExhaustedBucket(headers: Headers, now: number): number | undefined {
  const hints: number[] = [];
  const buckets = ['requests', 'tokens', 'input-tokens', 'output-tokens'];
  for (const bucket of buckets) {
    const exhausted =
      headers.get(`x-ratelimit-remaining-${bucket}`) === '0' ||
      headers.get(`anthropic-ratelimit-${bucket}-remaining`) === '0';
    if (!exhausted) continue;
    const openai = parseDurationMs(headers.get(`x-ratelimit-reset-${bucket}`));
    if (openai !== undefined) hints.push(openai);
    const anthropicReset = headers.get(`anthropic-ratelimit-${bucket}-reset`);
    if (anthropicReset) {
      const at = Date.parse(anthropicReset);
      if (!Number.isNaN(at)) hints.push(Math.max(0, at - now));
    }
  }
  return hints.length === 0 ? undefined : clamp(Math.max(...hints));
}

/** The wait a provider asked for, in milliseconds, or undefined when it gave no usable hint. */
export function parseRetryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const exact = headers.get('retry-after-ms')?.trim();
  if (exact && /^\d+(\.\d+)?$/.test(exact)) return clamp(Number(exact));
  return parseRetryAfterValue(headers.get('retry-after'), now) ?? resetOfExhaustedBucket(headers, now);
}
