import { describe, expect, it } from 'vitest';
import { takeToken } from '../../src/limits/token-bucket';

describe('takeToken', () => {
  it('allows a full bucket of requests, then refuses with the time until the next token', () => {
    let bucket: ReturnType<typeof takeToken>['bucket'] | undefined;
    for (let i = 0; i < 60; i++) {
      const result = takeToken(bucket, 60, 1_000);
      expect(result.allowed).toBe(true);
      bucket = result.bucket;
    }
    const refused = takeToken(bucket, 60, 1_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 1000, remaining: 0 });
  });

  it('refills continuously at the per-minute rate, never above capacity', () => {
    const empty = { tokens: 0, updatedAt: 0 };
    expect(takeToken(empty, 60, 500).allowed).toBe(false);
    expect(takeToken(empty, 60, 1_000).allowed).toBe(true);
    expect(takeToken(empty, 60, 3_600_000).remaining).toBe(59);
  });
});
