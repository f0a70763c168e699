import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { adminToken, call, createKey, reason } from '../helpers/api';

function setCap(tenant: string, monthlyCapUsd: number | null): Promise<Response> {
  return call(`/v1/admin/tenants/${tenant}/budget`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ monthlyCapUsd }),
  });
}

describe('tenant spend budgets', () => {
  it('never lets 200 concurrent requests overspend a cap that fits 50', { timeout: 60_000 }, async () => {
    const tenant = 'capped';
    const { key } = await createKey(tenant, ['reason']);
    // Each request may spend at most its own maxCostUsd; the cap fits exactly 50 such reservations.
    const perRequest = 0.001;
    expect((await setCap(tenant, perRequest * 50)).status).toBe(200);
    const body = {
      task: 'summarize',
      instructions: 'Summarize.',
      modelPolicy: { prefer: 'cost', maxCostUsd: perRequest },
    };
    const responses = await Promise.all(Array.from({ length: 200 }, () => reason(key, body)));
    const statuses = responses.map((r) => r.status);
    const ok = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 402).length;
    expect(ok + refused).toBe(200);
    expect(ok).toBeGreaterThanOrEqual(50);
    // Requests that finish give back what they did not spend, so more than 50 may fit; any refusal
    // must be the budget's.
    for (const r of responses.filter((r) => r.status === 402)) {
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('limit.budget_exhausted');
    }
    const spent = (
      await Promise.all(
        responses
          .filter((r) => r.status === 200)
          .map(async (r) => ((await r.json()) as { costUsd: number }).costUsd),
      )
    ).reduce((a, b) => a + b, 0);
    // Each isolate settles its lease of the budget behind the answers: wait (bounded) until it has.
    let status = await env.TENANT_BUDGET.getByName(tenant).status();
    for (let i = 0; i < 50 && status.reservedUsd !== 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await env.TENANT_BUDGET.getByName(tenant).status();
    }
    expect(status.reservedUsd).toBe(0);
    expect(status.spentUsd).toBeCloseTo(spent, 12);
    expect(status.spentUsd).toBeLessThanOrEqual(perRequest * 50 + 1e-12);
  });

  it('refuses with 402 once the month’s cap is spent, and admits again when the cap is lifted', async () => {
    const tenant = 'tiny';
    const { key } = await createKey(tenant, ['reason']);
    expect((await setCap(tenant, 0)).status).toBe(200);
    const body = { task: 'summarize', instructions: 'Summarize.' };
    expect((await reason(key, body)).status).toBe(402);
    expect((await setCap(tenant, null)).status).toBe(200);
    expect((await reason(key, body)).status).toBe(200);
  });

  it('starts a new cap from what the tenant already spent this month', async () => {
    const tenant = 'late-cap';
    const { key } = await createKey(tenant, ['reason', 'usage:read']);
    const body = { task: 'summarize', instructions: 'Summarize.' };
    expect((await reason(key, body)).status).toBe(200);
    // Usage is written off the response path: wait (bounded) until it is visible.
    let spent = 0;
    for (let i = 0; i < 50 && spent === 0; i++) {
      const usage = (await (
        await call('/v1/usage', { headers: { Authorization: `Bearer ${key}` } })
      ).json()) as {
        totals: { costUsd: number };
      };
      spent = usage.totals.costUsd;
      if (spent === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(spent).toBeGreaterThan(0);
    const res = await setCap(tenant, spent);
    expect(await res.json()).toMatchObject({ capUsd: spent, spentUsd: spent, remainingUsd: 0 });
    expect((await reason(key, body)).status).toBe(402);
  });

  it('shows a tenant’s budget to the admin and validates the change', async () => {
    expect((await setCap('shown', 12.5)).status).toBe(200);
    const res = await call('/v1/admin/tenants/shown/budget', {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(await res.json()).toMatchObject({
      tenant: 'shown',
      capUsd: 12.5,
      spentUsd: 0,
      reservedUsd: 0,
      remainingUsd: 12.5,
    });
    expect((await setCap('shown', -1)).status).toBe(400);
    const badTenant = await call('/v1/admin/tenants/bad%20name/budget', {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(badTenant.status).toBe(400);
  });
});
