import { describe, expect, it } from 'vitest';
import { adminToken, call, createKey, reason } from '../helpers/api';

/** The storage round trips an answer reports, in the order they were awaited. */
function tripsOf(res: Response): string[] {
  const header = res.headers.get('Server-Timing');
  expect(header).not.toBeNull();
  return (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('storage;'))
    .map((entry) => /desc="([^"]*)"/.exec(entry)?.[1] ?? '?');
}

const body = { task: 'summarize', instructions: 'Summarize.' };

describe('storage round trips in Server-Timing', () => {
  it('a plain request waits on the log append alone once the isolate knows its key', async () => {
    const { key } = await createKey('trips-plain', ['reason']);
    const first = await reason(key, body);
    expect(first.status).toBe(200);
    // The first request looks the key up and draws this isolate's lease of its rate limit.
    expect(tripsOf(first)).toEqual(expect.arrayContaining(['d1:api-key', 'do:rate-limit', 'do:log']));
    expect(tripsOf(first)).not.toContain('d1:receipt');
    const second = await reason(key, body);
    expect(second.status).toBe(200);
    expect(tripsOf(second)).toEqual(['do:log']);
  });

  it('a request with a receiptId also waits on its claim, and its fence is the log append itself', async () => {
    const { key } = await createKey('trips-claim', ['reason', 'receipts:read']);
    expect((await reason(key, body)).status).toBe(200);
    const receiptId = crypto.randomUUID();
    const res = await reason(key, { ...body, receiptId });
    expect(res.status).toBe(200);
    expect(tripsOf(res)).toEqual(['d1:claim', 'do:log']);
    // The completion written behind the answer is there for the receipt's own lookup right away.
    const { receipt } = (await res.json()) as { receipt: { jws: string } };
    const stored = await call(`/v1/receipts/${receiptId}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(stored.status).toBe(200);
    expect(((await stored.json()) as { jws: string }).jws).toBe(receipt.jws);
  });

  it('a capped tenant’s request waits on one budget draw and the log append, never on its settlement', async () => {
    const tenant = 'trips-capped';
    const { key } = await createKey(tenant, ['reason']);
    expect((await reason(key, body)).status).toBe(200);
    const cap = await call(`/v1/admin/tenants/${tenant}/budget`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ monthlyCapUsd: 10 }),
    });
    expect(cap.status).toBe(200);
    const res = await reason(key, body);
    expect(res.status).toBe(200);
    expect(tripsOf(res)).toEqual(['do:budget', 'do:log']);
  });

  it('reports the round trips of a refused request too', async () => {
    const res = await reason('vk_not_a_key', body);
    expect(res.status).toBe(401);
    expect(tripsOf(res)).toEqual(['d1:api-key']);
  });
});
