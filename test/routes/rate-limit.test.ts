import { describe, expect, it } from 'vitest';
import { adminToken, postJson, reason } from '../helpers/api';

describe('per-key rate limits', () => {
  it('answers 429 limit.rate_limited with Retry-After once a key is over its limit', async () => {
    const res = await postJson(
      '/v1/admin/keys',
      { tenant: 'acme', scopes: ['reason'], rateLimitPerMinute: 3 },
      { Authorization: `Bearer ${adminToken}` },
    );
    const { key, rateLimitPerMinute } = (await res.json()) as { key: string; rateLimitPerMinute: number };
    expect(rateLimitPerMinute).toBe(3);
    const body = { task: 'summarize', instructions: 'Summarize.' };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await reason(key, body)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await reason(key, body);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('RateLimit-Limit')).toBe('3');
    const json = (await limited.json()) as { error: { code: string; retryable: boolean } };
    expect(json.error).toMatchObject({ code: 'limit.rate_limited', retryable: true });
  });

  it('keeps each key’s limit separate', async () => {
    const make = async () =>
      (
        (await (
          await postJson(
            '/v1/admin/keys',
            { tenant: 'acme', scopes: ['reason'], rateLimitPerMinute: 1 },
            { Authorization: `Bearer ${adminToken}` },
          )
        ).json()) as { key: string }
      ).key;
    const [first, second] = [await make(), await make()];
    const body = { task: 'summarize', instructions: 'Summarize.' };
    expect((await reason(first, body)).status).toBe(200);
    expect((await reason(first, body)).status).toBe(429);
    expect((await reason(second, body)).status).toBe(200);
  });
});
