/** A token bucket's state: tokens left and when it was last refilled. */
export interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface TakeResult {
  allowed: boolean;
  /** How long until one token is available again (0 when allowed). */
  retryAfterMs: number;
  remaining: number;
  bucket: Bucket;
}

/**
 * Takes one token from a bucket of `perMinute` capacity refilled continuously at `perMinute` a minute.
 * Pure: the caller stores the returned bucket.
 */
export function takeToken(bucket: Bucket | undefined, perMinute: number, now: number): TakeResult {
  const ratePerMs = perMinute / 60_000;
  const elapsed = bucket ? Math.max(0, now - bucket.updatedAt) : 0;
  const tokens = bucket ? Math.min(perMinute, bucket.tokens + elapsed * ratePerMs) : perMinute;
  if (tokens >= 1) {
    const next = { tokens: tokens - 1, updatedAt: now };
    return { allowed: true, retryAfterMs: 0, remaining: Math.floor(next.tokens), bucket: next };
  }
  return {
    allowed: false,
    retryAfterMs: Math.ceil((1 - tokens) / ratePerMs),
    remaining: 0,
    bucket: { tokens, updatedAt: now },
  };
}

export interface LeaseResult {
  /** Whole tokens handed out, 0..want. */
  granted: number;
  /** When `granted` is 0: how long until one token is available again. */
  retryAfterMs: number;
  /** Whole tokens left in the bucket after the grant. */
  remaining: number;
  bucket: Bucket;
}

/** Takes up to `want` whole tokens at once (an isolate's lease); pure like `takeToken`. */
export function takeTokens(
  bucket: Bucket | undefined,
  perMinute: number,
  now: number,
  want: number,
): LeaseResult {
  const ratePerMs = perMinute / 60_000;
  const elapsed = bucket ? Math.max(0, now - bucket.updatedAt) : 0;
  const tokens = bucket ? Math.min(perMinute, bucket.tokens + elapsed * ratePerMs) : perMinute;
  const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(tokens)));
  const left = tokens - granted;
  return {
    granted,
    retryAfterMs: granted > 0 ? 0 : Math.ceil((1 - tokens) / ratePerMs),
    remaining: Math.floor(left),
    bucket: { tokens: left, updatedAt: now },
  };
}
