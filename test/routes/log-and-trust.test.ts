import { describe, expect, it } from 'vitest';
import { checkpointBodySchema } from '../../src/contracts/receipt-bodies';
import { jwksSchema, trustRootSchema } from '../../src/contracts/trust-root';
import { verifyCheckpoint } from '../../src/log/checkpoint';
import { call, createKey, reason } from '../helpers/api';

const body = { task: 'summarize', instructions: 'Summarize.', receiptSalt: 'A'.repeat(43) };

async function json(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await call(path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the public log and trust root', () => {
  it('serves a trust root whose log key verifies the latest checkpoint', async () => {
    const { key } = await createKey('log-a');
    await reason(key, body);
    await reason(key, body);
    const root = trustRootSchema.parse((await json('/v1/trust-root')).body);
    expect(root.receiptKeys).toEqual([expect.objectContaining({ validFrom: 0, validUntil: null })]);
    const checkpoint = checkpointBodySchema.parse((await json('/v1/log/checkpoint')).body);
    expect(checkpoint.treeSize).toBeGreaterThanOrEqual(2);
    const verified = await verifyCheckpoint(
      checkpoint.checkpoint,
      root.logs[0] as { origin: string; verifierKey: string },
    );
    expect(verified.ok).toBe(true);
  });

  it('lists every receipt key in the JWKS with its thumbprint as kid', async () => {
    const root = trustRootSchema.parse((await json('/v1/trust-root')).body);
    const jwks = jwksSchema.parse((await json('/.well-known/jwks.json')).body);
    expect(jwks.keys.map((k) => k.kid)).toEqual(root.receiptKeys.map((k) => k.kid));
  });

  it('answers inclusion and consistency proofs, empty between equal sizes', async () => {
    const { key } = await createKey('log-b');
    await reason(key, body);
    await reason(key, body);
    const size = ((await json('/v1/log/checkpoint')).body.treeSize as number) ?? 0;
    const inclusion = await json(`/v1/log/inclusion?index=0&size=${size}`);
    expect(inclusion.status).toBe(200);
    expect(inclusion.body.treeSize).toBe(size);
    expect((await json(`/v1/log/consistency?from=${size}&to=${size}`)).body.hashes).toEqual([]);
    expect((await json(`/v1/log/consistency?from=1&to=${size}`)).status).toBe(200);
  });

  it('answers 400 request.invalid for size 0, which the document’s minimum of 1 rules out', async () => {
    const res = await json('/v1/log/consistency?from=0&to=1');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'request.invalid',
      details: { issues: [{ path: '/from', code: 'too_small' }] },
    });
  });

  it('answers 400 log.invalid_range beyond the log, and for an index outside the tree', async () => {
    for (const path of ['/v1/log/consistency?from=1&to=1000000', '/v1/log/inclusion?index=5&size=5']) {
      const res = await json(path);
      expect(res.status, path).toBe(400);
      expect((res.body.error as { code: string }).code).toBe('log.invalid_range');
    }
  });

  it('answers 400 receipt.invalid_bundle for a body that is not a bundle', async () => {
    const res = await call('/v1/receipts/verify', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jws: 'x' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('receipt.invalid_bundle');
  });
});
