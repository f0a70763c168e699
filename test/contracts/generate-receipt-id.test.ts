import { describe, expect, it } from 'vitest';
import { generateReceiptId } from '../../src/contracts/generate-receipt-id';
import { callerReceiptIdSchema } from '../../src/contracts/reason-request';

// Receipt ids Valve draws: version 8 (so no caller can send one), unique, and in the order they were
// drawn, so that each receipt row lands at the end of D1's (tenant, id) index instead of on a random page.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('generateReceiptId', () => {
  it('is a version 8, RFC 9562 variant UUID that a caller may not send', () => {
    const id = generateReceiptId();
    expect(id).toMatch(UUID);
    expect(callerReceiptIdSchema.safeParse(id).success).toBe(false);
  });

  it('starts with the time it was drawn, in milliseconds, so later ids sort after earlier ones', () => {
    const at = Date.UTC(2026, 11, 1, 17, 30, 0, 123);
    const id = generateReceiptId(at);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    const drawn = [at, at + 1, at + 255, at + 256, at + 86_400_000].map((ms) => generateReceiptId(ms));
    expect([...drawn].sort()).toEqual(drawn);
  });

  it('keeps 74 random bits: ids of the same millisecond differ', () => {
    const at = Date.UTC(2026, 11, 1);
    const ids = new Set(Array.from({ length: 1000 }, () => generateReceiptId(at)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(UUID);
  });
});
