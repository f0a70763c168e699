import { describe, expect, it } from 'vitest';
import { receiptsPageSchema } from '../../src/contracts/admin-lists';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { adminToken, call, createKey, reason } from '../helpers/api';

const admin = { Authorization: `Bearer ${adminToken}` };

async function receiptsOf(query = '') {
  const res = await call(`/v1/admin/receipts${query}`, { headers: admin });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { page: receiptsPageSchema.parse(JSON.parse(text)), text };
}

/** The tenant's receipts once `count` of them are written (their rows go behind the answer). */
async function receiptsWhen(tenant: string, count: number) {
  for (let i = 0; i < 50; i++) {
    const listed = await receiptsOf(`?tenant=${tenant}`);
    if (listed.page.receipts.length >= count) return listed;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${tenant} never had ${count} receipts listed`);
}

describe('GET /v1/admin/receipts', () => {
  it('lists a receipt’s metadata as GET /v1/receipts/{id} gives it, never its JWS, proof or content', async () => {
    const { key } = await createKey('rl-meta');
    const secret = 'PAPAYA-7731 is the password of the vault';
    const res = await reason(key, {
      task: 'summarize',
      instructions: `Summarize the note. ${secret} (instructions)`,
      context: [{ trust: 'untrusted', privacy: 'internal', content: `${secret} (context)` }],
      conversation: [{ role: 'user', content: `${secret} (turn)` }],
    });
    const answer = reasonResponseSchema.parse(await res.json());
    const { page, text } = await receiptsWhen('rl-meta', 1);
    const stored = (await (
      await call(`/v1/receipts/${answer.receiptId}`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as Record<string, unknown>;
    expect(page.receipts).toEqual([
      {
        receiptId: answer.receiptId,
        tenant: 'rl-meta',
        issuedAt: stored.issuedAt,
        model: stored.model,
        costUsd: stored.costUsd,
        log: stored.log,
      },
    ]);
    expect(text).not.toContain('PAPAYA');
    expect(text).not.toContain(answer.output.format === 'text' ? answer.output.text : 'no text');
    expect(text).not.toContain(answer.receipt.jws.split('.')[1]);
    expect(text).not.toContain(answer.receipt.proof.split('\n')[2]);
  });

  it('lists every tenant’s receipts newest first, a page at a time', async () => {
    const a = await createKey('rl-page-a');
    const b = await createKey('rl-page-b');
    const ids: string[] = [];
    for (const key of [a.key, b.key, a.key]) {
      const answer = reasonResponseSchema.parse(
        await (await reason(key, { task: 't', instructions: 'Hi.' })).json(),
      );
      ids.push(answer.receiptId);
    }
    await receiptsWhen('rl-page-a', 2);
    await receiptsWhen('rl-page-b', 1);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const { page } = await receiptsOf(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.receipts.length).toBeLessThanOrEqual(1);
      seen.push(...page.receipts.map((r) => r.receiptId));
      cursor = page.next;
    }
    const ours = seen.filter((id) => ids.includes(id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(ours).toEqual([...ids].reverse());
  });

  it('answers a cursor it did not give with a 400 naming it', async () => {
    const res = await call('/v1/admin/receipts?cursor=WzEsMl0', { headers: admin });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { details: { issues: { path: string }[] } } };
    expect(body.error.details.issues[0]?.path).toBe('/cursor');
  });
});
