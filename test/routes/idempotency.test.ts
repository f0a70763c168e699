import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { call, createKey, logSize, reason } from '../helpers/api';

const base = {
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  receiptSalt: 'aWRlbXBvdGVuY3ktaWRlbXBvdGVuY3ktaWRlbXBvdGVuY3ktaWQ',
};

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; details: Record<string, unknown> } }).error;
}

describe('idempotent receipt ids', () => {
  it('replays the same response and receipt for the same id, salt and request, logging once', async () => {
    const { key } = await createKey('idem-a');
    const body = { ...base, receiptId: crypto.randomUUID() };
    const first = await reason(key, body);
    const size = await logSize();
    const again = await reason(key, body);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const [a, b] = [await first.json(), await again.json()];
    expect(b).toEqual(a);
    expect(reasonResponseSchema.parse(b).receipt.jws).toBe(reasonResponseSchema.parse(a).receipt.jws);
    expect(await logSize()).toBe(size);
  });

  it('answers 409 receipt.conflict for a different request under the same id', async () => {
    const { key } = await createKey('idem-b');
    const receiptId = crypto.randomUUID();
    expect((await reason(key, { ...base, receiptId })).status).toBe(200);
    const other = await reason(key, { ...base, receiptId, instructions: 'Translate the ticket.' });
    expect(other.status).toBe(409);
    expect((await errorOf(other)).code).toBe('receipt.conflict');
    const otherSalt = await reason(key, { ...base, receiptId, receiptSalt: `${base.receiptSalt}x` });
    expect(otherSalt.status).toBe(409);
  });

  it('answers 409 with a pointer to the stored receipt when Valve generated the salt', async () => {
    const { key } = await createKey('idem-c');
    const { receiptSalt: _, ...unsalted } = base;
    const receiptId = crypto.randomUUID();
    expect((await reason(key, { ...unsalted, receiptId })).status).toBe(200);
    const retry = await reason(key, { ...unsalted, receiptId });
    expect(retry.status).toBe(409);
    expect((await errorOf(retry)).details.receipt).toBe(`/v1/receipts/${receiptId}`);
  });

  it('stores only ciphertext, and after the retention window answers 409 instead of a replay', async () => {
    const { key } = await createKey('idem-f');
    const body = { ...base, receiptId: crypto.randomUUID() };
    expect((await reason(key, body)).status).toBe(200);
    const row = await env.DB.prepare('SELECT * FROM receipts WHERE tenant = ? AND id = ?')
      .bind('idem-f', body.receiptId)
      .first<Record<string, unknown>>();
    const stored = JSON.stringify(row, (_, v) => (v instanceof ArrayBuffer ? [...new Uint8Array(v)] : v));
    for (const secret of ['printer', base.receiptSalt, 'Summarize']) expect(stored).not.toContain(secret);
    await env.DB.prepare('UPDATE receipts SET replay_expires_at = 1 WHERE id = ?').bind(body.receiptId).run();
    const retry = await reason(key, body);
    expect(retry.status).toBe(409);
    expect((await errorOf(retry)).details.receipt).toBe(`/v1/receipts/${body.receiptId}`);
  });

  it('keeps ids per tenant: another tenant may use the same id', async () => {
    const receiptId = crypto.randomUUID();
    const one = await createKey('idem-d1');
    const two = await createKey('idem-d2');
    expect((await reason(one.key, { ...base, receiptId })).status).toBe(200);
    expect((await reason(two.key, { ...base, receiptId, task: 'other' })).status).toBe(200);
  });

  it('lets concurrent duplicates call the model once and answer the same receipt', async () => {
    const { key } = await createKey('idem-e');
    const body = { ...base, receiptId: crypto.randomUUID() };
    const size = await logSize();
    const answers = await Promise.all([reason(key, body), reason(key, body), reason(key, body)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const jws = await Promise.all(
      answers.map(async (r) => reasonResponseSchema.parse(await r.json()).receipt.jws),
    );
    expect(new Set(jws).size).toBe(1);
    expect(await logSize()).toBe(size + 1);
  });
});

describe('committed values must be I-JSON', () => {
  it('rejects a duplicate member name in the raw body before the model is called', async () => {
    const { key } = await createKey('ijson-a');
    const size = await logSize();
    const res = await call('/v1/reason', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: '{"task":"a","instructions":"x","modelPolicy":{"prefer":"cost","prefer":"quality"}}',
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('request.invalid');
    expect(error.details.issues).toEqual([
      expect.objectContaining({ path: '/modelPolicy/prefer', code: 'i-json.duplicate-key' }),
    ]);
    expect(await logSize()).toBe(size);
  });

  it('rejects a lone surrogate in a committed field, naming its path only', async () => {
    const { key } = await createKey('ijson-b');
    const res = await call('/v1/reason', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: '{"task":"a","instructions":"secret \\ud800 text"}',
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.details.issues).toEqual([
      expect.objectContaining({ path: '/instructions', code: 'i-json.lone-surrogate' }),
    ]);
    expect(JSON.stringify(error)).not.toContain('secret');
  });
});
