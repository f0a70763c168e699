import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { entryProofBodySchema } from '../../src/contracts/receipt-bodies';
import { decodeBase64Url } from '../../src/encoding/base64';
import { logOriginOf } from '../../src/log/log-settings';
import { verifyInclusionBundle } from '../../src/log/tlog-proof';
import { serviceKeysOf } from '../../src/receipts/service-keys';
import { call, createKey, logSize, reason } from '../helpers/api';

// GET /v1/log/proof: any entry's whole tlog-proof at the log's published checkpoint, for an auditor who
// holds a receipt whose own proof predates the witnesses' round. Without witnesses (as here), the
// published checkpoint is the latest signed one.

describe('GET /v1/log/proof', () => {
  it('answers a receipt’s tlog-proof at the latest checkpoint, which verifies under the pinned key', async () => {
    const key = await createKey();
    const res = await reason(key.key, { task: 'proof', instructions: 'Say hi.' });
    const receipt = reasonResponseSchema.parse(await res.json()).receipt;
    const index = Number(/^index (\d+)$/m.exec(receipt.proof)?.[1]);
    await reason(key.key, { task: 'later', instructions: 'Say hi again.' });
    const answer = await call(`/v1/log/proof?index=${index}`);
    expect(answer.status).toBe(200);
    const body = entryProofBodySchema.parse(await answer.json());
    expect(body).toMatchObject({ origin: logOriginOf(env), index, treeSize: await logSize() });
    expect(body.treeSize).toBeGreaterThan(index + 1);
    const pinned = (await serviceKeysOf(env, logOriginOf(env))).trustRoot.logs[0] as {
      origin: string;
      verifierKey: string;
    };
    const payload = decodeBase64Url(receipt.jws.split('.')[1] as string) as Uint8Array;
    const verified = await verifyInclusionBundle(payload, body.proof, pinned);
    expect(verified.ok).toBe(true);
  });

  it('answers 400 log.invalid_range for an index no checkpoint holds, 400 for a bad one, 404 for an unlisted origin', async () => {
    const beyond = await call(`/v1/log/proof?index=${(await logSize()) + 5}`);
    expect(beyond.status).toBe(400);
    expect(((await beyond.json()) as { error: { code: string } }).error.code).toBe('log.invalid_range');
    expect((await call('/v1/log/proof?index=-1')).status).toBe(400);
    expect((await call('/v1/log/proof')).status).toBe(400);
    expect((await call('/v1/log/proof?index=0&origin=valve.local/log/nope')).status).toBe(404);
  });
});
