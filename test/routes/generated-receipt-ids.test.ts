import { describe, expect, it } from 'vitest';
import { createKey, reason } from '../helpers/api';

// A receipt id Valve generates is in the answer before its receipt row is stored (the row is written
// behind the answer). If a caller could send that id back as its own receiptId, the claim would find
// no row and a second receipt would be signed and logged for the same id.

const body = { task: 'summarize', instructions: 'Summarize.' };

describe('receipt ids Valve generates', () => {
  it('are version 8 UUIDs, which no caller may choose', async () => {
    const { key } = await createKey('ids-generated', ['reason']);
    const first = await reason(key, body);
    expect(first.status).toBe(200);
    const { receiptId } = (await first.json()) as { receiptId: string };
    expect(receiptId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const reused = await reason(key, { ...body, receiptId });
    expect(reused.status).toBe(400);
    const { error } = (await reused.json()) as { error: { code: string; details: { issues: unknown[] } } };
    expect(error.code).toBe('request.invalid');
    expect(JSON.stringify(error.details)).toContain('/receiptId');
    expect(JSON.stringify(error.details)).toContain('version 8');
  });

  it('still let a caller choose any other version', async () => {
    const { key } = await createKey('ids-caller', ['reason']);
    const own = crypto.randomUUID();
    const res = await reason(key, { ...body, receiptId: own });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { receiptId: string }).receiptId).toBe(own);
  });
});
