import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createIssuance } from '../../src/issuance/create-issuance';
import { findReceipt } from '../../src/storage/receipts';
import { RoundTrips } from '../../src/storage/round-trips';

// The entry point the pipeline uses: a request without a receiptId claims nothing and waits on no
// storage; one with a receiptId claims it in D1, counted as the request's round trip, on the log shard
// of the tenant; releasing the claim frees the id.

const request = { task: 'summarize', instructions: 'Summarize.' };

function issuanceFor(tenant: string) {
  const trips = new RoundTrips();
  const behind: Promise<unknown>[] = [];
  const issuance = createIssuance(env, tenant, {
    trips,
    background: (work) => void behind.push(Promise.resolve(work())),
  });
  return { issuance, trips, behind };
}

describe('createIssuance', () => {
  it('claims nothing for a request without a receiptId, with no round trip', async () => {
    const { issuance, trips } = issuanceFor('issuance-none');
    expect(await issuance.claim(request)).toEqual({});
    expect(trips.trips).toEqual([]);
  });

  it('claims a caller’s receiptId in D1 as a counted round trip, and frees it on release', async () => {
    const { issuance, trips } = issuanceFor('issuance-claim');
    const receiptId = crypto.randomUUID();
    const claimed = await issuance.claim({ ...request, receiptId });
    const claim = claimed.replay === undefined ? claimed.claim : undefined;
    expect(claim).toMatchObject({ tenant: 'issuance-claim', id: receiptId, logOrigin: 'valve.local/log/0' });
    expect(trips.trips.map((trip) => trip.desc)).toEqual(['d1:claim']);
    expect((await findReceipt(env.DB, 'issuance-claim', receiptId))?.state).toBe('pending');
    await claim?.release();
    expect(await findReceipt(env.DB, 'issuance-claim', receiptId)).toBeNull();
  });
});
