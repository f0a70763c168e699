import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors';
import { claimReceiptId } from '../../src/issuance/claim-receipt-id';
import { insertClaim } from '../../src/storage/receipt-claims';

// The wait of a duplicate, on a fake clock: it polls D1 with back-off (50 ms doubling to 1 s) and
// gives up at its limit with a retryable 409 that says when to come back.

const request = {
  task: 'summarize',
  instructions: 'Summarize.',
  receiptSalt: 'YmFja29mZi1iYWNrb2ZmLWJhY2tvZmYtYmFja29mZi1iYWNrb2ZmLWI',
};

describe('a duplicate waiting for a live claim', () => {
  it('polls with back-off and answers 409 receipt.in_progress with Retry-After at its limit', async () => {
    const receiptId = crypto.randomUUID();
    let now = 1_000_000;
    await insertClaim(env.DB, {
      tenant: 'backoff',
      id: receiptId,
      token: 'holder',
      now,
      leaseUntil: now + 12_500,
      digest: null,
      logOrigin: 'valve.local/log/0',
    });
    const sleeps: number[] = [];
    const outcome = await claimReceiptId(
      'backoff',
      { ...request, receiptId },
      {
        db: env.DB,
        now: () => now,
        sleep: async (ms) => {
          sleeps.push(ms);
          now += ms;
        },
        waitMs: 3_000,
        appendOnce: () => Promise.reject(new Error('nothing is recovered here')),
        logOrigin: 'valve.local/log/0',
        registerClaim: () => Promise.reject(new Error('nothing is taken over here')),
        settleClaim: () => undefined,
      },
    ).catch((error: unknown) => error);
    expect(sleeps).toEqual([50, 100, 200, 400, 800, 1000, 450]);
    expect(outcome).toBeInstanceOf(ApiError);
    const error = outcome as ApiError;
    expect([error.code, error.status, error.retryable]).toEqual(['receipt.in_progress', 409, true]);
    expect(error.headers['Retry-After']).toBe('10');
  });
});
