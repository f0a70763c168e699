import { describe, expect, it } from 'vitest';
import { call, createKey, reason } from '../helpers/api';

const body = { task: 'summarize', instructions: 'Summarize.' };

interface UsageBody {
  tenant: string;
  rows: {
    day: string;
    model: string;
    requests: number;
    errors: number;
    costUsd: number;
    inputTokens: number;
  }[];
  totals: { requests: number; errors: number; costUsd: number };
}

async function usage(key: string, query = ''): Promise<Response> {
  return call(`/v1/usage${query}`, { headers: { Authorization: `Bearer ${key}` } });
}

/** Usage is written off the response path; wait (bounded) until the expected count is visible. */
async function usageWhen(key: string, requests: number): Promise<UsageBody> {
  for (let i = 0; i < 50; i++) {
    const json = (await (await usage(key)).json()) as UsageBody;
    if (json.totals.requests >= requests) return json;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`usage never reached ${requests} requests`);
}

describe('GET /v1/usage', () => {
  it('aggregates a tenant’s requests by model and day, with cost, and never shows another tenant’s', async () => {
    const a = await createKey('usage-a');
    const b = await createKey('usage-b');
    await reason(a.key, body);
    await reason(a.key, { ...body, modelPolicy: { prefer: 'cost' } });
    await reason(a.key, { ...body, modelPolicy: { regions: ['nowhere'] } });
    await reason(b.key, body);

    const usageA = await usageWhen(a.key, 3);
    const today = new Date().toISOString().slice(0, 10);
    expect(usageA.tenant).toBe('usage-a');
    expect(usageA.rows.map((r) => [r.day, r.model, r.requests, r.errors])).toEqual([
      [today, 'none', 1, 1],
      [today, 'sim/deep', 1, 0],
      [today, 'sim/fast', 1, 0],
    ]);
    expect(usageA.totals.costUsd).toBeGreaterThan(0);
    expect(usageA.rows.find((r) => r.model === 'sim/deep')?.inputTokens).toBeGreaterThan(0);

    const usageB = await usageWhen(b.key, 1);
    expect(usageB.totals.requests).toBe(1);
    expect(usageB.rows.map((r) => r.model)).toEqual(['sim/deep']);
  });

  it('groups by model only when asked', async () => {
    const a = await createKey('usage-c');
    await reason(a.key, body);
    await usageWhen(a.key, 1);
    const json = (await (await usage(a.key, '?groupBy=model')).json()) as UsageBody;
    expect(json.rows).toEqual([expect.objectContaining({ model: 'sim/deep', requests: 1 })]);
    expect(json.rows[0]).not.toHaveProperty('day');
  });

  it('needs the usage:read scope and a valid query', async () => {
    const writer = await createKey('tenant-d', ['reason']);
    expect((await usage(writer.key)).status).toBe(403);
    const reader = await createKey('tenant-d', ['usage:read']);
    expect((await usage(reader.key, '?groupBy=tenant')).status).toBe(400);
    expect((await usage(reader.key, '?from=yesterday')).status).toBe(400);
    expect((await usage(reader.key, '?from=2026-02-01&to=2026-01-01')).status).toBe(400);
    expect((await usage(reader.key, '?from=2026-01-01&extra=1')).status).toBe(400);
  });

  it('accepts RFC 3339 timestamps as bounds, counting only what falls between them', async () => {
    const a = await createKey('tenant-e');
    const before = Date.now() - 1;
    await reason(a.key, body);
    await usageWhen(a.key, 1);
    const after = Date.now() + 1;
    const iso = (ms: number) => new Date(ms).toISOString();
    const window = await usage(a.key, `?from=${iso(before)}&to=${iso(after)}`);
    expect(window.status).toBe(200);
    const json = (await window.json()) as UsageBody & { from: string; to: string };
    expect(json.totals.requests).toBe(1);
    expect(json.from).toBe(iso(before));
    const earlier = (await (
      await usage(a.key, `?from=${iso(before - 60_000)}&to=${iso(before)}`)
    ).json()) as UsageBody;
    expect(earlier.totals.requests).toBe(0);
    // The same instant written with an offset, and a day as `from` with a timestamp as `to`.
    const shifted = new Date(after + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const day = iso(before).slice(0, 10);
    const mixed = (await (
      await usage(a.key, `?from=${day}&to=${encodeURIComponent(shifted)}`)
    ).json()) as UsageBody;
    expect(mixed.totals.requests).toBe(1);
  });

  it.each([
    ['30 February', '2026-02-30T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['no time zone', '2026-01-01T10:00:00'],
    ['a day that does not exist', '2026-02-30'],
  ])('rejects a bound with %s, saying what it takes', async (_, bound) => {
    const reader = await createKey('tenant-f', ['usage:read']);
    const res = await usage(reader.key, `?from=${encodeURIComponent(bound)}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('RFC 3339 timestamp');
  });

  it('rejects a timestamp `from` after a timestamp `to`', async () => {
    const reader = await createKey('tenant-f', ['usage:read']);
    const res = await usage(reader.key, '?from=2026-01-01T10:00:00Z&to=2026-01-01T09:59:59.999Z');
    expect(res.status).toBe(400);
  });
});
